// Runs a config: for each parameter point, builds the data once, then for each selected
// variant checks support, prepares it, warms up, times repetitions under Google Benchmark
// (manual time from the variant's own clock) and validates the last output. Every run ends
// with a status: whatever goes wrong inside one is recorded as that run's error. With rounds
// (RunOptions::rounds) a point's GPU runs take their samples interleaved, round by round; the
// runs are still recorded one by one, in plan order.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"
#include "device_info.hpp"
#include "plan.hpp"
#include "sampling.hpp"
#include "validation.hpp"

namespace ladder {

struct RunReport;

struct RunOptions {
  std::string filter;                     // regex searched in "study/variant"
  std::optional<Validation> validation;   // overrides the config's mode
  std::string dump_dir;                   // write each output as .npy here when set
  bool profile = false;                   // warm-ups, then one call in an NVTX range: no timing
  int device = 0;
  bool device_given = false;              // --device: a CUDA runtime that cannot start is an error
  bool quiet = false;                     // no progress lines
  ShardInfo shard;                        // when active, only the shard's runs (harness/shard.hpp)
  std::vector<RunRange> only_runs;        // when given (--runs), only these run indices of the plan
  // The runs replay measurements made elsewhere (`ladder ingest`): a GPU run is validated
  // and recorded even where no GPU is present (its limit is then unknown).
  bool replay = false;
  // How samples are taken for the process-level measurement (harness/sampling.hpp):
  // --process-samples: a GPU run takes process_sample_count() samples (the config's count at
  // least); --rounds R: a point's GPU runs take their samples in R rounds, the point's steps in
  // a seeded random order each round, each after a warm-up call of its own; --blocked-start:
  // each GPU sample also a call with the stream held until the step is queued (device_ms);
  // --plant (test only): matching steps slowed by a wait inside the timed window.
  bool process_samples = false;
  int rounds = 1;
  bool blocked_start = false;
  std::optional<Plant> plant;
  // Called once every input has been checked, before the first run (the CLI creates its
  // output directories then), and after every run with the report so far (the CLI rewrites
  // the results file).
  std::function<void()> on_checked;
  std::function<void(const RunReport&)> on_run;
  // The config's progress line (run_progress.hpp) starts with progress_label (the config's
  // name when empty) and, when progress_tail is set, ends with what it returns for (runs done,
  // runs planned): `ladder reproduce` adds the whole reproduction's place and estimate.
  std::string progress_label;
  std::function<std::string(std::size_t, std::size_t)> progress_tail;
};

// Summary statistics of the timed samples, as Google Benchmark computes them.
struct TimingStats {
  double mean = 0, median = 0, stddev = 0, cv = 0;  // cv: stddev / mean
};

struct RunRecord {
  std::size_t run_index = 0;  // its place in the config's plan (plan.hpp)
  const VariantSpec* variant = nullptr;
  Params params;  // the point with every default filled in: what ran
  std::string point;
  std::string sweep;
  Status status = Status::error;
  std::string reason;  // why unsupported / skipped / incorrect / error
  std::string emulated;  // why the step ran emulated on this device (harness/hardware.hpp)
  Validation validation;
  ValidationResult check;
  Tolerance tolerance;
  TimingMode timing = TimingMode::hot;
  std::vector<double> samples_ms;
  TimingStats stats;
  std::map<std::string, std::vector<double>> stage_samples_ms;
  int warmup = 0;
  int repetitions_planned = 0;  // the plan's count; fewer samples when a time budget cut it
  double time_budget_s = 0;
  Work work;
  std::map<std::string, double> data;
  std::map<std::string, double> extras;
  std::map<std::string, double> facts;
  std::string note;  // a peer's word on the run (`ladder ingest`)
  double wall_s = -1;  // the whole run: data and reference when it built them, warm-up, samples
  // What RunOptions' sampling options did to this run (all empty or zero without them).
  std::string samples_rule;       // "process": --process-samples set repetitions_planned
  int rounds = 1;                 // > 1: samples taken in rounds; sample_rounds[i]: sample i's
  std::vector<int> sample_rounds;
  std::uint64_t round_seed = 0;        // the point's round orders (harness/sampling.hpp)
  std::vector<int> round_positions;    // the run's place in each round's order
  // --blocked-start: each sample's device time with the stream held until the step was queued
  // (NaN where the hold timed out), or why the step could not be held.
  std::vector<double> device_samples_ms;
  std::string device_skipped;
  // --plant: the factor, the wait it gave, the wait's own cost (taken off the wait: the window
  // grows by wait + cost) and the warm-up median the growth is a share of.
  double planted_factor = 0, planted_ms = 0, planted_cost_ms = 0, planted_of_ms = 0;
};

struct RunReport {
  Config config;
  RunOptions options;
  Validation validation;
  DeviceReport device;
  int clock_start_mhz = -1, clock_end_mhz = -1;
  std::string started_at, finished_at;
  std::size_t planned = 0;  // runs the config (or the shard) selects; runs.size() of them are done
  std::vector<RunRecord> runs;
  nlohmann::json peer;  // what a peer says of itself (`ladder ingest`), recorded as is
  bool all_ok() const;
};

// Checks everything that can be checked up front (the filter, every point's data parameters,
// the data file) and throws InputError before the first run; then runs every selected
// (point, variant), calling options.on_run after each.
RunReport run_config(const Config& config, const RunOptions& options);

// The NVTX range `--profile` puts a step's call in: "dtw.shared" (ncu's NVTX filters read a
// '/' as nesting, so the study and variant are joined by a '.').
std::string nvtx_name(const VariantSpec& v);

// run_config's up-front checks alone (the filter, every point's parameters and memory, every
// data file read and checked), for a caller that must know every config sound before it runs
// the first (`ladder reproduce`); throws InputError.
void check_config(const Config& config, const RunOptions& options);

// Summary statistics of a sample (median of an even count is the mean of the middle two).
double median_of(std::vector<double> v);

// The `timing` fields the sampling options add to a run's results (RunRecord's samples_rule to
// planted_ms): an empty object for a run taken without them.
nlohmann::json sampling_json(const RunRecord& r);

}  // namespace ladder
