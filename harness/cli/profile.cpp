// `ladder profile CONFIG`: the runs timed as `ladder run` times them, then Nsight Compute's
// counters for each GPU run, collected in a second pass under ncu (its presence slows even
// unprofiled launches, so no time is taken there) and folded into a `profile` object beside the
// run's timing (harness/ncu_profile.hpp).
//
// Range replay (`sol`, `why`): one ncu process replays each run's profiler range (`run
// --profile` puts each run's one call between cudaProfilerStart and Stop), whatever its number of
// launches; the k-th range is the k-th profiled run; a run that fails under it gets a pass of its
// own. Kernel replay (`sass`, for the SASS-level counters range replay refuses): each run's first
// --launches launches, from one ncu process for all the runs when its launch cap cut none short
// (each result goes to the run its NVTX range rK names), else one process per run, limited by
// NVTX to that run's range (study.variant/rK).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "../../datagen/base/atomic_file.hpp"
#include "../../datagen/base/printable.hpp"
#include "../../datagen/data_file.hpp"
#include "../ncu_profile.hpp"
#include "../plan.hpp"
#include "../results.hpp"
#include "child.hpp"
#include "commands.hpp"
#include "out_path.hpp"
#include "shards.hpp"

namespace ladder::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

bool executable(const fs::path& f) {
  std::error_code ec;
  return fs::is_regular_file(f, ec) && ::access(f.c_str(), X_OK) == 0;
}

const std::vector<std::string> kSol = {
    "gpu__time_duration.sum",
    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
    "lts__throughput.avg.pct_of_peak_sustained_elapsed",
    "l1tex__throughput.avg.pct_of_peak_sustained_active",
    "dram__bytes.sum", "lts__t_bytes.sum", "l1tex__t_bytes.sum",
    "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum",
    "sm__warps_active.avg.pct_of_peak_sustained_active",
    "smsp__issue_active.avg.pct_of_peak_sustained_active"};

std::vector<std::string> why_metrics() {
  std::vector<std::string> m = kSol;
  m.insert(m.end(), {"smsp__issue_active.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
                     "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"});
  for (const char* reason : {"barrier", "branch_resolving", "dispatch_stall", "drain", "imc_miss", "lg_throttle",
                             "long_scoreboard", "math_pipe_throttle", "membar", "mio_throttle", "misc",
                             "no_instruction", "not_selected", "selected", "short_scoreboard", "sleeping",
                             "tex_throttle", "wait"})
    m.push_back(fmt::format("smsp__average_warps_issue_stalled_{}_per_issue_active.ratio", reason));
  for (const char* pipe : {"alu", "fma", "fp64", "lsu", "xu", "uniform"})
    m.push_back(fmt::format("sm__inst_executed_pipe_{}.avg.pct_of_peak_sustained_active", pipe));
  return m;
}

const std::vector<std::string> kSass = {
    "gpu__time_duration.sum", "smsp__inst_executed.sum", "smsp__thread_inst_executed.sum",
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum", "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
    "smsp__sass_thread_inst_executed_op_integer_pred_on.sum", "smsp__sass_branch_targets.sum",
    "smsp__sass_branch_targets_threads_uniform.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"};

struct MetricPlan {
  std::string set;                   // sol, why, sass or custom
  std::vector<std::string> metrics;
  bool kernel_replay = false;        // sass counters need kernel replay
};

constexpr std::size_t kMaxMetricName = 200;  // ncu's own names are under 100 characters

// An ncu metric name as ncu spells them: UNIT__COUNTER of ASCII letters, digits and '_' (the
// counter also '.'). Checked by hand: std::regex matches recursively, and a long name given on
// the command line overflowed the stack.
bool metric_name(const std::string& m) {
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
  };
  if (!std::all_of(m.begin(), m.end(), allowed)) return false;
  const std::size_t sep = m.find("__", 1);  // the first that leaves a unit before it
  return sep != std::string::npos && sep + 2 < m.size() && sep < m.find('.');
}

MetricPlan metric_plan(const std::string& text) {
  if (text.empty() || text == "sol") return {"sol", kSol, false};
  if (text == "why") return {"why", why_metrics(), false};
  if (text == "sass") return {"sass", kSass, true};
  MetricPlan p{"custom", {}, false};
  std::stringstream in(text);
  for (std::string m; std::getline(in, m, ',');) {
    if (m.size() > kMaxMetricName)
      throw InputError(fmt::format("--metrics: '{}' is longer than {} characters: not an ncu metric name",
                                   printable(m, 40), kMaxMetricName));
    if (!metric_name(m))
      throw InputError("--metrics: '" + printable(m, 80) + "' is not sol, why, sass or an ncu metric name");
    p.metrics.push_back(m);
    if (m.find("__sass_") != std::string::npos) p.kernel_replay = true;
  }
  if (std::find(p.metrics.begin(), p.metrics.end(), "gpu__time_duration.sum") == p.metrics.end())
    p.metrics.push_back("gpu__time_duration.sum");  // what percentages of peak are weighted by
  return p;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

std::string ncu_version(const std::string& ncu) {
  ChildOptions o;
  o.capture = true;
  o.quiet = true;
  const std::string out = run_child({ncu, "--version"}, o).out;
  // "... Version 2025.1.0.0 (build ...)": the first "Version " followed by a digit.
  for (std::size_t at = out.find("Version "); at != std::string::npos; at = out.find("Version ", at + 1)) {
    const std::size_t from = at + 8, to = out.find_first_not_of("0123456789.", from);
    if (from < out.size() && out[from] >= '0' && out[from] <= '9') return out.substr(from, to - from);
  }
  return "unknown";
}

// Everything the second pass must run as the first did, each run's one call under --profile;
// `runs` (run indices, "" for those the command line selects) narrows it.
std::vector<std::string> profiled_run(const Parsed& p, const fs::path& out, const std::string& runs = "") {
  std::vector<std::string> argv = {fs::canonical("/proc/self/exe").string(), "run", p.positional[0],
                                   "--profile", "--quiet", "--validate", "off", "--out", out.string()};
  std::vector<std::string> more =
      pass_on(p, {"out", "into", "metrics", "launches", "ncu", "quiet", "validate", "runs"});
  if (!runs.empty()) more.insert(more.end(), {"--runs", runs});
  else if (p.has("runs")) more.insert(more.end(), {"--runs", p.get("runs")});
  argv.insert(argv.end(), more.begin(), more.end());
  return argv;
}

// What ncu said went wrong in its log: its first ==ERROR== line, else its last ==WARNING== line
// ("" when neither), so that a run without counters says why in ncu's words.
std::string ncu_complaint(const fs::path& log) {
  std::ifstream in(log);
  std::string line, error, warning;
  while (std::getline(in, line)) {
    if (error.empty() && line.starts_with("==ERROR==")) error = line;
    if (line.starts_with("==WARNING==")) warning = line;
  }
  return printable(error.empty() ? warning : error, 300);
}

// ncu's report as CSV, parsed; throws InputError with ncu's reason when it cannot.
std::vector<NcuResult> collect(const std::string& ncu, std::vector<std::string> ncu_options,
                               const std::vector<std::string>& run_argv, const fs::path& dir,
                               const std::string& tag) {
  const fs::path report = dir / (tag + ".ncu-rep"), csv = dir / (tag + ".csv"), log = dir / (tag + ".log");
  std::vector<std::string> argv = {ncu};
  argv.insert(argv.end(), ncu_options.begin(), ncu_options.end());
  argv.insert(argv.end(), {"-f", "-o", report.string()});
  argv.insert(argv.end(), run_argv.begin(), run_argv.end());
  ChildOptions o;
  o.stdout_file = log.string();
  o.stderr_to_stdout = true;
  const ChildResult r = run_child(argv, o);
  if (!fs::exists(report))
    throw InputError(fmt::format("ncu wrote no report (exit status {}{}; its log: {})", r.status,
                                 ncu_complaint(log).empty() ? "" : ": " + ncu_complaint(log), log.string()));
  ChildOptions csv_out;
  csv_out.stdout_file = csv.string();
  csv_out.quiet = true;
  run_child({ncu, "--import", report.string(), "--csv", "--page", "raw", "--print-units", "base"}, csv_out);
  return parse_ncu_csv(read_whole_file(csv.string(), "'" + csv.string() + "'", "ncu's CSV export",
                                       [](std::uintmax_t) {}));
}

bool profilable(const json& run) {
  return run.value("backend", "") == "gpu" && run.value("status", "") == "passed";
}

std::string skip_reason(const json& run) {
  if (run.value("backend", "") != "gpu") return "cpu step";
  return "not profiled: the run " + run.value("status", std::string("?"));
}

std::string text(const json& run, const char* key) {
  const auto it = run.find(key);
  return it != run.end() && it->is_string() ? it->get<std::string>() : "";
}

// A run as both passes name it, whatever their filters made of run_index.
std::string run_key(const json& run) {
  return text(run, "study") + "/" + text(run, "variant") + "|" + text(run, "sweep") + "|" + text(run, "point");
}

struct Collection {
  std::string ncu, version;
  MetricPlan plan;
  int launches = 1;
};

// Counters of another GPU model would explain timings they were not measured with.
void check_same_device(const json& timed, const json& profiled) {
  const auto name = [](const json& r) {
    return r.contains("device") && r["device"].is_object() ? text(r["device"], "name") : std::string();
  };
  if (name(timed) != name(profiled))
    throw InputError("the runs were timed on " + name(timed) + " and profiled on " + name(profiled));
}

// What a run's `work` counts, by its metric: a rate's unit (GCUPS) is not the work's (cells).
std::string work_unit(const json& run) {
  static const std::map<std::string, std::string> units = {
      {"gcups", "cells"}, {"gflops", "flops"}, {"points_per_s", "points"}, {"gbps", "bytes"}};
  const auto it = units.find(text(run, "metric"));
  return it == units.end() ? "units of work" : it->second;
}

// A run's status as a phrase: "failed: out of memory", "passed".
std::string outcome(const json& run) {
  const std::string why = text(run, "reason");
  return run.value("status", std::string("?")) + (why.empty() ? "" : ": " + why);
}

// Collecting SET failed for the run: the counters it has stay, and the profile says why.
void skip_set(json& run, const std::string& set, const std::string& reason) {
  run["profile"] = skip_collection(run.value("profile", json()), set, reason);
}

// The collection put_profile just added to the run.
json& newest_collection(json& run) {
  return run["profile"].contains("collections") ? run["profile"]["collections"].back() : run["profile"];
}

// What the collection cost: the wall time of the ncu process that made it, and how many runs
// that process profiled (range replay profiles all of a pass's runs in one).
void stamp(json& collection, double wall_s, std::size_t runs) {
  collection["ncu_wall_s"] = wall_s;
  collection["ncu_runs"] = runs;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// `whole_run` false: the results cover only some of the run's launches, so no count is divided
// by the whole run's work (ratios such as conflict share still hold).
void put_profile(json& run, const std::vector<NcuResult>& got, const NcuCollection& how, bool whole_run = true) {
  const json& m = run.contains("metrics") && run["metrics"].is_object() ? run["metrics"] : json::object();
  const double work = whole_run && m.contains("work") && m["work"].is_number() ? m["work"].get<double>() : 0.0;
  run["profile"] = combine_profiles(run.value("profile", json()), fold_profile(got, how, work, work_unit(run)));
}

// The runs this command profiles, by run key, each with its run_index in the plan (of CONFIG
// and --filter) that the second pass numbers by: every run, or those --runs names.
std::map<std::string, std::size_t> selected_runs(const Parsed& p, const Config& config) {
  std::vector<PlannedRun> plan = plan_runs(config, p.get("filter"), std::nullopt);
  if (p.has("runs")) plan = keep_runs(std::move(plan), run_list(p.get("runs")));
  std::map<std::string, std::size_t> keys;
  for (const PlannedRun& planned : plan) {
    const Point& pt = config.points[planned.point];
    keys[run_key({{"study", planned.variant->study}, {"variant", planned.variant->name},
                  {"sweep", pt.sweep}, {"point", pt.key()}})] = planned.index;
  }
  return keys;
}

// One ncu process over RUNS of the config ("" for every run the command selects): ncu's results,
// the runs as the profiled process recorded them, and what it cost. Throws InputError, in ncu's
// words where it said any, when the process left no report or no results file.
struct NcuPass {
  std::vector<NcuResult> got;
  json profiled;
  std::string complaint;  // what ncu's log says went wrong, if anything
  double wall_s = 0;
};

NcuPass ncu_pass(const Parsed& p, const Collection& c, const std::vector<std::string>& ncu_options,
                 const std::string& runs, const json& results, const fs::path& dir, const std::string& tag) {
  const fs::path second = dir / "profiled.json";
  fs::remove(second);  // an earlier pass's file must not stand in for this one's
  const auto t0 = std::chrono::steady_clock::now();
  NcuPass pass;
  pass.got = collect(c.ncu, ncu_options, profiled_run(p, second, runs), dir, tag);
  pass.complaint = ncu_complaint(dir / (tag + ".log"));
  if (!fs::exists(second))
    throw InputError("under ncu the runs wrote no results" + (pass.complaint.empty() ? "" : " (" + pass.complaint + ")"));
  pass.profiled = read_results(second.string());
  check_same_device(results, pass.profiled);
  pass.wall_s = seconds_since(t0);
  return pass;
}

// One range-replay pass over RUNS ("" for every run the command selects): one result per range,
// in the order of the pass's runs that made one (its GPU runs that ran), and why the others made
// none.
struct RangePass {
  std::map<std::string, NcuResult> got;      // run key -> its range's result
  std::map<std::string, std::string> lost;   // run key -> why it made none
  std::string complaint;                     // what ncu's log says went wrong, if anything
  double wall_s = 0;

  // Why KEY has no result: its run's outcome, else ncu's complaint.
  std::string why(const std::string& key) const {
    if (lost.contains(key)) return lost.at(key);
    return "the profiled pass under ncu did not reach the run" + (complaint.empty() ? "" : " (" + complaint + ")");
  }
};

RangePass range_pass(const Parsed& p, const std::string& runs, const json& results, const Collection& c,
                     const fs::path& dir) {
  const NcuPass ncu = ncu_pass(p, c, {"--replay-mode", "range", "--cache-control", "all", "--clock-control", "none",
                                      "--metrics", joined(c.plan.metrics)},
                               runs, results, dir, "range");
  RangePass pass;
  std::vector<std::string> ranged;
  for (const json& r : ncu.profiled["runs"])
    if (profilable(r)) ranged.push_back(run_key(r));
    else pass.lost.emplace(run_key(r), "under ncu the run " + outcome(r));
  if (ncu.got.size() != ranged.size())
    throw InputError(fmt::format("ncu gave {} range results for {} profiled runs", ncu.got.size(), ranged.size()));
  for (std::size_t i = 0; i < ncu.got.size(); ++i) pass.got.emplace(ranged[i], ncu.got[i]);
  pass.complaint = ncu.complaint;
  pass.wall_s = ncu.wall_s;
  return pass;
}

// Range replay: one pass for all the runs; a run without a result there gets a pass of its own:
// one process holding every run's buffers and ncu's copies of them can run out of memory where a
// run alone does not, and a run that ncu stops the process at leaves the runs after it unrun.
// A pass of its own that fails costs only its run.
void profile_ranges(const Parsed& p, const std::map<std::string, std::size_t>& selected, json& results,
                    const Collection& c, const fs::path& dir) {
  RangePass all;
  try {
    all = range_pass(p, "", results, c, dir);
  } catch (const InputError& e) {
    all.complaint = e.what();  // the shared process left nothing to read: every run alone
  }
  const NcuCollection how{c.version, "range", "all", c.plan.set};
  for (json& r : results["runs"]) {
    if (!profilable(r) || !selected.contains(run_key(r))) continue;
    const std::string key = run_key(r);
    if (all.got.contains(key)) {
      put_profile(r, {all.got.at(key)}, how);
      stamp(newest_collection(r), all.wall_s, all.got.size());
      continue;
    }
    try {
      const RangePass alone = range_pass(p, std::to_string(selected.at(key)), results, c, dir);
      if (!alone.got.contains(key)) throw InputError(alone.why(key));
      put_profile(r, {alone.got.at(key)}, how);
      stamp(newest_collection(r), alone.wall_s, 1);
    } catch (const InputError& e) {
      skip_set(r, c.plan.set, e.what());
    }
  }
}

// Kernel replay's options; `more` narrows what is profiled.
std::vector<std::string> kernel_replay(const Collection& c, std::size_t launch_count, std::vector<std::string> more) {
  std::vector<std::string> o = {"--replay-mode", "kernel", "--cache-control", "all", "--clock-control", "none",
                                "--profile-from-start", "off", "--nvtx", "--launch-count", std::to_string(launch_count),
                                "--metrics", joined(c.plan.metrics)};
  o.insert(o.end(), more.begin(), more.end());
  return o;
}

// A run's kernel-replay results (its first launches, in order) as its collection. One result
// more than --launches tells that the run has more than were kept.
void put_launches(json& run, std::vector<NcuResult> got, const Collection& c, double wall_s, std::size_t runs) {
  const bool all = got.size() <= std::size_t(c.launches);
  got.resize(std::min(got.size(), std::size_t(c.launches)));
  put_profile(run, got, {c.version, "kernel", "all", c.plan.set}, all);
  json& last = newest_collection(run);
  last["launches_profiled"] = got.size();
  last["all_launches"] = all;
  stamp(last, wall_s, runs);
}

// One ncu process for run K alone (--runs K), limited by NVTX to its range (study.variant/rK).
void profile_alone(const Parsed& p, json& run, std::size_t k, const json& results, const Collection& c,
                   const fs::path& dir) {
  const std::string range = fmt::format("{}.{}/r{}/", text(run, "study"), text(run, "variant"), k);
  const NcuPass ncu = ncu_pass(p, c, kernel_replay(c, c.launches + 1, {"--nvtx-include", range}), std::to_string(k),
                               results, dir, fmt::format("run{}", k));
  if (!ncu.got.empty()) return put_launches(run, ncu.got, c, ncu.wall_s, 1);
  std::string none = "ncu profiled no launch in range " + range;
  for (const json& r : ncu.profiled["runs"])
    if (run_key(r) == run_key(run) && !profilable(r)) none = "under ncu the run " + outcome(r);
  if (!ncu.complaint.empty()) none += " (" + ncu.complaint + ")";
  skip_set(run, c.plan.set, none);
}

// Kernel replay: first one ncu process for all the runs, at most --launches + 1 launches each in
// all (most steps make a few launches, and a process per run repeats the data and ncu's start
// for each); each result goes to the run its NVTX range names. A run the total cap may have cut
// short, one after it, one that failed or made no launch there, or all of them when the results
// cannot be told apart, then get an ncu process of their own.
void profile_kernels(const Parsed& p, const std::map<std::string, std::size_t>& selected, json& results,
                     const Collection& c, const fs::path& dir) {
  std::map<std::size_t, json*> runs;  // run index -> the run, in the order the pass runs them
  for (json& r : results["runs"]) {
    const auto at = selected.find(run_key(r));
    if (profilable(r) && at != selected.end()) runs[at->second] = &r;
  }
  std::vector<std::size_t> order;
  for (const auto& [k, r] : runs) order.push_back(k);
  LaunchSplit split{{}, order};
  if (order.size() > 1) {
    std::string list;
    for (const std::size_t k : order) list += (list.empty() ? "" : ",") + std::to_string(k);
    const std::size_t cap = (std::size_t(c.launches) + 1) * order.size();
    try {
      const NcuPass ncu = ncu_pass(p, c, kernel_replay(c, cap, {}), list, results, dir, "kernels");
      split = split_launches(ncu.got, order, cap, std::size_t(c.launches));
      // A run that failed or made no launch there is tried again alone: the shared process may
      // be what failed, and the process of its own says why.
      std::set<std::string> failed;
      for (const json& r : ncu.profiled["runs"])
        if (!profilable(r)) failed.insert(run_key(r));
      for (const auto& [k, got_k] : split.results) {
        if (got_k.empty() || failed.contains(run_key(*runs[k]))) split.again.push_back(k);
        else put_launches(*runs[k], got_k, c, ncu.wall_s, order.size());
      }
      std::sort(split.again.begin(), split.again.end());
    } catch (const InputError&) {
      split = {{}, order};  // the shared process left nothing to read: every run alone
    }
  }
  for (const std::size_t k : split.again) {
    try {
      profile_alone(p, *runs[k], k, results, c, dir);
    } catch (const InputError& e) {
      skip_set(*runs[k], c.plan.set, e.what());  // this run's counters only are missing
    }
  }
}

// --into RESULTS: a results file of this very config (at this scale), timed earlier.
json earlier_results(const Parsed& p, const Config& config) {
  if (p.has("out")) throw InputError("give --out FILE or --into RESULTS, not both");
  json r = read_results(p.get("into"));
  if (!r.contains("config") || r["config"] != config.resolved)
    throw InputError("--into '" + printable(p.get("into"), 120) +
                     "' holds the runs of another config (or of this one at another scale or settings)");
  return r;
}

// The selected GPU runs, and how many of them this command left without SET's counters (each
// says why under its profile's `missing`).
std::pair<std::size_t, std::size_t> runs_without_counters(const std::map<std::string, std::size_t>& selected,
                                                          const json& results, const std::string& set) {
  std::size_t runs = 0, lacking = 0;
  for (const json& r : results["runs"]) {
    if (!profilable(r) || !selected.contains(run_key(r))) continue;
    ++runs;
    const json profile = r.value("profile", json::object());
    const json missing = profile.is_object() ? profile.value("missing", json::object()) : json();
    lacking += missing.is_object() && missing.contains(set);
  }
  return {runs, lacking};
}

// ncu's counters for every profilable run. When a run got none, the runs say why, one line says
// how many, the status is 1, and ncu's files (whose logs the reasons name) are kept.
int add_counters(const Parsed& p, const std::map<std::string, std::size_t>& selected, json& results,
                 Collection& c, bool quiet) {
  c.version = ncu_version(c.ncu);
  const fs::path dir = fs::temp_directory_path() / fmt::format("ladder-profile-{}", ::getpid());
  fs::create_directories(dir);
  if (!quiet) fmt::print("profile: {} counters with ncu {} ({} replay)\n", c.plan.set, c.version,
                         c.plan.kernel_replay ? "kernel" : "range");
  std::string why;
  try {
    if (c.plan.kernel_replay) profile_kernels(p, selected, results, c, dir);
    else profile_ranges(p, selected, results, c, dir);
  } catch (const InputError& e) {
    // The timings stand; the counters are missing, and say why.
    why = e.what();
    for (json& r : results["runs"])
      if (profilable(r) && selected.contains(run_key(r))) skip_set(r, c.plan.set, e.what());
  }
  const auto [runs, lacking] = runs_without_counters(selected, results, c.plan.set);
  if (lacking == 0 && why.empty()) {
    fs::remove_all(dir);
    return 0;
  }
  fmt::print(stderr, "ladder: profile: ncu gave no {} counters for {} of {} GPU runs ({}; ncu's files are in {})\n",
             c.plan.set, lacking, runs, why.empty() ? "each run's profile says why under `missing`" : why,
             dir.string());
  return 1;
}

int profile(const Parsed& p) {
  if (p.positional.size() != 1) throw InputError("profile needs exactly one CONFIG file");
  Config config = config_from_options(p);
  Collection c;
  c.plan = metric_plan(p.get("metrics"));
  if (p.has("launches")) c.launches = integer_option(p, "launches", 1);
  c.ncu = find_ncu(p);
  const bool into = p.has("into");
  const std::map<std::string, std::size_t> selected = selected_runs(p, config);
  json results = into ? earlier_results(p, config) : json();
  if (into && c.ncu.empty()) throw InputError("--into adds counters, and no ncu was found (--ncu PATH)");
  const std::string shown = into ? p.get("into") : p.has("out") ? p.get("out") : default_out(config);
  const std::string out = results_target(shown);
  check_out_creatable(out);
  if (!into) refuse_overwriting(out, input_files(config), "--out");
  RunOptions opt = run_options(p);
  bool all_ok = true;
  if (!into) {
    opt.on_checked = [&out] { prepare_results_file(out); };
    const RunReport rep = run_config(config, opt);  // the timing pass: no profiler attached
    print_summary(rep);
    results = results_json(rep);
    all_ok = rep.all_ok();
  }
  if (c.ncu.empty()) fmt::print(stderr, "ladder: ncu not found (--ncu PATH): GPU runs are recorded without counters\n");
  bool any = false;
  for (json& r : results["runs"]) {
    if (!selected.contains(run_key(r))) continue;
    if (r.value("backend", "") == "gpu" && c.ncu.empty()) r["profile"] = {{"skipped", "ncu not found"}};
    else if (!profilable(r)) r["profile"] = {{"skipped", skip_reason(r)}};
    else any = true;
  }
  const int counted = !c.ncu.empty() && any ? add_counters(p, selected, results, c, opt.quiet) : 0;
  write_file_atomically(out, results.dump(2) + "\n");
  fmt::print("\nresults: {}\n", shown);
  return all_ok && counted == 0 ? 0 : 1;
}

}  // namespace

std::string find_ncu(const Parsed& p) {
  if (p.has("ncu")) {
    if (!executable(p.get("ncu"))) throw InputError("--ncu '" + printable(p.get("ncu"), 120) + "' is not an executable file");
    return p.get("ncu");
  }
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string d; std::getline(dirs, d, ':');)
    if (!d.empty() && executable(fs::path(d) / "ncu")) return (fs::path(d) / "ncu").string();
  for (const char* f : {"/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/ncu"})
    if (executable(f)) return f;
  return "";
}

const Command profile_command{
    .name = "profile",
    .summary = "time a config's runs, then record Nsight Compute's counters beside each GPU run",
    .positionals = {"CONFIG"},
    .options = {{"out", "FILE", "the results file (default results/<name>-<UTC time>.json)"},
                {"into", "RESULTS", "no timing pass: add the counters to RESULTS, a results file of CONFIG"},
                {"metrics", "sol|why|sass|LIST", "speed of light (default), stall reasons and pipes, SASS counts, or ncu metric names"},
                {"launches", "N", "with sass: the first N launches of each run (default 1; counts per unit of work only when that is all)"},
                {"ncu", "PATH", "the ncu to use (default: ncu on PATH, then /usr/local/cuda/bin/ncu)"},
                shared_option("filter"), shared_option("validate"), shared_option("device"),
                shared_option("quiet"), shared_option("repetitions"), shared_option("warmup"),
                shared_option("timing"), shared_option("scale"), shared_option("runs")},
    .about = "Runs CONFIG as `ladder run` does (timed, validated, with no profiler attached), then runs\n"
             "it again under ncu, each GPU run's one call in a profiler range, and writes each run's\n"
             "counters as its `profile`: the tool and its version, the replay mode, the cache control,\n"
             "the raw metrics in base units folded over the run's launches, and derived values (speed\n"
             "of light, bytes per level, occupancy, stalls, conflicts, branch uniformity, counts per\n"
             "unit of work). CPU runs get {\"skipped\": \"cpu step\"}; without ncu every GPU run gets\n"
             "{\"skipped\": \"ncu not found\"} and the exit status is as `run`'s. Exit status: 0 every run\n"
             "passed and was profiled, 1 a run failed or ncu gave no counters, 2 bad input, 3 CUDA error.\n"
             "--into RESULTS skips the timing pass and adds the counters to that file's runs (the same\n"
             "config, at the same scale and settings), rewritten atomically.\n",
    .body = profile,
};

}  // namespace ladder::cli
