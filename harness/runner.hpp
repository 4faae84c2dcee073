// Runs a config: for each parameter point, builds the data once, then for each selected
// variant checks support, prepares it, warms up, times repetitions under Google Benchmark
// (manual time from the variant's own clock) and validates the last output. Every run ends
// with a status: whatever goes wrong inside one is recorded as that run's error.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"
#include "device_info.hpp"
#include "plan.hpp"
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
  // Called once every input has been checked, before the first run (the CLI creates its
  // output directories then), and after every run with the report so far (the CLI rewrites
  // the results file).
  std::function<void()> on_checked;
  std::function<void(const RunReport&)> on_run;
  // When set, each progress line starts with progress_label and ends with what progress_tail
  // returns for (runs done, runs planned): `ladder reproduce` adds the whole reproduction's
  // place, elapsed time and estimate.
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

}  // namespace ladder
