// Nsight Compute's CSV read and folded into a run's profile (harness/ncu_profile.hpp), on real
// exports of ncu 2025.3.1 on an H100 (tests/fixtures/ncu/, from `ncu --import R --csv --page raw
// --print-units base`): range replay, range replay renamed by NVTX, kernel replay with SASS
// counters; and the folding rules on hand-made results whose answers are known.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "datagen/base/errors.hpp"
#include "harness/cli/reproduce.hpp"
#include "harness/ncu_profile.hpp"

namespace ladder {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(LADDER_SOURCE_DIR) + "/tests/fixtures/ncu/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << name;
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

#define EXPECT_INPUT_ERROR(stmt, needle)                                             \
  try {                                                                              \
    stmt;                                                                            \
    ADD_FAILURE() << "no InputError from " #stmt;                                    \
  } catch (const InputError& e) {                                                    \
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();    \
  }

TEST(NcuCsv, RangeReplayOneResultPerRange) {
  const auto results = parse_ncu_csv(fixture("dtw_shared_range.csv"));
  ASSERT_EQ(results.size(), 5u);
  EXPECT_EQ(results[0].name, "range");
  // "729,792": ncu groups thousands in base units.
  EXPECT_EQ(results[0].values.at("gpu__time_duration.sum"), 729792.0);
  EXPECT_EQ(results[0].units.at("gpu__time_duration.sum"), "ns");
  EXPECT_DOUBLE_EQ(results[1].values.at("sm__throughput.avg.pct_of_peak_sustained_elapsed"), 0.97);
  EXPECT_EQ(results[0].units.at("sm__throughput.avg.pct_of_peak_sustained_elapsed"), "%");
  // Words in settings are not numbers and are left out; identity columns are no metrics.
  EXPECT_EQ(results[0].values.count("device__attribute_display_name"), 0u);
  EXPECT_EQ(results[0].values.count("Stream"), 0u);
  EXPECT_EQ(results[0].values.at("launch__grid_size"), 33.0);
}

TEST(NcuCsv, NvtxRenamedRangesCarryTheStepName) {
  const auto results = parse_ncu_csv(fixture("dtw_nvtx_range_renamed.csv"));
  ASSERT_EQ(results.size(), 5u);
  for (const NcuResult& r : results) EXPECT_EQ(r.name, "dtw.shared/range");
}

TEST(NcuCsv, UnnamedNamespaceKernelsKeepTheirAngleBracket) {
  const auto results = parse_ncu_csv(fixture("dtw_shared_kernel_sass.csv"));
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].name.rfind("<unnamed>::dtw_shared_kernel(const float *", 0), 0u) << results[0].name;
}

// DTW's shared-memory step adds once per cell: entries x n x n cells, 1031 x 33 x 33 at the
// smoke config's first point and 1031 x 128 x 128 at its second.
TEST(NcuProfile, OneFp32AddPerDtwCell) {
  const auto results = parse_ncu_csv(fixture("dtw_shared_kernel_sass.csv"));
  const NcuCollection how{"2025.3.1.0", "kernel", "all", "sass"};
  for (const auto& [i, cells] : {std::pair{0, 1031.0 * 33 * 33}, std::pair{1, 1031.0 * 128 * 128}}) {
    const nlohmann::json p = fold_profile({results[i]}, how, cells, "cells");
    EXPECT_DOUBLE_EQ(p["derived"]["per_work_unit"]["fadd"].get<double>(), 1.0) << p["derived"].dump();
  }
}

TEST(NcuProfile, SkylineConflictsAndBranches) {
  const auto results = parse_ncu_csv(fixture("skyline_kernel_sass.csv"));
  ASSERT_EQ(results.size(), 4u);
  EXPECT_EQ(results[1].name, "void nested_loop_kernel<LoadColumns, TestBranchFree>(Points, int)");
  const nlohmann::json p = fold_profile(results, {"2025.3.1.0", "kernel", "all", "sass"}, 97, "points");
  const nlohmann::json& raw = p["raw"];
  const double uniform = raw["smsp__sass_branch_targets_threads_uniform.sum"];
  const double targets = raw["smsp__sass_branch_targets.sum"];
  ASSERT_GT(targets, 0);
  EXPECT_DOUBLE_EQ(p["derived"]["branch_uniformity"].get<double>(), uniform / targets);
  // The file's own cells, added by hand: 51 + 50 + 1,135 + 2,009 of 54 + 53 + 1,301 + 2,012
  // branch targets uniform, and 0 + 0 + 148 + 0 shared-memory bank conflicts.
  EXPECT_EQ(uniform, 3245.0);
  EXPECT_EQ(targets, 3420.0);
  EXPECT_EQ(raw["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"].get<double>(), 148.0);
  EXPECT_EQ(p["kernels"].size(), 2u);  // two templates, each launched twice
  EXPECT_EQ(p["results"], 4);
}

TEST(NcuProfile, SchemaRecordsHowTheNumbersWereTaken) {
  const auto results = parse_ncu_csv(fixture("twed_wavefront_range_why.csv"));
  const nlohmann::json p = fold_profile(results, {"2025.3.1.0", "range", "all", "why"}, 1e6, "cells");
  for (const char* key : {"tool", "tool_version", "replay_mode", "cache_control", "clock_control", "metric_set",
                          "results", "kernels", "work", "work_unit", "raw", "derived"})
    EXPECT_TRUE(p.contains(key)) << key;
  EXPECT_EQ(p["replay_mode"], "range");
  const nlohmann::json& sol = p["derived"]["speed_of_light_pct"];
  for (const char* key : {"sm_pct", "memory_pct", "dram_pct", "l2_pct", "l1_pct"})
    EXPECT_TRUE(sol.contains(key)) << key << " in " << sol.dump();
  EXPECT_TRUE(p["derived"].contains("achieved_occupancy_pct"));
}

NcuResult result(double ns, std::map<std::string, double> v) {
  NcuResult r;
  r.name = "k";
  r.values = std::move(v);
  r.values["gpu__time_duration.sum"] = ns;
  return r;
}

// Multi-kernel steps: counters add up; percentages of peak are weighted by time; ratios come
// from summed numerators and denominators (a mean of per-launch ratios would be wrong).
TEST(NcuProfile, FoldingRules) {
  const std::vector<NcuResult> rs = {
      result(100, {{"sm__throughput.avg.pct_of_peak_sustained_elapsed", 10},
                   {"smsp__inst_executed.sum", 1000},
                   {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 0},
                   {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 10},
                   {"smsp__issue_active.sum", 100},
                   {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", 1},
                   {"launch__registers_per_thread.max", 32}}),
      result(300, {{"sm__throughput.avg.pct_of_peak_sustained_elapsed", 50},
                   {"smsp__inst_executed.sum", 3000},
                   {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", 90},
                   {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", 190},
                   {"smsp__issue_active.sum", 300},
                   {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", 5},
                   {"launch__registers_per_thread.max", 40}})};
  const nlohmann::json p = fold_profile(rs, {"x", "kernel", "all", "custom"}, 2000, "cells");
  EXPECT_DOUBLE_EQ(p["raw"]["gpu__time_duration.sum"].get<double>(), 400);
  EXPECT_DOUBLE_EQ(p["raw"]["smsp__inst_executed.sum"].get<double>(), 4000);
  EXPECT_DOUBLE_EQ(p["raw"]["sm__throughput.avg.pct_of_peak_sustained_elapsed"].get<double>(), 40);
  EXPECT_DOUBLE_EQ(p["derived"]["shared_conflict_share"].get<double>(), 0.45);
  // (1 x 100 + 5 x 300) / 400 issued
  EXPECT_DOUBLE_EQ(p["derived"]["stalls_per_instruction"]["long_scoreboard"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(p["derived"]["per_work_unit"]["warp_instructions"].get<double>(), 2.0);
  EXPECT_EQ(p["raw"].count("launch__registers_per_thread.max"), 0u);  // launch settings are not work
  // A metric one result lacks is not folded: a sum over some launches is no sum.
  std::vector<NcuResult> partial = rs;
  partial[1].values.erase("smsp__inst_executed.sum");
  EXPECT_EQ(fold_profile(partial, {"x", "kernel", "all", "custom"}, 1, "cells")["raw"].count(
                "smsp__inst_executed.sum"), 0u);
}

// Two collections of one run: each kept whole, derived values taken from range replay's and
// completed by kernel replay's, a set collected again replacing its earlier self.
TEST(NcuFold, CombinedCollections) {
  using nlohmann::json;
  const json range = {{"tool", "Nsight Compute"}, {"tool_version", "1"}, {"replay_mode", "range"},
                      {"cache_control", "all"}, {"metric_set", "why"}, {"work", 10.0}, {"work_unit", "cells"},
                      {"raw", {{"a__b.sum", 1.0}}},
                      {"derived", {{"per_work_unit", {{"thread_instructions", 8.0}}}, {"issue_slots_pct", 60.0}}}};
  json kernel = range;
  kernel["replay_mode"] = "kernel", kernel["metric_set"] = "sass";
  kernel["derived"] = {{"per_work_unit", {{"thread_instructions", 8.1}, {"fadd", 1.0}}}, {"branch_uniformity", 0.5}};
  const json both = combine_profiles(range, kernel);
  EXPECT_EQ(both["replay_mode"], "range+kernel");
  EXPECT_EQ(both["metric_set"], "why+sass");
  ASSERT_EQ(both["collections"].size(), 2u);
  EXPECT_EQ(both["collections"][1]["raw"], kernel["raw"]);
  EXPECT_EQ(both["derived"]["per_work_unit"]["thread_instructions"], 8.0);  // the first's
  EXPECT_EQ(both["derived"]["per_work_unit"]["fadd"], 1.0);                 // added
  EXPECT_EQ(both["derived"]["branch_uniformity"], 0.5);
  EXPECT_EQ(both["work"], 10.0);
  json again = range;
  again["derived"]["issue_slots_pct"] = 70.0;
  const json replaced = combine_profiles(both, again);
  ASSERT_EQ(replaced["collections"].size(), 2u);
  EXPECT_EQ(replaced["metric_set"], "sass+why");
  EXPECT_EQ(replaced["derived"]["issue_slots_pct"], 70.0);
  EXPECT_EQ(replaced["derived"]["per_work_unit"]["thread_instructions"], 8.0);  // range replay's, still
  EXPECT_EQ(combine_profiles(json{{"skipped", "cpu step"}}, kernel), kernel);
  EXPECT_EQ(combine_profiles(json(), kernel), kernel);

  // A set that could not be collected is named with why, beside the counters that were, and
  // leaves `missing` once it is collected.
  const json no_why = skip_collection(json(), "why", "under ncu the run failed: out of memory");
  EXPECT_EQ(no_why["skipped"], "under ncu the run failed: out of memory");
  const json sass_only = combine_profiles(no_why, kernel);
  EXPECT_EQ(sass_only["metric_set"], "sass");
  EXPECT_EQ(sass_only["missing"]["why"], "under ncu the run failed: out of memory");
  EXPECT_EQ(sass_only["derived"]["branch_uniformity"], 0.5);
  const json whole = combine_profiles(sass_only, range);
  EXPECT_FALSE(whole.contains("missing"));
  EXPECT_EQ(whole["metric_set"], "sass+why");
  for (const json& c : whole["collections"]) EXPECT_FALSE(c.contains("missing"));
  const json lost_sass = skip_collection(range, "sass", "ncu profiled no launch");
  EXPECT_EQ(lost_sass["derived"], range["derived"]);  // the counters it had stay
  EXPECT_EQ(lost_sass["missing"]["sass"], "ncu profiled no launch");
  EXPECT_EQ(skip_collection(both, "sass", "later failure"), both);  // a set it holds is kept
  const json neither = skip_collection(no_why, "sass", "ncu wrote no report");
  EXPECT_EQ(neither["missing"].size(), 2u);
  EXPECT_FALSE(neither.contains("derived"));
}

// `reproduce --profile`: each GPU step that passed once, at the point most of them share, within
// the config's choice; a step absent there at its own last run.
TEST(ProfileChoice, OnePointPerStep) {
  using nlohmann::json;
  const auto run = [](std::size_t i, const char* v, const char* sweep, const char* point, const char* n,
                      const char* backend = "gpu", const char* status = "passed") {
    return json{{"run_index", i}, {"study", "s"}, {"variant", v}, {"sweep", sweep}, {"point", point},
                {"params", {{"n", n}}}, {"backend", backend}, {"status", status}};
  };
  const json results = {{"runs",
                         {run(0, "seq", "a", "n=1", "1", "cpu"), run(1, "x", "a", "n=1", "1"), run(2, "y", "a", "n=1", "1"),
                          run(3, "x", "a", "n=2", "2"), run(4, "y", "a", "n=2", "2"), run(5, "z", "a", "n=2", "2", "gpu", "unsupported"),
                          run(6, "z", "b", "n=3", "3"), run(7, "x", "b", "n=3", "3")}}};
  // Three points where two steps passed: the last; y, absent there, at its last run.
  EXPECT_EQ(cli::profile_choice(results, json()), (std::vector<std::size_t>{4, 6, 7}));
  EXPECT_EQ(cli::profile_choice(results, json{{"point", {{"n", 1}}}}), (std::vector<std::size_t>{1, 2, 6}));
  EXPECT_EQ(cli::profile_choice(results, json{{"point", {{"n", "2"}}}}), (std::vector<std::size_t>{3, 4, 6}));
  EXPECT_EQ(cli::profile_choice(results, json{{"sweep", "a"}}), (std::vector<std::size_t>{3, 4, 6}));
  EXPECT_EQ(cli::profile_choice(results, json{{"sweep", "nothing"}}), (std::vector<std::size_t>{4, 6, 7}));
  EXPECT_TRUE(cli::profile_choice(json{{"runs", json::array({run(0, "seq", "a", "n=1", "1", "cpu")})}}, json()).empty());
  // A list: the first entry as the object form, each further one adds the runs at its point
  // (of its variants), never a CPU run or one that did not pass, never a run twice.
  EXPECT_EQ(cli::profile_choice(results, json::array({json::object()})), (std::vector<std::size_t>{4, 6, 7}));
  EXPECT_EQ(cli::profile_choice(results, json::array({json::object(), json{{"point", {{"n", 1}}}}})),
            (std::vector<std::size_t>{1, 2, 4, 6, 7}));
  EXPECT_EQ(cli::profile_choice(results, json::array({json{{"sweep", "b"}},
                                                      json{{"point", {{"n", 2}}}, {"variants", {"x", "z"}}}})),
            (std::vector<std::size_t>{3, 4, 6, 7}));
  EXPECT_EQ(cli::profile_choice(results, json::array({json::object(), json{{"sweep", "b"}, {"variants", {"seq"}}}})),
            (std::vector<std::size_t>{4, 6, 7}));
}

// A resumed `reproduce --profile` asks ncu only for the sets a chosen run still lacks.
TEST(ProfileChoice, OnlyTheSetsARunLacks) {
  using nlohmann::json;
  const auto run = [](std::size_t i, const char* sets) {
    json r = {{"run_index", i}, {"backend", "gpu"}, {"status", "passed"}};
    if (sets) r["profile"] = {{"metric_set", sets}};
    return r;
  };
  const json results = {{"runs", {run(0, nullptr), run(1, "why"), run(2, "why+sass"), run(3, "sass"), run(4, "why")}}};
  const std::vector<std::size_t> chosen = {0, 1, 2, 3};  // run 4 is not chosen
  EXPECT_EQ(cli::profile_lacking(results, chosen, "why"), (std::vector<std::size_t>{0, 3}));
  EXPECT_EQ(cli::profile_lacking(results, chosen, "sass"), (std::vector<std::size_t>{0, 1}));
  EXPECT_TRUE(cli::profile_lacking(results, {2}, "why").empty());  // holds both: reused
  EXPECT_TRUE(cli::profile_lacking(results, {2}, "sass").empty());
  EXPECT_TRUE(cli::profile_lacking(json::object(), chosen, "why").empty());  // no runs at all
}

TEST(NcuCsv, NumbersAndBadInput) {
  EXPECT_EQ(ncu_number("1,085,984", "m"), 1085984.0);
  EXPECT_DOUBLE_EQ(ncu_number("5,739,182.69", "m"), 5739182.69);
  EXPECT_TRUE(std::isnan(ncu_number("n/a", "m")));
  EXPECT_TRUE(std::isnan(ncu_number("no data", "m")));
  EXPECT_TRUE(std::isnan(ncu_number("", "m")));
  EXPECT_INPUT_ERROR(ncu_number("12 ms", "gpu__time_duration.sum"), "gpu__time_duration.sum");
  EXPECT_INPUT_ERROR(ncu_number("inf", "m"), "not a number");
  const std::string header = "\"ID\",\"Kernel Name\",\"sm__x.sum\"\n\"\",\"\",\"inst\"\n";
  EXPECT_EQ(parse_ncu_csv("==PROF== Connected\n" + header + "\"0\",\"k, with comma\",\"7\"\n")[0].name,
            "k, with comma");
  EXPECT_EQ(parse_ncu_csv(header).size(), 0u);  // no result: nothing was profiled
  EXPECT_INPUT_ERROR(parse_ncu_csv("\"ID\",\"Name\"\n"), "no header");
  EXPECT_INPUT_ERROR(parse_ncu_csv("\"ID\",\"Kernel Name\"\n"), "no units row");
  EXPECT_INPUT_ERROR(parse_ncu_csv(header + "\"0\",\"k\"\n"), "has 2 cells for 3 columns");
  EXPECT_INPUT_ERROR(parse_ncu_csv(header + "\"0\",\"k\",\"seven\"\n"), "sm__x.sum");
  EXPECT_INPUT_ERROR(parse_ncu_csv(header + "\"0\",\"k,\"7\"\n"), "not closed");
  EXPECT_INPUT_ERROR(parse_ncu_csv("\"ID\",\"Kernel Name\",\"a__b\"\n\"\",\"\"\n"), "units row");
}


// Kernel replay of several runs in one process: each result goes to the run its NVTX range
// ("rK") names, as ncu prints the push/pop ranges around it.
TEST(NcuSplit, TheRunARangeNames) {
  EXPECT_EQ(nvtx_run_index(R"(3677  "<default domain>:dtw.shared:none:none:none:none:none:none" )"), std::nullopt);
  EXPECT_EQ(nvtx_run_index(R"(3677  "<default domain>:dtw.shared:none:none:none:none:none:none" )"
                           R"("<default domain>:r12:none:none:none:none:none:none" )"),
            std::optional<std::size_t>(12));
  EXPECT_EQ(nvtx_run_index(R"("<default domain>:r1:none" "<default domain>:r2:none")"), std::nullopt);
  EXPECT_EQ(nvtx_run_index(""), std::nullopt);
  // Read by hand: ranges run into each other, digits past 15, text of a megabyte.
  EXPECT_EQ(nvtx_run_index(":r3:r4:"), std::optional<std::size_t>(3));  // "r4" has no ':' of its own
  EXPECT_EQ(nvtx_run_index(":r1234567890123456:"), std::nullopt);
  EXPECT_EQ(nvtx_run_index(":r:r5:"), std::optional<std::size_t>(5));
  EXPECT_EQ(nvtx_run_index(std::string(1 << 20, 'r') + ":r7:" + std::string(1 << 20, '7')), std::optional<std::size_t>(7));
  // The renamed-range fixture carries the column (its one range is a step's, not a run's).
  const auto renamed = parse_ncu_csv(fixture("dtw_nvtx_range_renamed.csv"));
  ASSERT_FALSE(renamed.empty());
  EXPECT_NE(renamed[0].nvtx.find("dtw.shared"), std::string::npos);
  EXPECT_EQ(nvtx_run_index(renamed[0].nvtx), std::nullopt);
}

std::vector<NcuResult> launches(std::initializer_list<std::size_t> runs) {
  std::vector<NcuResult> out;
  for (const std::size_t k : runs) {
    NcuResult r;
    r.name = "k";
    r.nvtx = "1  \"<default domain>:s.v:none\" \"<default domain>:r" + std::to_string(k) + ":none\" ";
    out.push_back(r);
  }
  return out;
}

TEST(NcuSplit, ByRunAndWhatTheCapCut) {
  // Under the cap: every run whole, one without a launch kept empty.
  LaunchSplit s = split_launches(launches({3, 3, 5, 9, 9, 9}), {3, 5, 7, 9}, 12, 2);
  EXPECT_TRUE(s.again.empty());
  EXPECT_EQ(s.results[3].size(), 2u);
  EXPECT_EQ(s.results[5].size(), 1u);
  EXPECT_TRUE(s.results[7].empty());
  EXPECT_EQ(s.results[9].size(), 3u);
  // The cap reached inside run 5, which shows no more than `keep` yet: 5 and 7 go again.
  s = split_launches(launches({3, 5, 5}), {3, 5, 7}, 3, 2);
  EXPECT_EQ(s.again, (std::vector<std::size_t>{5, 7}));
  EXPECT_EQ(s.results.size(), 1u);
  EXPECT_EQ(s.results[3].size(), 1u);
  // ... or more than `keep` already: run 5 is known to have more; only 7 goes again.
  s = split_launches(launches({3, 5, 5, 5}), {3, 5, 7}, 4, 2);
  EXPECT_EQ(s.again, (std::vector<std::size_t>{7}));
  EXPECT_EQ(s.results[5].size(), 3u);
  // Results that name no run, another run, or come out of order: every run again.
  for (const auto& got : {launches({3, 4}), launches({5, 3})}) {
    s = split_launches(got, {3, 5}, 6, 2);
    EXPECT_EQ(s.again, (std::vector<std::size_t>{3, 5}));
    EXPECT_TRUE(s.results.empty());
  }
  std::vector<NcuResult> unnamed = launches({3});
  unnamed[0].nvtx.clear();
  EXPECT_EQ(split_launches(unnamed, {3}, 3, 2).again, (std::vector<std::size_t>{3}));
}

// `reproduce --profile --gpus`: every config profiled, on the GPUs at once, the entries in the
// configs' order, each naming the GPU it ran on (targets that do not exist fail at once).
TEST(ReproduceProfile, ConfigsOnEveryGpuInTheirOrder) {
  std::vector<cli::Experiment> exps(7);
  std::vector<cli::ProfileJob> jobs;
  for (std::size_t i = 0; i < exps.size(); ++i) {
    exps[i].config.name = "config" + std::to_string(i);
    jobs.push_back({&exps[i], "/nonexistent/ladder/" + std::to_string(i) + ".json", "/dev/null", "ladder", "paper", 0});
  }
  for (const std::vector<int>& devices : {std::vector<int>{2}, std::vector<int>{0, 3, 5}}) {
    const std::vector<nlohmann::json> entries = cli::profile_experiments(jobs, devices);
    ASSERT_EQ(entries.size(), exps.size());
    for (std::size_t i = 0; i < entries.size(); ++i) {
      EXPECT_EQ(entries[i]["config"], exps[i].config.name);
      EXPECT_EQ(entries[i]["state"], "failed");
      EXPECT_NE(std::find(devices.begin(), devices.end(), entries[i]["device"].get<int>()), devices.end());
    }
  }
}

}  // namespace
}  // namespace ladder
