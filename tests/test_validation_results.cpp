// Validation logic, the results writer and .npy exchange.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "datagen/base/errors.hpp"
#include "datagen/npy.hpp"
#include "harness/results.hpp"
#include "harness/validation.hpp"

namespace ladder {
namespace {

TEST(Indices, FullSampleOff) {
  Validation full, off, sample;
  off.mode = Validation::Mode::off;
  sample.mode = Validation::Mode::sample;
  sample.sample = 10;
  EXPECT_EQ(validation_indices(full, 5, 1), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(validation_indices(off, 5, 1).empty());
  auto s = validation_indices(sample, 1000, 99);
  ASSERT_EQ(s.size(), 10u);
  EXPECT_EQ(s.front(), 0u);
  EXPECT_TRUE(std::is_sorted(s.begin(), s.end()));
  EXPECT_EQ(std::set<std::size_t>(s.begin(), s.end()).size(), 10u);
  EXPECT_LT(s.back(), 1000u);
  EXPECT_EQ(validation_indices(sample, 1000, 99), s);  // deterministic per seed
  EXPECT_EQ(validation_indices(sample, 4, 99).size(), 4u);  // sample >= total: everything
}

Output floats(std::vector<float> v) { return Output{std::move(v), {}}; }

TEST(Compare, ToleranceNanInfAndSize) {
  Tolerance tol{1e-3, 1e-2, "test"};
  std::vector<std::size_t> idx{0, 1, 2};
  EXPECT_TRUE(compare_outputs(floats({1, 2, 3}), 3, idx, {1, 2, 3}, tol).ok);
  // within abs + rel*|want|: 100 vs 100.9 passes (allowance 1.001), 100 vs 101.1 fails
  EXPECT_TRUE(compare_outputs(floats({1, 2, 100.9f}), 3, idx, {1, 2, 100}, tol).ok);
  auto r = compare_outputs(floats({1, 2, 101.1f}), 3, idx, {1, 2, 100}, tol);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.failures, 1u);
  EXPECT_NE(r.first_failure.find("index 2"), std::string::npos);
  EXPECT_NEAR(r.max_abs, 1.1, 1e-4);
  EXPECT_FALSE(compare_outputs(floats({NAN, 2, 3}), 3, idx, {1, 2, 3}, tol).ok);
  EXPECT_TRUE(compare_outputs(floats({INFINITY, 2, 3}), 3, idx, {INFINITY, 2, 3}, tol).ok);
  EXPECT_FALSE(compare_outputs(floats({INFINITY, 2, 3}), 3, idx, {1e30, 2, 3}, tol).ok);
  EXPECT_FALSE(compare_outputs(floats({1, 2}), 3, {0, 1}, {1, 2}, tol).ok);
  // only the chosen indices are checked
  EXPECT_TRUE(compare_outputs(floats({1, NAN, 3}), 3, {0, 2}, {1, 3}, tol).ok);
}

TEST(Npy, RoundTripFloat32) {
  const std::string path = testing::TempDir() + "/x.npy";
  Output out{std::vector<float>{1.5f, -2.f, 3.25f, 0.f, 7.f, 8.f}, {2, 3}};
  write_npy(path, out);
  NpyArray a = read_npy(path);
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(a.values, (std::vector<double>{1.5, -2, 3.25, 0, 7, 8}));
  // the header is padded so the data starts on a 64-byte boundary, as numpy writes it
  EXPECT_EQ((std::filesystem::file_size(path) - 6 * 4) % 64, 0u);
}

TEST(Npy, RejectsOtherFiles) {
  const std::string path = testing::TempDir() + "/ints.npy";
  write_npy(path, Output{std::vector<std::int64_t>{1, 2}, {}});
  EXPECT_THROW(read_npy(path), InputError);  // integer dtype
  std::ofstream(testing::TempDir() + "/text.npy") << "hello";
  EXPECT_THROW(read_npy(testing::TempDir() + "/text.npy"), InputError);
  EXPECT_THROW(read_npy(testing::TempDir() + "/missing.npy"), InputError);
}

RunReport fake_report() {
  RunReport rep;
  rep.config = parse_config(nlohmann::json::parse(R"({"study": "dtw", "name": "t",
      "data": {"generator": "cbf"}, "axes": {"n": [4], "entries": [2]}})"), ".");
  rep.validation = rep.config.validation;
  rep.device.absent_reason = "no CUDA device";
  RunRecord r;
  r.variant = registry().variant("dtw/seq_tworow");
  r.params.set("n", "4");
  r.point = "entries=2,n=4";
  r.status = Status::passed;
  r.samples_ms = {3, 1, 2, 10};
  r.work = Work{"gcups", "GCUPS", 2e9, 1e9, 4, "test peak"};
  r.check.checked = 2;
  r.tolerance = {1e-5, 1e-6, "rule"};
  rep.runs.push_back(r);
  RunRecord skipped = r;
  skipped.variant = registry().variant("dtw/shared");
  skipped.status = Status::skipped;
  skipped.reason = "no CUDA device";
  skipped.samples_ms.clear();
  rep.runs.push_back(skipped);
  return rep;
}

TEST(Results, SchemaFields) {
  auto j = results_json(fake_report());
  EXPECT_EQ(j["schema_version"], kSchemaVersion);
  for (const char* k : {"ladder", "host", "device", "config", "runs", "summary"})
    EXPECT_TRUE(j.contains(k)) << k;
  const auto& run = j["runs"][0];
  EXPECT_EQ(run["study"], "dtw");
  EXPECT_EQ(run["variant"], "seq_tworow");
  EXPECT_EQ(run["step"], 2);
  EXPECT_EQ(run["status"], "passed");
  EXPECT_DOUBLE_EQ(run["timing"]["median"].get<double>(), 2.5);  // mean of middle two
  EXPECT_DOUBLE_EQ(run["timing"]["min"].get<double>(), 1);
  EXPECT_DOUBLE_EQ(run["timing"]["max"].get<double>(), 10);
  EXPECT_EQ(run["timing"]["samples"].size(), 4u);
  EXPECT_DOUBLE_EQ(run["metrics"]["gcups"].get<double>(), 2e9 / 2.5e-3 / 1e9);
  EXPECT_DOUBLE_EQ(run["metrics"]["pct_of_peak"].get<double>(), 100 * 800.0 / 4);
  EXPECT_EQ(j["runs"][1]["status"], "skipped");
  EXPECT_TRUE(j["runs"][1]["timing"].is_null());
  EXPECT_EQ(j["summary"]["passed"], 1);
  EXPECT_FALSE(j["device"]["present"].get<bool>());
}

TEST(Results, WrittenAtomicallyAndReadBack) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(testing::TempDir()) / "results_test";
  fs::remove_all(dir);
  const std::string path = (dir / "sub" / "r.json").string();
  write_results(path, fake_report());
  auto j = read_results(path);
  EXPECT_EQ(j["runs"].size(), 2u);
  for (const auto& e : fs::directory_iterator(dir / "sub"))
    EXPECT_EQ(e.path().filename(), "r.json") << "temporary file left behind";
  std::ofstream(dir / "other.json") << R"({"schema_version": 99, "runs": []})";
  EXPECT_THROW(read_results((dir / "other.json").string()), InputError);
}

TEST(Report, ExitStatusRule) {
  RunReport rep = fake_report();
  EXPECT_TRUE(rep.all_ok());
  rep.runs[0].status = Status::unsupported;
  EXPECT_TRUE(rep.all_ok());
  rep.runs[0].status = Status::incorrect;
  EXPECT_FALSE(rep.all_ok());
  rep.runs[0].status = Status::error;
  EXPECT_FALSE(rep.all_ok());
}

}  // namespace
}  // namespace ladder
