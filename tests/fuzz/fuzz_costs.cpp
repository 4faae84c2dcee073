// Fuzz target: the measured costs `--costs FILE|DIR` reads (harness/shard.hpp). The input is up
// to 4 results files one after the other, separated by NUL bytes: one is given as a file, more
// as a folder of them, to MeasuredCosts::read, which reads each through read_results. The costs
// read then weigh a small twed config's plan as `run --shard`, `plan` and `--gpus` weigh it:
// run_costs (each run's expected seconds, for progress estimates) and split_plans (the split).
// InputError (of one printable line) is the expected answer to bad files; anything else
// escaping is a finding. Also: a cost known or estimated is a finite number of seconds, at
// least 0 (a sum of them is a time left), and every shard computes the same split.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "datagen/base/errors.hpp"
#include "fuzz_input.hpp"
#include "harness/config.hpp"
#include "harness/plan.hpp"
#include "harness/shard.hpp"

namespace {

namespace fs = std::filesystem;
using ladder::fuzz::broken_promise;

constexpr std::size_t kMaxFiles = 4;
constexpr std::size_t kShards = 3;

const ladder::fuzz::ScratchDir& scratch() {
  static const ladder::fuzz::ScratchDir dir;
  return dir;
}

// The config the corpus's costs are of (corpus/costs/gen_*.json name its runs): two data
// groups of two points each, two CPU steps.
const ladder::Config& config() {
  static const ladder::Config c = ladder::parse_config(
      nlohmann::json::parse(R"({"name": "fuzz", "study": "twed",
        "data": {"generator": "random_walk", "seed": 1, "series": 3},
        "axes": {"n": [8, 16], "mode": ["batch", "triangle"]},
        "variants": ["twed/seq_full", "twed/openmp"]})"),
      "/nonexistent-base");
  return c;
}

bool is_seconds(double s) { return std::isfinite(s) && s >= 0; }

void weigh(const ladder::MeasuredCosts& costs) {
  const std::vector<ladder::PlanToSplit> plans{{&config(), ladder::plan_runs(config(), "")}};
  const std::vector<ladder::PlannedRun>& runs = plans.front().runs;
  for (const ladder::PlannedRun& r : runs) {
    const double s = costs.seconds(config().name, r.variant->id(), config().points[r.point].key());
    if (s != -1 && !is_seconds(s)) broken_promise("MeasuredCosts", "a run's seconds neither known nor -1");
  }
  const std::vector<std::vector<double>> expected = ladder::run_costs(plans, costs);
  double total = 0;
  for (double s : expected.at(0)) {
    if (!is_seconds(s)) broken_promise("run_costs", "a run expected to take " + std::to_string(s) + " s");
    total += s;
  }
  if (expected.at(0).size() != runs.size()) broken_promise("run_costs", "not one cost per run");
  if (!is_seconds(total)) broken_promise("run_costs", "runs whose expected seconds sum to " + std::to_string(total));
  const ladder::ShardInfo first = ladder::split_plans(plans, 0, kShards, costs).at(0);
  const ladder::ShardInfo last = ladder::split_plans(plans, kShards - 1, kShards, costs).at(0);
  if (first.owners != last.owners || first.plan_hash != last.plan_hash)
    broken_promise("split_plans", "two shards of one plan computed different splits");
  if (first.owners.size() != runs.size()) broken_promise("split_plans", "not one owner per run");
  for (std::size_t o : first.owners)
    if (o >= kShards) broken_promise("split_plans", "an owner beyond the shards");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::vector<std::string> files =
      ladder::fuzz::input_files(ladder::fuzz::input_text(data, size), kMaxFiles);
  const fs::path dir = scratch().fresh("costs");
  for (std::size_t i = 0; i < files.size(); ++i)
    ladder::fuzz::write_bytes(dir / ("r" + std::to_string(i) + ".json"), files[i]);
  const fs::path given = files.size() == 1 ? dir / "r0.json" : dir;
  try {
    weigh(ladder::MeasuredCosts::read(given.string()));
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("MeasuredCosts::read", e);
  }
  return 0;
}
