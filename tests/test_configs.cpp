// The shipped configs: every configs/**/*.json loads, and every study's smoke config runs its
// CPU steps to a pass (the GPU steps are covered by test_gpu_steps and by scripts/gpu_check.sh).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>

#include "datagen/base/errors.hpp"

#include "harness/config.hpp"
#include "harness/runner.hpp"
#include "harness/share_dir.hpp"
#include "harness/tally.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;
const fs::path kConfigs = fs::path(LADDER_SOURCE_DIR) / "configs";

TEST(Configs, EveryConfigLoads) {
  std::size_t count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kConfigs)) {
    if (entry.path().extension() != ".json") continue;
    EXPECT_NO_THROW(load_config(entry.path().string())) << entry.path();
    ++count;
  }
  EXPECT_GE(count, 2u * registry().studies().size());
}

// Every paper experiment loads at both reproduction scales, and the quick scale does change
// it (its sizes are smaller: it must not silently be the paper scale).
TEST(Configs, PaperExperimentsLoadAtBothScales) {
  std::set<std::string> studies;
  for (const auto& entry : fs::recursive_directory_iterator(kConfigs)) {
    if (entry.path().extension() != ".json") continue;
    const std::string path = entry.path().string();
    const nlohmann::json j = nlohmann::json::parse(std::ifstream(path));
    if (!is_paper_experiment(j)) continue;
    Config paper, quick;
    ASSERT_NO_THROW(paper = load_config(path, "paper")) << path;
    ASSERT_NO_THROW(quick = load_config(path, "quick")) << path;
    EXPECT_EQ(paper.scale, "paper");
    EXPECT_EQ(quick.scale, "quick");
    EXPECT_NE(paper.resolved, quick.resolved) << path << ": the quick scale changes nothing";
    EXPECT_FALSE(quick.resolved.contains("reproduce")) << path;
    studies.insert(paper.study->name());
  }
  EXPECT_EQ(studies.size(), registry().studies().size()) << "a study has no paper experiment";
}

nlohmann::json scaled_config(const char* reproduce) {
  nlohmann::json j = {{"name", "t"}, {"study", "dtw"},
                      {"data", {{"generator", "cbf"}, {"seed", 1}}},
                      {"params", {{"entries", 50}}},
                      {"repetitions", 3},
                      {"sweeps", {{{"label", "a"}, {"axes", {{"n", {10, 20}}}}},
                                  {{"label", "b"}, {"axes", {{"n", {30}}}}},
                                  {{"label", "b"}, {"axes", {{"n", {40}}}}}}}};
  j["reproduce"] = nlohmann::json::parse(reproduce);
  return j;
}

TEST(Scales, PatchMergesFieldsAndSweepsByLabel) {
  const auto j = scaled_config(R"({"quick": {"repetitions": 1, "params": {"entries": 9},
                                             "sweeps": {"a": {"axes": {"n": [5]}}, "b": null}}})");
  const auto q = apply_scale(j, "quick");
  EXPECT_EQ(q["repetitions"], 1);
  EXPECT_EQ(q["params"]["entries"], 9);
  ASSERT_EQ(q["sweeps"].size(), 1u);  // both sweeps labelled b dropped
  EXPECT_EQ(q["sweeps"][0]["axes"]["n"], nlohmann::json({5}));
  EXPECT_EQ(q["data"]["seed"], 1);
  nlohmann::json unmarked = j;
  unmarked.erase("reproduce");
  EXPECT_EQ(apply_scale(j, "paper"), unmarked);  // no paper block: as written
  EXPECT_EQ(apply_scale(j, ""), j);
  const Config c = parse_config(q, ".");
  ASSERT_EQ(c.points.size(), 1u);
  EXPECT_EQ(c.points[0].params.text("n"), "5");
  EXPECT_EQ(c.points[0].params.text("entries"), "9");
}

TEST(Scales, SweepListReplacesTheSweeps) {
  const auto q = apply_scale(scaled_config(R"({"quick": {"sweeps": [{"label": "z", "axes": {"n": [7]}}]}})"),
                             "quick");
  ASSERT_EQ(q["sweeps"].size(), 1u);
  EXPECT_EQ(q["sweeps"][0]["label"], "z");
}

TEST(Scales, BadBlocksAreInputErrors) {
  for (const char* bad : {R"({"quick": {"sweeps": {"c": {}}}})", R"({"quick": {"study": "eed"}})",
                          R"({"quick": {"name": "x"}})", R"({"tiny": {}})", R"({"quick": 3})",
                          R"({"quick": {"sweeps": {"a": 3}}})", R"([])"})
    EXPECT_THROW(parse_config(scaled_config(bad), "."), InputError) << bad;
  // A bad value inside a scale fails the config at any scale, named as that scale's.
  try {
    parse_config(scaled_config(R"({"quick": {"params": {"entries": 0}}})"), ".");
    FAIL() << "entries 0 at the quick scale was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("quick"), std::string::npos) << e.what();
  }
  EXPECT_THROW(apply_scale(scaled_config("{}"), "huge"), InputError);
}

// A relative config not found from the working directory is read from the share folder
// (LADDER_SHARE here), its path recorded as given and its file the share's; one that is there
// from the working directory wins. The test runs in a folder of its own and puts the working
// directory and the environment back.
TEST(ShareDir, RelativeConfigsResolveFromTheShareFolder) {
  const fs::path here = fs::path(::testing::TempDir()) / "ladder_share_dir";
  fs::remove_all(here);
  fs::create_directories(here / "configs" / "dtw");
  const fs::path before = fs::current_path();
  const char* old_share = std::getenv("LADDER_SHARE");
  const std::string kept = old_share ? old_share : "";
  ::setenv("LADDER_SHARE", LADDER_SOURCE_DIR, 1);
  fs::current_path(here);
  const Config shared = load_config("configs/dtw/smoke.json");
  EXPECT_EQ(shared.path, "configs/dtw/smoke.json");
  EXPECT_TRUE(fs::equivalent(shared.file, kConfigs / "dtw" / "smoke.json")) << shared.file;
  EXPECT_EQ(input_files(shared).front(), shared.file);
  {
    std::ofstream local(here / "configs" / "dtw" / "smoke.json");
    local << R"({"name": "local", "study": "dtw", "data": {"generator": "cbf"}, "params": {"n": 8, "entries": 3}})";
  }
  EXPECT_EQ(load_config("configs/dtw/smoke.json").name, "local");
  EXPECT_THROW(load_config("configs/dtw/no_such.json"), InputError);
  ::setenv("LADDER_SHARE", here.c_str(), 1);  // configs/ but no plots/report.py: not a share
  std::string why;
  EXPECT_FALSE(find_share_dir(&why));
  EXPECT_NE(why.find("LADDER_SHARE"), std::string::npos) << why;
  EXPECT_THROW(share_dir(), InputError);
  fs::current_path(before);
  if (old_share) ::setenv("LADDER_SHARE", kept.c_str(), 1);
  else ::unsetenv("LADDER_SHARE");
  // Without LADDER_SHARE this test binary (in the build tree) finds the source tree above it.
  if (!old_share) {
    const std::optional<ShareDir> found = find_share_dir();
    ASSERT_TRUE(found);
    EXPECT_TRUE(fs::equivalent(found->path, LADDER_SOURCE_DIR)) << found->path;
  }
  fs::remove_all(here);
}

TEST(Tally, CountsRunsByOutcome) {
  Tally t;
  for (Status s : {Status::passed, Status::passed, Status::skipped, Status::unsupported, Status::incorrect,
                   Status::error})
    t.add(s);
  t.add(std::string("no such status"));  // counted, as failed: never dropped
  EXPECT_EQ(t.text(), "2 passed, 2 failed, 2 skipped (1 unsupported), 1 incorrect");
  EXPECT_EQ(t.total(), 7u);
  Tally f;
  f.add_runs(nlohmann::json::parse(R"({"runs": [{"status": "passed"}, {"status": 3}, "x"]})"));
  f.add_runs(nlohmann::json::parse("[1]"));
  EXPECT_EQ(f.text(), "1 passed, 0 failed, 0 skipped, 0 incorrect");
}

class SmokeConfig : public testing::TestWithParam<std::string> {};

TEST_P(SmokeConfig, CpuStepsPass) {
  const fs::path path = kConfigs / GetParam() / "smoke.json";
  ASSERT_TRUE(fs::exists(path)) << "every study needs a smoke config: " << path;
  RunOptions opt;
  opt.quiet = true;
  for (const VariantSpec* v : registry().variants(GetParam()))
    if (v->backend == Backend::cpu) opt.filter += (opt.filter.empty() ? "^(" : "|") + v->id();
  opt.filter += ")$";
  const RunReport rep = run_config(load_config(path.string()), opt);
  ASSERT_FALSE(rep.runs.empty());
  for (const RunRecord& r : rep.runs)
    EXPECT_TRUE(r.status == Status::passed || r.status == Status::unsupported)
        << r.variant->id() << " " << r.point << ": " << to_string(r.status) << " " << r.reason;
}

std::vector<std::string> study_names() {
  std::vector<std::string> out;
  for (const auto& s : registry().studies()) out.push_back(s->name());
  return out;
}

INSTANTIATE_TEST_SUITE_P(Studies, SmokeConfig, testing::ValuesIn(study_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace ladder
