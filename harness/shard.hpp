// Splitting plans between processes (`--shard K/N`, `--gpus`): the unit is a data group (runs
// that share one generated or read data set and its reference), never split, so no shard
// builds a data set another one builds too. Groups go to shards by expected cost, largest
// first, each to the least loaded shard: the same inputs give every shard the same split, with
// no coordination between them.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "plan.hpp"

namespace ladder {

// The most shards a plan is split into: `--shard K/N` and every shard file merge reads.
constexpr std::size_t kMaxShards = 100000;

// "K/N" with K in 0..N-1 (0-based, as `sbatch --array=0-(N-1)` numbers tasks); throws
// InputError naming `option`.
ShardInfo parse_shard(const std::string& text, const std::string& option = "--shard");

// A shard's results file as `ladder merge` needs it: its shard record checked against its
// runs (owners, indices, each run the shard's own, statuses and the summary they add up to)
// and its config's name. Whether shards agree with each other is merge's to check.
struct ShardFile {
  std::string path;
  nlohmann::json results;
  std::size_t index = 0, count = 0, runs_total = 0;
  std::string config, plan_hash;
  std::vector<std::size_t> owners;
  nlohmann::json reproduction;  // the reproduction's config names, or null for a shard of `run`
};

// `results` (already through check_results) as a shard's file; InputError, naming `shown` and
// the field amiss, when it is not one.
ShardFile check_shard(nlohmann::json results, const std::string& shown);

// Seconds each run took in earlier results (`--costs FILE|DIR`): a run's wall_s, or for files
// written before runs recorded it, its timed samples and warm-up. Each is a finite number of
// seconds from 0 to kMaxRunSeconds, so that sums of them stay finite.
class MeasuredCosts {
 public:
  MeasuredCosts() = default;
  // A results file, or a folder of them (a reproduction); throws InputError when it holds none.
  static MeasuredCosts read(const std::string& path);
  // -1 when the run is not among them.
  double seconds(const std::string& config, const std::string& variant_id, const std::string& point) const;
  bool empty() const { return seconds_.empty(); }
  // The runs of one results file (already through check_results); a time that is not a
  // number of seconds in range throws InputError naming `shown` and the field.
  void add(const nlohmann::json& results, const std::string& shown = "results");
  static constexpr double kMaxRunSeconds = 1e6;  // some 11 days: longer is no run's time

 private:
  std::map<std::string, double> seconds_;
};

// One config's plan, as the split sees it.
struct PlanToSplit {
  const Config* config = nullptr;
  std::vector<PlannedRun> runs;
};

// Splits the plans (one for `run`, every paper experiment's for `reproduce`) into `count`
// shards, balanced by measured costs where `measured` knows a run and by the plan's estimate
// otherwise (scaled to the measured ones); returns each plan's ShardInfo for shard `index`.
// Every call with the same plans, count and costs gives the same split.
std::vector<ShardInfo> split_plans(const std::vector<PlanToSplit>& plans, std::size_t index,
                                   std::size_t count, const MeasuredCosts& measured);

// Each run's expected seconds (as split_plans weighs it), for progress estimates.
std::vector<std::vector<double>> run_costs(const std::vector<PlanToSplit>& plans,
                                           const MeasuredCosts& measured);

}  // namespace ladder
