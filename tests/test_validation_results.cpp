// Validation logic, the results writer and .npy exchange.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

#include "datagen/base/errors.hpp"
#include "datagen/npy.hpp"
#include "harness/hardware.hpp"
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

// An H100-like device: 132 SMs at 1.98 GHz, 3352.32 GB/s.
DeviceCaps h100() {
  DeviceCaps d;
  d.present = true, d.name = "NVIDIA H100 80GB HBM3", d.cc_major = 9, d.sm_count = 132;
  d.clock_khz = 1980000, d.memory_bytes_per_s = 3352.32e9;
  return d;
}

// The limit is written as before (peak, its rule and name, pct_of_peak, for readers that know
// no more), and beside it both bounds and which one binds.
TEST(Results, BothBoundsAreWrittenBesideTheLimit) {
  RunReport rep = fake_report();
  Work& w = rep.runs[0].work;  // 2e9 cells in 2.5 ms: 800 GCUPS
  w = Work{"gcups", "GCUPS", 2e9, 1e9};
  // 8 FP32 instructions a cell: 4181 GCUPS; 2e9 cells moving 4e9 bytes: 1676 GCUPS.
  w.set_limit({"fp32 cells", {{Pipe::fp32, 8}}, 1, "cell", "FP32"},
              {4e9, 1, "cells", "series read once"}, h100());
  const auto m = results_json(rep)["runs"][0]["metrics"];
  const double memory = 2e9 * 3352.32e9 / 4e9 / 1e9;
  EXPECT_NEAR(m["peak"].get<double>(), memory, 1e-9 * memory);
  EXPECT_NEAR(m["pct_of_peak"].get<double>(), 100 * 800 / memory, 1e-9);
  EXPECT_EQ(m["limit"], "DRAM bandwidth");
  EXPECT_EQ(m["peak_rule"].get<std::string>().rfind("min(compute 4181.76, memory 1676.16) GCUPS = "
                                                    "memory; compute: 128 fp32 instructions",
                                                    0),
            0u)
      << m["peak_rule"];
  const auto& b = m["bounds"];
  EXPECT_EQ(b["binds"], "memory");
  EXPECT_NEAR(b["compute"]["peak"].get<double>(), 128.0 / 8 * 132 * 1.98, 1e-9);
  EXPECT_EQ(b["compute"]["limit"], "FP32");
  EXPECT_EQ(b["compute"]["rule"], "128 fp32 instructions/clock/SM / 8 per cell x 132 SMs x 1.98 "
                                  "GHz (max SM clock; 9.0 rates)");
  EXPECT_NEAR(b["memory"]["peak"].get<double>(), memory, 1e-9 * memory);
  EXPECT_EQ(b["memory"]["limit"], "DRAM bandwidth");
  EXPECT_EQ(b["memory"]["bytes"], 4e9);
  EXPECT_EQ(b["memory"]["rule"], "3352.32 GB/s DRAM x 2000000000 cells / 4000000000 B (series "
                                 "read once)");

  // Without the compute bound (no row for the device) the limit is unknown, as before; the
  // memory bound is written all the same.
  DeviceCaps future = h100();
  future.cc_major = 13;
  w = Work{"gcups", "GCUPS", 2e9, 1e9};
  w.set_limit({"fp32 cells", {{Pipe::fp32, 8}}, 1, "cell", "FP32"},
              {4e9, 1, "cells", "series read once"}, future);
  const auto u = results_json(rep)["runs"][0]["metrics"];
  EXPECT_TRUE(u["pct_of_peak"].is_null());
  EXPECT_FALSE(u.contains("peak"));
  EXPECT_TRUE(u["bounds"]["binds"].is_null());
  EXPECT_TRUE(u["bounds"]["compute"]["peak"].is_null());
  EXPECT_NE(u["bounds"]["compute"]["reason"].get<std::string>().find("no row"), std::string::npos);
  EXPECT_NEAR(u["bounds"]["memory"]["peak"].get<double>(), memory, 1e-9 * memory);

  // The memory bound alone (no compute bound claimed) at a point whose passes fit in the L2:
  // no limit and none missing, and the bounds say why.
  DeviceCaps cached = h100();
  cached.l2_bytes = 50u << 20;
  w = Work{"gcups", "GCUPS", 2e9, 1e9};
  w.set_limit({4e7, 2, "cells", "series read once"}, "the cells' cost depends on the data", cached);
  const auto c = results_json(rep)["runs"][0]["metrics"];
  EXPECT_FALSE(c.contains("pct_of_peak"));
  EXPECT_FALSE(c.contains("peak_reason"));
  EXPECT_NE(c["bounds"]["memory"]["reason"].get<std::string>().find("fit in the 52428800 B L2"),
            std::string::npos);
  EXPECT_EQ(c["bounds"]["compute"]["reason"],
            "no compute bound claimed: the cells' cost depends on the data");

  // A study that claims no limit (a CPU step) writes no bounds.
  w = Work{"gcups", "GCUPS", 2e9, 1e9};
  EXPECT_FALSE(results_json(rep)["runs"][0]["metrics"].contains("bounds"));
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
