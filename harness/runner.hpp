// Runs a config: for each parameter point, builds the data once, then for each selected
// variant checks support, prepares it, warms up, times repetitions under Google Benchmark
// (manual time from the variant's own clock) and validates the last output.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"
#include "device_info.hpp"
#include "validation.hpp"

namespace ladder {

struct RunOptions {
  std::string filter;                     // regex searched in "study/variant"
  std::optional<Validation> validation;   // overrides the config's mode
  std::string dump_dir;                   // write each output as .npy here when set
  bool profile = false;                   // one NVTX-wrapped run per variant, no repetitions
  int device = 0;
  bool quiet = false;                     // no progress lines
};

struct RunRecord {
  const VariantSpec* variant = nullptr;
  Params params;  // the point with every default filled in
  std::string point;
  std::string sweep;
  Status status = Status::error;
  std::string reason;  // why unsupported / skipped / incorrect / error
  Validation validation;
  ValidationResult check;
  Tolerance tolerance;
  std::vector<double> samples_ms;
  std::map<std::string, std::vector<double>> stage_samples_ms;
  int warmup = 0;
  Work work;
  std::map<std::string, double> data;
  std::map<std::string, double> extras;
  std::map<std::string, double> facts;
};

struct RunReport {
  Config config;
  RunOptions options;
  Validation validation;
  DeviceReport device;
  int clock_start_mhz = -1, clock_end_mhz = -1;
  std::string started_at, finished_at;
  std::vector<RunRecord> runs;
  bool all_ok() const;
};

RunReport run_config(const Config& config, const RunOptions& options);

// Summary statistics of a sample (median of an even count is the mean of the middle two).
double median_of(std::vector<double> v);

}  // namespace ladder
