// The process as the sample: one-process results files joined into one K-process file
// (harness/processes.cpp), what a process records of itself (harness/process_facts.cpp), the
// SHA-256 that names a binary, the summary's spread and the schema versions readers take.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "datagen/base/errors.hpp"
#include "harness/cli/summary.hpp"
#include "harness/process_facts.hpp"
#include "harness/processes.hpp"
#include "harness/results.hpp"
#include "harness/sha256.hpp"
#include "harness/stats.hpp"

namespace ladder {
namespace {

using json = nlohmann::json;

// A run as `ladder run` writes it, timed with `samples` (untimed when empty).
json run_of(std::size_t index, const std::string& variant, const std::vector<double>& samples,
            const std::string& status = "passed", const std::string& reason = "") {
  json r = {{"run_index", index}, {"study", "dtw"}, {"variant", variant}, {"sweep", ""}, {"point", "n=8"},
            {"status", status}, {"reason", reason}, {"metric", "gcups"}, {"wall_s", 0.5},
            {"validation", {{"mode", "full"}, {"failures", status == "incorrect" ? 3 : 0}}}};
  if (samples.empty()) {
    r["timing"] = nullptr;
    r["metrics"] = json::object();
    return r;
  }
  std::vector<double> s = samples;
  std::sort(s.begin(), s.end());
  const double median = s.size() % 2 ? s[s.size() / 2] : (s[s.size() / 2 - 1] + s[s.size() / 2]) / 2;
  r["timing"] = {{"unit", "ms"}, {"mode", "hot"}, {"warmup", 1}, {"samples", samples}, {"median", median},
                 {"stage_medians", {{"kernel", median / 2}}}};
  r["metrics"] = {{"gcups", 10.0 / median}, {"unit", "GCUPS"}, {"pct_of_peak", 1.0 / median}};
  return r;
}

// A one-process results file (schema 1, as files before processes were recorded) of two runs.
json file_of(const std::vector<json>& runs, int schema = 1) {
  json summary = json::object();
  for (const json& r : runs) summary[r["status"].get<std::string>()] = summary.value(r["status"].get<std::string>(), 0) + 1;
  return {{"schema_version", schema},
          {"ladder", {{"git_commit", "abc123"}}},
          {"config", {{"name", "toy"}, {"study", "dtw"}, {"repetitions", 3}}},
          {"device", {{"present", true}, {"name", "NVIDIA H200"}, {"sm_clock_mhz_start", 1980}, {"sm_clock_mhz_end", 1965}}},
          {"host", {{"hostname", "h"}}},
          {"validation_mode", "full"},
          {"timing_mode", "hot"},
          {"started_at", "2026-01-01T00:00:00Z"},
          {"finished_at", "2026-01-01T00:00:05Z"},
          {"runs_planned", runs.size()},
          {"complete", true},
          {"summary", summary},
          {"runs", runs}};
}

// Three processes of one config: run 0 timed (samples differ by process), run 1 untimed.
std::vector<ProcessPart> three_parts() {
  const std::vector<std::vector<double>> samples = {{1.0, 1.2, 1.1}, {2.0, 2.2, 2.1}, {1.5, 1.4, 1.6}};
  std::vector<ProcessPart> parts;
  for (std::size_t k = 0; k < 3; ++k) {
    ProcessPart p;
    p.path = "p" + std::to_string(k) + ".json";
    p.results = file_of({run_of(0, "shared", samples[k]), run_of(1, "seq_full", {})});
    p.results["started_at"] = "2026-01-01T00:00:0" + std::to_string(2 * k) + "Z";
    p.results["finished_at"] = "2026-01-01T00:00:0" + std::to_string(2 * k + 1) + "Z";
    parts.push_back(p);
  }
  return parts;
}

TEST(ProcessMerge, EachTimedRunGetsItsProcessesMediansAndComponents) {
  const json m = merge_processes(three_parts(), ProcessesInfo{});
  EXPECT_EQ(m["schema_version"], kSchemaVersion);
  EXPECT_EQ(m["processes"]["count"], 3);
  EXPECT_EQ(m["processes"]["mode"], "repeat");
  EXPECT_EQ(m["processes"]["list"].size(), 3u);
  ASSERT_EQ(m["runs"].size(), 2u);
  const json& t = m["runs"][0]["timing"];
  EXPECT_EQ(t["process_medians"], json({1.1, 2.1, 1.5}));
  EXPECT_DOUBLE_EQ(t["median"].get<double>(), 1.5);  // the median of the process medians
  ASSERT_EQ(t["processes"].size(), 3u);
  EXPECT_EQ(t["processes"][1]["process"], 1);
  EXPECT_EQ(t["processes"][1]["samples"], json({2.0, 2.2, 2.1}));
  EXPECT_DOUBLE_EQ(t["processes"][1]["median"].get<double>(), 2.1);
  EXPECT_NEAR(t["geomean_of_process_medians"].get<double>(), std::cbrt(1.1 * 2.1 * 1.5), 1e-12);
  const stats::Components c =
      stats::variance_components({{1.0, 1.2, 1.1}, {2.0, 2.2, 2.1}, {1.5, 1.4, 1.6}});
  EXPECT_DOUBLE_EQ(t["sd_log_between"].get<double>(), c.sd_log_between);
  EXPECT_DOUBLE_EQ(t["sd_log_within"].get<double>(), c.sd_log_within);
  EXPECT_DOUBLE_EQ(t["sd_log_process"].get<double>(), c.sd_log_process);
  EXPECT_DOUBLE_EQ(t["icc"].get<double>(), c.icc);
  EXPECT_GT(c.icc, 0.9);  // the processes differ far more than their samples
  EXPECT_EQ(t["samples"].size(), 9u);  // all of them, flattened
  EXPECT_DOUBLE_EQ(t["min"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(t["max"].get<double>(), 2.2);
  EXPECT_EQ(t["unit"], "ms");
  EXPECT_EQ(t["warmup"], 1);
  EXPECT_DOUBLE_EQ(t["stage_medians"]["kernel"].get<double>(), 0.75);  // median of 0.55, 1.05, 0.75
  // A rate is work over time: at the merged median (1.5 ms), not the first process's (1.1).
  EXPECT_NEAR(m["runs"][0]["metrics"]["gcups"].get<double>(), 10.0 / 1.5, 1e-12);
  EXPECT_NEAR(m["runs"][0]["metrics"]["pct_of_peak"].get<double>(), 1.0 / 1.5, 1e-12);
  EXPECT_TRUE(m["runs"][1]["timing"].is_null());
  EXPECT_EQ(m["summary"], json({{"passed", 2}}));
  EXPECT_TRUE(m["complete"].get<bool>());
  EXPECT_EQ(m["started_at"], "2026-01-01T00:00:00Z");
  EXPECT_EQ(m["finished_at"], "2026-01-01T00:00:05Z");
  EXPECT_NO_THROW(check_results(m, "the merged file"));
}

TEST(ProcessMerge, TheListTakesWhatTheParentRecordedOverTheFile) {
  std::vector<ProcessPart> parts = three_parts();
  parts[0].results["process"] = {{"pid", 11}, {"cpu_start", 2}, {"cpu_end", 3}, {"cpus_allowed", {2, 3}},
                                 {"gpu_temp_c_start", 41}, {"load_avg", {0.1, 0.2, 0.3}}};
  parts[1].recorded = {{"pid", 22}, {"exit_status", 1}, {"started_at", "T1"}, {"order_position", 5}, {"name", "B0"}};
  const json list = merge_processes(parts, ProcessesInfo{})["processes"]["list"];
  EXPECT_EQ(list[0]["pid"], 11);
  EXPECT_EQ(list[0]["cpu_start"], 2);
  EXPECT_EQ(list[0]["cpu_end"], 3);
  EXPECT_EQ(list[0]["cpus_allowed"], json({2, 3}));
  EXPECT_EQ(list[0]["gpu_temp_c_start"], 41);
  EXPECT_EQ(list[0]["load_avg"], json({0.1, 0.2, 0.3}));
  EXPECT_EQ(list[0]["sm_clock_mhz_start"], 1980);
  EXPECT_EQ(list[0]["sm_clock_mhz_end"], 1965);
  EXPECT_EQ(list[0]["order_position"], 0);
  EXPECT_TRUE(list[0]["exit_status"].is_null());  // merged from files: not known
  EXPECT_EQ(list[1]["pid"], 22);
  EXPECT_EQ(list[1]["exit_status"], 1);
  EXPECT_EQ(list[1]["started_at"], "T1");
  EXPECT_EQ(list[1]["order_position"], 5);
  EXPECT_EQ(list[1]["name"], "B0");
  // A file from before processes recorded themselves: what is unknown says so.
  EXPECT_TRUE(list[2]["pid"].is_null());
  EXPECT_EQ(list[2]["cpu_start"], -1);
  EXPECT_EQ(list[2]["gpu_temp_c_start"], -1);
  EXPECT_EQ(list[2]["finished_at"], "2026-01-01T00:00:05Z");
}

TEST(ProcessMerge, AnAbSideRecordsItsSideSeedAndOrder) {
  ProcessesInfo info;
  info.mode = "ab";
  info.side = "B";
  info.seed = 42;
  info.order = {"A0", "B0", "B1", "A1", "A2", "B2"};
  info.binary = {{"path", "b/ladder"}, {"sha256", "ff"}};
  const json p = merge_processes(three_parts(), info)["processes"];
  EXPECT_EQ(p["mode"], "ab");
  EXPECT_EQ(p["side"], "B");
  EXPECT_EQ(p["seed"], 42);
  EXPECT_EQ(p["order"].size(), 6u);
  EXPECT_EQ(p["binary"], json({{"path", "b/ladder"}, {"sha256", "ff"}, {"git_commit", "abc123"}}));
}

TEST(ProcessMerge, AFailureInAnyProcessIsTheRunsStatusNamingTheProcess) {
  std::vector<ProcessPart> parts = three_parts();
  parts[1].results["runs"][0] = run_of(0, "shared", {2.0, 2.1}, "error", "out of memory");
  parts[2].results["runs"][0] = run_of(0, "shared", {1.5}, "incorrect", "3 outputs differ");
  const json m = merge_processes(parts, ProcessesInfo{});
  EXPECT_EQ(m["runs"][0]["status"], "incorrect");  // a wrong answer is the worse news
  EXPECT_EQ(m["runs"][0]["reason"], "process 2 of 3: 3 outputs differ");
  EXPECT_EQ(m["runs"][0]["validation"]["failures"], 3);
  EXPECT_EQ(m["summary"], json({{"incorrect", 1}, {"passed", 1}}));
  parts[2] = three_parts()[2];
  const json e = merge_processes(parts, ProcessesInfo{});
  EXPECT_EQ(e["runs"][0]["status"], "error");
  EXPECT_EQ(e["runs"][0]["reason"], "process 1 of 3: out of memory");
}

TEST(ProcessMerge, CompleteOnlyWhenEveryProcessIsAndHoldsEveryRun) {
  std::vector<ProcessPart> parts = three_parts();
  parts[1].results["complete"] = false;
  json m = merge_processes(parts, ProcessesInfo{});
  EXPECT_FALSE(m["complete"].get<bool>());
  EXPECT_EQ(m["finished_at"], "");
  EXPECT_FALSE(m["processes"]["list"][1]["complete"].get<bool>());
  parts = three_parts();
  parts[2].results["runs"].erase(1);  // stopped before its last run, yet marked complete
  m = merge_processes(parts, ProcessesInfo{});
  EXPECT_FALSE(m["complete"].get<bool>());
  EXPECT_EQ(m["runs"].size(), 2u);  // run 1 from the processes that have it
}

TEST(ProcessMerge, OneProcessIsAFileOfOne) {
  std::vector<ProcessPart> parts = three_parts();
  parts.resize(1);
  const json t = merge_processes(parts, ProcessesInfo{})["runs"][0]["timing"];
  EXPECT_EQ(t["process_medians"], json({1.1}));
  EXPECT_DOUBLE_EQ(t["median"].get<double>(), 1.1);
  EXPECT_DOUBLE_EQ(t["sd_log_between"].get<double>(), 0);
  EXPECT_DOUBLE_EQ(t["sd_log_process"].get<double>(), 0);
}

// Refused with one line naming both files and the field.
void expect_refused(std::vector<ProcessPart> parts, const std::vector<std::string>& words) {
  try {
    merge_processes(parts, ProcessesInfo{});
    ADD_FAILURE() << "merged; expected a refusal naming " << words.front();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    for (const std::string& w : words) EXPECT_NE(what.find(w), std::string::npos) << what << " lacks " << w;
  }
}

TEST(ProcessMerge, FilesOfOtherConfigsCommitsScalesOrGpusAreRefused) {
  std::vector<ProcessPart> parts = three_parts();
  parts[2].results["config"]["name"] = "other";
  expect_refused(parts, {"'p0.json'", "'p2.json'", "config.name", "\"other\""});
  parts = three_parts();
  parts[1].results["config"]["repetitions"] = 5;
  expect_refused(parts, {"'p0.json'", "'p1.json'", "config"});
  parts = three_parts();
  parts[1].results["ladder"]["git_commit"] = "def456";
  expect_refused(parts, {"'p0.json'", "'p1.json'", "ladder.git_commit", "def456"});
  parts = three_parts();
  parts[1].results["scale"] = "quick";
  expect_refused(parts, {"'p1.json'", "scale"});
  parts = three_parts();
  parts[2].results["device"]["name"] = "NVIDIA H100 80GB HBM3";
  expect_refused(parts, {"'p0.json'", "'p2.json'", "device.name", "H100"});
  parts = three_parts();
  parts[2].results["runs_planned"] = 7;
  expect_refused(parts, {"'p2.json'", "runs_planned"});
}

TEST(ProcessMerge, FilesThatAreNotOneProcessOfAWholeConfigAreRefused) {
  std::vector<ProcessPart> parts = three_parts();
  parts[1].results["shard"] = {{"index", 0}, {"count", 2}};
  expect_refused(parts, {"'p1.json'", "shard"});
  parts = three_parts();
  parts[0].results["processes"] = {{"count", 3}};
  expect_refused(parts, {"'p0.json'", "processes"});
  parts = three_parts();
  parts[1].results["runs"][1]["run_index"] = 0;
  expect_refused(parts, {"'p1.json'", "run 0 twice"});
  parts = three_parts();
  parts[2].results["runs"][0]["variant"] = "naive";
  expect_refused(parts, {"'p0.json'", "'p2.json'", "run 0", "variant", "naive"});
  parts = three_parts();
  parts[1].results["runs"][0]["timing"]["samples"][1] = -2.0;
  expect_refused(parts, {"process 1", "samples[1]", "-2"});
  parts = three_parts();
  parts[1].results["runs"][0]["timing"]["samples"] = "fast";
  expect_refused(parts, {"process 1", "samples is not a list"});
  EXPECT_THROW(merge_processes({}, ProcessesInfo{}), InputError);
}

TEST(ProcessMerge, ATimeOfZeroLeavesTheLogStatisticsUnknown) {
  std::vector<ProcessPart> parts = three_parts();
  parts[1].results["runs"][0]["timing"]["samples"] = {0.0, 2.0, 2.0};
  const json t = merge_processes(parts, ProcessesInfo{})["runs"][0]["timing"];
  EXPECT_TRUE(t["icc"].is_null());
  EXPECT_TRUE(t["geomean_of_process_medians"].is_null());
  EXPECT_DOUBLE_EQ(t["median"].get<double>(), 1.5);
}

TEST(ProcessMerge, AFileWithoutSamplesGivesItsMedian) {
  std::vector<ProcessPart> parts = three_parts();
  parts[0].results["runs"][0]["timing"].erase("samples");
  const json t = merge_processes(parts, ProcessesInfo{})["runs"][0]["timing"];
  EXPECT_EQ(t["processes"][0]["samples"], json({1.1}));
}

TEST(ProcessMerge, WarningsAreKeptSayingWhose) {
  std::vector<ProcessPart> parts = three_parts();
  parts[2].results["warnings"] = {"the load was high"};
  const json m = merge_processes(parts, ProcessesInfo{});
  EXPECT_EQ(m["warnings"], json({"process 2: the load was high"}));
  EXPECT_FALSE(m.contains("process"));
}

TEST(Schema, ReadersTakeVersionsOneAndTwo) {
  for (int v : {1, 2}) EXPECT_NO_THROW(check_results(json{{"schema_version", v}, {"runs", json::array()}}, "f"));
  for (const json v : {json(0), json(3), json("2"), json(true), json(nullptr)})
    EXPECT_THROW(check_results(json{{"schema_version", v}, {"runs", json::array()}}, "f"), InputError) << v;
}

TEST(Sha256, KnownDigests) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, AFileAsItsBytes) {
  const std::filesystem::path f = std::filesystem::temp_directory_path() / "ladder_sha256_test.bin";
  const std::string bytes(200000, 'x');
  std::ofstream(f, std::ios::binary) << bytes;
  EXPECT_EQ(sha256_file(f.string()), sha256_hex(bytes));
  std::filesystem::remove(f);
  EXPECT_THROW(sha256_file(f.string()), InputError);
}

TEST(ProcessFacts, LoadAverageAndCpuLists) {
  EXPECT_EQ(parse_loadavg("0.52 1.10 2.00 3/812 4242\n"), (std::vector<double>{0.52, 1.10, 2.00}));
  EXPECT_TRUE(parse_loadavg("").empty());
  EXPECT_TRUE(parse_loadavg("0.5 x").empty());
  EXPECT_EQ(parse_cpu_list("0-3,8"), (std::vector<int>{0, 1, 2, 3, 8}));
  EXPECT_EQ(parse_cpu_list("5"), (std::vector<int>{5}));
  for (const char* bad : {"", "a", "3-1", "0,0", "1-2,2", "-1", "0-", "2048", "1,,2"})
    EXPECT_THROW(parse_cpu_list(bad), InputError) << bad;
  const ProcessFacts f = process_start(-1);
  EXPECT_GT(f.pid, 0);
  EXPECT_FALSE(f.cpus_allowed.empty());
  EXPECT_EQ(f.gpu_temp_c_start, -1);
  const json j = process_json(f);
  for (const char* key : {"pid", "cpu_start", "cpu_end", "cpus_allowed", "load_avg", "gpu_temp_c_start"})
    EXPECT_TRUE(j.contains(key)) << key;
}

TEST(ProcessFacts, WarningsForClocksSlowdownsAndLoad) {
  ProcessFacts f;
  f.cpus_allowed = {0, 1, 2, 3};
  f.load_avg = {1.9, 1.0, 1.0};
  EXPECT_TRUE(process_warnings(f, 1980, 1950).empty());  // 1.5%: within
  EXPECT_TRUE(process_warnings(f, -1, 1500).empty());    // unknown: nothing to say
  std::vector<std::string> w = process_warnings(f, 1980, 1755);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("1980 MHz"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("1755 MHz"), std::string::npos) << w[0];
  f.slowdowns = 0x1 | 0x4;  // idle, SW power cap: not among the bits that warn
  EXPECT_TRUE(process_warnings(f, 1980, 1980).empty());
  f.slowdowns = 0x40 | 0x80;
  w = process_warnings(f, 1980, 1980);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("HW thermal slowdown, power brake"), std::string::npos) << w[0];
  f.slowdowns = -1;
  f.load_avg = {2.5, 1.0, 1.0};
  w = process_warnings(f, 1980, 1980);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].find("2.50"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("4 cores"), std::string::npos) << w[0];
  EXPECT_EQ(slowdown_names(0x8 | 0x20), "HW slowdown, SW thermal slowdown");
  EXPECT_EQ(slowdown_names(-1), "");
}

TEST(Summary, SpreadOfOneProcessAndOfK) {
  EXPECT_NEAR(cli::half_range_pct({1.0, 1.2, 1.1}), 100 * 0.1 / 1.1, 1e-12);
  EXPECT_EQ(cli::half_range_pct({1.0}), -1);
  // Log medians 0, 0.1, 0.2: sd 0.1, se 0.1/sqrt(3), t(0.975, 2) = 4.30265.
  const double want = 100 * (std::exp(4.30265 * 0.1 / std::sqrt(3.0)) - 1);
  EXPECT_NEAR(cli::geomean_interval_pct({1.0, std::exp(0.1), std::exp(0.2)}), want, 1e-3);
  EXPECT_EQ(cli::geomean_interval_pct({1.0}), -1);
  EXPECT_EQ(cli::geomean_interval_pct({1.0, 0.0}), -1);
}

}  // namespace
}  // namespace ladder
