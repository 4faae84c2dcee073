// The shipped configs: every configs/**/*.json loads, and every study's smoke config runs its
// CPU steps to a pass (the GPU steps are covered by test_gpu_steps and by scripts/gpu_check.sh).
// Beside them, the reproduction's cost table (configs/costs.json) reads as `reproduce` reads it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include "datagen/base/errors.hpp"

#include "harness/config.hpp"
#include "harness/reuse.hpp"
#include "harness/runner.hpp"

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
