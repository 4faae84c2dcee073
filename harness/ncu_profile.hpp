// Nsight Compute's counters, read from its CSV export and folded into a run's `profile` object.
// ncu runs apart from ladder's timing (with ncu attached even unprofiled launches slow down),
// writes a report, and `ncu --import R --csv --page raw --print-units base` turns it into the
// text read here: a header row of metric names, a row of their units, then one row per profiled
// result (a kernel launch in kernel replay, a profiler range in range replay).
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ladder {

struct NcuResult {
  std::string name;                        // the kernel's or the range's ("<unnamed>::k(...)")
  std::string nvtx;                        // the push/pop ranges around it (with --nvtx), as ncu prints them
  std::map<std::string, double> values;    // metric -> value in base units; NaN for "n/a"
  std::map<std::string, std::string> units;
};

// The results of the CSV text. Lines ncu writes before the table ("==PROF==" and the like) are
// skipped; a table without ID and Kernel Name columns, a row of another width or a metric cell
// that is not a number throws InputError with one line.
std::vector<NcuResult> parse_ncu_csv(const std::string& text);

// A cell in base units: "1,085,984" -> 1085984 (ncu groups thousands), "n/a" and "" -> NaN.
// Throws InputError naming `metric` for anything else.
double ncu_number(const std::string& cell, const std::string& metric);

// The run index K of the NVTX range "rK" that `run --profile` opens around run K's profiled call,
// read from a result's push/pop ranges; nullopt when they name no such range, or two.
std::optional<std::size_t> nvtx_run_index(const std::string& nvtx);

// Kernel replay of several runs in one ncu process, which profiles at most `cap` launches in
// all (--launch-count is not per range): each run's results, by the range each names, and the
// runs that need a process of their own because the cap may have cut them short. `order`: the
// runs in the order they ran. Results that do not name one of them, or not in that order, send
// every run to a process of its own.
struct LaunchSplit {
  std::map<std::size_t, std::vector<NcuResult>> results;  // run index -> its launches, in order
  std::vector<std::size_t> again;                          // runs to profile alone
};
LaunchSplit split_launches(const std::vector<NcuResult>& got, const std::vector<std::size_t>& order,
                           std::size_t cap, std::size_t keep);

// How the results were collected, recorded with the numbers: range and kernel replay differ
// (kernel replay flushes caches before each launch, so DRAM bytes differ many times over).
struct NcuCollection {
  std::string tool_version;     // "2025.3.1.0"
  std::string replay_mode;      // "range" or "kernel"
  std::string cache_control;    // "all" (flush before each pass) or "none"
  std::string metric_set;       // "sol", "why", "sass" or "custom"
  // "none": the GPU runs at the clock it chooses, as in the timed pass (ncu's default, "base",
  // locks it lower: durations and achieved rates would not match the timings or the ceilings
  // at the maximum SM clock).
  std::string clock_control = "none";
};

// A run's `profile`: the collection, the number of results folded, `raw` (every metric folded
// across the results: counters summed, maxima and minima kept as such, rates and percentages of
// peak weighted by each result's duration) and `derived` (speed of light, bytes per level,
// occupancy, issue use, pipes, stalls per issued instruction, shared-memory conflict share,
// branch uniformity, and counts per unit of the run's `work`), each only where its metrics
// were collected. Ratios of counters are taken from the summed numerators and denominators.
nlohmann::json fold_profile(const std::vector<NcuResult>& results, const NcuCollection& how,
                            double work, const std::string& work_unit);

// A run's profile after a second collection (`ladder profile --into` with another metric set,
// e.g. range-replayed `why` then kernel-replayed `sass`). Each collection keeps its own record
// (mode, cache control, set, kernels, raw and derived numbers) under `collections`, since the modes count
// differently (kernel replay flushes caches before each launch); the top-level `derived` takes range
// replay's values (the whole run) and adds what kernel replay's have that they lack, and `replay_mode` and
// `metric_set` name them all ("range+kernel", "why+sass"). A collection of a set already
// there replaces it. An earlier profile without counters (skipped) is replaced; the sets that
// could not be collected stay named, with why, under `missing` until one is.
nlohmann::json combine_profiles(const nlohmann::json& earlier, const nlohmann::json& added);

// A run's profile after collecting SET failed for REASON: the counters it holds stay, and
// `missing` names SET with REASON; a profile without counters becomes {"skipped": REASON, ...}.
// A profile that already holds SET is kept as it is.
nlohmann::json skip_collection(const nlohmann::json& earlier, const std::string& set, const std::string& reason);

}  // namespace ladder
