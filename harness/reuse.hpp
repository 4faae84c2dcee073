// What `ladder reproduce` takes from the files it finds: a results file that may stand for a
// config it would otherwise run again, a peer's results, and the config times of a committed
// reference reproduction. Nothing read from disk is trusted: a field of another type, a count
// that does not add up or a run the config does not plan makes a file not reusable, with the
// reason; none of these functions throws, whatever JSON value it is given.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ladder {

// What a reusable results file must match: the build, the scale, the device, the config as it
// runs (after the scale is applied) and the number of runs it plans.
struct ReuseKey {
  std::string commit;  // this build's; "unknown" never matches
  std::string scale;
  bool device_present = false;
  std::string device_name;
  nlohmann::json config;
  std::size_t planned = 0;
};

struct ReuseVerdict {
  std::string why_not;    // "" when the file can be reused
  bool all_ok = false;    // every run passed or was validly unsupported or skipped
  double elapsed_s = 0;   // from its started_at to its finished_at (0 when unknown)
};

// Whether `results` (parsed JSON) is a valid, complete results file of exactly this config,
// commit, scale and device.
ReuseVerdict judge_results(const nlohmann::json& results, const ReuseKey& want);

// Why `results` is not a valid, complete results file, whatever it ran ("" when it is one).
std::string why_incomplete(const nlohmann::json& results);

// Why the runs' statuses or the summary that counts them are not valid: a status ladder never
// writes, or a summary that is not the runs' own counts ("" when they are). A hand-edited
// summary could hide a failure.
std::string summary_problem(const nlohmann::json& results);

// A peer's results (written by `ladder ingest`): valid, complete, and of this commit (which
// validated them), scale, config as a peer records it (`peer_resolved`) and device name. Its
// runs' count is the peer's, so `want.planned` is not checked.
ReuseVerdict judge_peer_results(const nlohmann::json& results, const ReuseKey& want);

// Each named config's elapsed_s in a reproduction manifest (reproduction.json), -1 where the
// manifest has no usable time for it.
std::vector<double> manifest_times(const nlohmann::json& manifest,
                                   const std::vector<std::string>& names);

// The reproduction's cost table (configs/costs.json, written by scripts/cost_table.py from the
// reference reproductions): {"scales": {SCALE: {"gpu": NAME, "configs": [{"name", "elapsed_s"},
// ...]}}}. Each named config's seconds at `scale` (manifest_times of that scale's entry), -1
// where the table has none, and the GPU they were measured on ("" when it names none). Any
// JSON is accepted: a damaged table only costs the estimate.
struct CostTimes {
  std::vector<double> seconds;
  std::string gpu;
};
CostTimes cost_table_times(const nlohmann::json& table, const std::string& scale,
                           const std::vector<std::string>& names);

}  // namespace ladder
