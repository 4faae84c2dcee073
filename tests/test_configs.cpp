// The shipped configs: every configs/**/*.json loads, the paper scale runs what the report's
// claims need, and every study's smoke config runs its CPU steps to a pass (the GPU steps are
// covered by test_gpu_steps and by scripts/gpu_check.sh). Beside them, the reproduction's cost
// table (configs/costs.json) reads as `reproduce` reads it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "datagen/base/errors.hpp"

#include "harness/config.hpp"
#include "harness/reuse.hpp"
#include "harness/runner.hpp"
#include "harness/share_dir.hpp"
#include "harness/tally.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;
const fs::path kConfigs = fs::path(LADDER_SOURCE_DIR) / "configs";
const fs::path kCostTable = kConfigs / "costs.json";  // not a config: scripts/cost_table.py's

TEST(Configs, EveryConfigLoads) {
  std::size_t count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(kConfigs)) {
    if (entry.path().extension() != ".json" || entry.path() == kCostTable) continue;
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

std::vector<std::string> paper_experiment_names() {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(kConfigs)) {
    if (entry.path().extension() != ".json" || entry.path() == kCostTable) continue;
    const nlohmann::json j = nlohmann::json::parse(std::ifstream(entry.path()));
    if (is_paper_experiment(j)) names.push_back(j.at("name").get<std::string>());
  }
  return names;
}

// The committed table is in the form `reproduce` reads (scripts/cost_table.py and the reader
// agree): a GPU and a time for some paper experiment at each scale, and only for those.
TEST(CostTable, CommittedTableGivesPaperExperimentsTimes) {
  const nlohmann::json table = nlohmann::json::parse(std::ifstream(kCostTable));
  const std::vector<std::string> names = paper_experiment_names();
  ASSERT_FALSE(names.empty());
  for (const char* scale : {"paper", "quick"}) {
    const CostTimes t = cost_table_times(table, scale, names);
    EXPECT_FALSE(t.gpu.empty()) << scale;
    EXPECT_TRUE(std::any_of(t.seconds.begin(), t.seconds.end(), [](double s) { return s > 0; })) << scale;
    for (const nlohmann::json& c : table["scales"][scale]["configs"])
      EXPECT_NE(std::find(names.begin(), names.end(), c.at("name")), names.end())
          << scale << ": " << c.at("name") << " is no paper experiment";
  }
}

TEST(CostTable, TimesOfTheScaleAskedMinusOneElseWhateverTheJson) {
  const nlohmann::json table = nlohmann::json::parse(R"({"scales": {
      "quick": {"gpu": "G", "configs": [{"name": "a", "elapsed_s": 1.5}, {"name": "b", "elapsed_s": -2},
                                        {"name": 3, "elapsed_s": 4}, {"name": "c", "elapsed_s": "4"}]},
      "paper": {"configs": [{"name": "a", "elapsed_s": 60}]}}})");
  const CostTimes quick = cost_table_times(table, "quick", {"a", "b", "c", "d"});
  EXPECT_EQ(quick.seconds, (std::vector<double>{1.5, -1, -1, -1}));
  EXPECT_EQ(quick.gpu, "G");
  const CostTimes paper = cost_table_times(table, "paper", {"a"});
  EXPECT_EQ(paper.seconds, std::vector<double>{60});
  EXPECT_EQ(paper.gpu, "");
  for (const char* damaged : {"null", "[]", "3", R"({"scales": []})", R"({"scales": {"quick": 1}})",
                              R"({"scales": {"quick": {"gpu": 5, "configs": {}}}})"}) {
    const CostTimes t = cost_table_times(nlohmann::json::parse(damaged), "quick", {"a", "b"});
    EXPECT_EQ(t.seconds, (std::vector<double>{-1, -1})) << damaged;
    EXPECT_EQ(t.gpu, "") << damaged;
  }
}

// The variants (study/name) of one sweep of a config at a scale, at each value of one param.
std::map<std::string, std::set<std::string>> sweep_variants(const std::string& config,
                                                           const std::string& scale,
                                                           const std::string& sweep,
                                                           const std::string& param) {
  std::map<std::string, std::set<std::string>> at;
  for (const Point& p : load_config((kConfigs / config).string(), scale).points)
    if (p.sweep == sweep)
      for (const VariantSpec* v : p.variants) at[p.params.text(param)].insert(v->id());
  return at;
}

// The paper scale runs what the report's claims are judged on (plots/<study>/report.py).
TEST(PaperScale, DtwLengthSweepKeepsTheSharedStep) {
  // "Shared memory too small for the DP rows of long series": the shared step (refused at
  // no GPU cost where its rows do not fit) beside thread-local, at every length.
  const auto at = sweep_variants("dtw/paper.json", "paper", "length", "n");
  ASSERT_EQ(at.size(), 5u);
  for (const auto& [n, variants] : at)
    EXPECT_EQ(variants, (std::set<std::string>{"dtw/thread_local", "dtw/shared"})) << n;
  EXPECT_TRUE(at.contains("1024"));
}

TEST(PaperScale, SkylineRunsNaiveAndApcAtASecondN) {
  // "APC's gain about the same at any n": naive and APC, the seed's forms and ladder's, at
  // a second n beside Fig. 11's 10^6 points, at both scales (quick: beside its 10^5).
  const std::set<std::string> steps = {"skyline/naive", "skyline/apc", "skyline/naive_seed",
                                       "skyline/apc_seed"};
  for (const auto& [scale, n] : {std::pair{"paper", "100000"}, std::pair{"quick", "10000"}}) {
    const auto at = sweep_variants("skyline/paper.json", scale, "apc_n", "n");
    ASSERT_EQ(at.size(), 1u) << scale;
    EXPECT_EQ(at.begin()->first, n) << scale;
    EXPECT_EQ(at.begin()->second, steps) << scale;
    EXPECT_NE(sweep_variants("skyline/paper.json", scale, "fig11", "n").begin()->first, n);
  }
  std::set<std::string> points;
  for (const Point& p : load_config((kConfigs / "skyline/paper.json").string(), "paper").points)
    if (p.sweep == "apc_n") points.insert(p.params.text("distribution") + p.params.text("d"));
  EXPECT_EQ(points.size(), 12u);  // Fig. 11's d on both of its distributions
}

TEST(PaperScale, TwedRunsOnePairInSeveralDimensions) {
  // "R^N inputs made no practical time difference": one N, R^1 up to cuTWED's R^32, for our
  // fastest steps (cuTWED, a peer, runs every point of the config).
  for (const char* scale : {"paper", "quick"}) {
    const auto at = sweep_variants("twed/paper.json", scale, "dim", "dim");
    EXPECT_EQ(at.size(), 4u) << scale;
    EXPECT_TRUE(at.contains("1") && at.contains("32")) << scale;
    for (const auto& [dim, variants] : at)
      EXPECT_EQ(variants, (std::set<std::string>{"twed/itwed", "twed/wavefront",
                                                 "twed/wavefront_fp32"}))
          << scale << " dim " << dim;
    EXPECT_EQ(sweep_variants("twed/paper.json", scale, "dim", "n").size(), 1u) << scale;
  }
}

TEST(PaperScale, TwedFullMatrixAtEveryTwedCPoint) {
  // Table 3's speedups are over twed.c, N = 1,024 .. 65,536: seq_full (its algorithm) at each.
  const auto at = sweep_variants("twed/paper.json", "paper", "pair", "n");
  for (const char* n : {"1024", "2048", "4096", "8192", "16384", "32768", "65536"}) {
    ASSERT_TRUE(at.contains(n)) << n;
    EXPECT_TRUE(at.at(n).contains("twed/seq_full")) << n;
  }
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
