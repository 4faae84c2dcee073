#include "shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numeric>
#include <set>

#include "../datagen/base/errors.hpp"
#include "../datagen/base/printable.hpp"
#include "../datagen/numbers.hpp"
#include "results.hpp"
#include "reuse.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// A plan's runs as costs name them: config, variant and point identify a run across commits,
// where run_index may not.
std::string run_key(const std::string& config, const std::string& variant_id, const std::string& point) {
  return config + "\n" + variant_id + "\n" + point;
}

// The name results give their config (a config without one is named after its study); ""
// when it has none.
std::string config_name(const json& config) {
  if (!config.is_object()) return "";
  const json name = config.contains("name") ? config["name"] : config.value("study", json(""));
  return name.is_string() ? name.get<std::string>() : "";
}

bool is_count(const json& v) { return v.is_number_unsigned(); }

// What the plan expects a run to cost, in seconds, from the point's size alone (no data is
// built): outputs x inner units of sequential work at about 1 ns a unit, divided by what each
// kind of step gains, times its repetitions; the first run of a data group also builds the
// data (about 2 ns a byte) and the reference values it is checked against. Rough by design:
// it only has to rank groups; `--costs` replaces it with measured times.
struct Estimate {
  double work_s = 0, data_s = 0, reference_s = 0;
};

Estimate point_estimate(const Config& c, const PlannedRun& r) {
  const Point& pt = c.points[r.point];
  Footprint f;
  try {
    f = c.study->footprint(pt.data, resolve(*c.study, nullptr, pt.params, pt.data.file.empty()), nullptr);
  } catch (const std::exception&) {
    f = {};  // a point whose size cannot be told costs as little as any: it still runs
  }
  const double outputs = std::max(1.0, f.outputs), work = outputs * std::max(1.0, f.inner) * 1e-9;
  double checked = 0;
  if (r.validation.mode == Validation::Mode::full) checked = 1;
  if (r.validation.mode == Validation::Mode::sample) checked = std::min(1.0, double(r.validation.sample) / outputs);
  return {work, f.inputs * 2e-9, work * checked};
}

double run_estimate(const PlannedRun& r, const Estimate& e) {
  // A sequential baseline runs at the estimate's pace, a CPU step on a node's cores some ten
  // times faster, a GPU step a thousand times, plus its set-up.
  const VariantSpec& v = *r.variant;
  const double speedup = v.backend == Backend::gpu ? 1000 : v.role == Role::baseline ? 1 : 10;
  const double call = e.work_s / speedup;
  double calls = r.repetitions + r.warmup;
  // A budget stops the calls once they would pass it (the first call always runs).
  if (r.time_budget_s > 0) calls = std::min(calls, std::max(1.0, r.time_budget_s / call));
  return calls * call + (v.backend == Backend::gpu ? 0.05 : 0);
}

// Each run's estimated seconds, its data group's set-up charged to the group's first run.
std::vector<double> estimated_runs(const PlanToSplit& p) {
  std::vector<double> out;
  for (std::size_t i = 0; i < p.runs.size(); ++i) {
    const PlannedRun& r = p.runs[i];
    const Estimate e = point_estimate(*p.config, r);
    const bool first = i == 0 || p.runs[i - 1].data_group != r.data_group;
    out.push_back(run_estimate(r, e) + (first ? e.data_s + e.reference_s : 0));
  }
  return out;
}

// The plan as every shard computes it (config, runs with their settings) and its split.
std::string plan_hash(const PlanToSplit& p, const std::vector<std::size_t>& owners, std::size_t count) {
  std::string text = p.config->resolved.dump() + "\n" + std::to_string(count) + "\n";
  for (std::size_t i = 0; i < p.runs.size(); ++i) {
    const PlannedRun& r = p.runs[i];
    text += fmt::format("{} {} {} {} {} {} {} {}\n", r.index, r.variant->id(), p.config->points[r.point].key(),
                        r.data_group, r.validation.text(), r.repetitions, r.warmup, owners[i]);
  }
  return stable_hash(text);
}

// Each run of a shard is its own (an index below runs_total that owners gives this shard, once)
// and the summary counts their statuses.
void check_shard_runs(const ShardFile& f, const std::string& shard) {
  std::vector<bool> seen(f.runs_total, false);
  const json& runs = f.results["runs"];
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const json i = runs[k].value("run_index", json());
    if (!is_count(i)) throw InputError(fmt::format("{}runs[{}] has no run_index", shard, k));
    const std::size_t r = i;
    if (r >= f.runs_total)
      throw InputError(fmt::format("{}runs[{}] has run_index {}, and the plan has {} runs (runs_total)", shard, k,
                                   r, f.runs_total));
    if (f.owners[r] != f.index)
      throw InputError(fmt::format("{}it holds run {}, which its owners give to shard {}, not to shard {}", shard,
                                   r, f.owners[r], f.index));
    if (seen[r]) throw InputError(fmt::format("{}it holds run {} twice", shard, r));
    seen[r] = true;
  }
  if (std::string why = summary_problem(f.results); !why.empty()) throw InputError(shard + why);
}

// A shard of `reproduce` names every paper experiment of the reproduction, each once.
void check_reproduction(const json& names, const std::string& shard) {
  if (names.is_null()) return;
  if (!names.is_array()) throw InputError(shard + "its shard.reproduction is not a list of names");
  std::set<std::string> seen;
  for (const json& n : names) {
    if (!n.is_string()) throw InputError(shard + "its shard.reproduction is not a list of names");
    if (!seen.insert(n.get<std::string>()).second)
      throw InputError(shard + "its shard.reproduction names '" + printable(n.get<std::string>(), 80) + "' twice");
  }
}

// One data group of one plan: the unit shards get.
struct Unit {
  std::size_t plan = 0, first = 0, end = 0;  // runs [first, end) of plans[plan]
  double cost = 0;
};

}  // namespace

ShardInfo parse_shard(const std::string& text, const std::string& option) {
  const std::string shown = option + " '" + printable(text, 40) + "'";
  const auto slash = text.find('/');
  if (slash == std::string::npos)
    throw InputError(shown + " is not K/N (shard K of N, K from 0 to N-1)");
  std::int64_t k = 0, n = 0;
  try {
    k = parse_int64(text.substr(0, slash), option + " K");
    n = parse_int64(text.substr(slash + 1), option + " N");
  } catch (const InputError&) {
    throw InputError(shown + " is not K/N with whole numbers K and N (shard K of N, K from 0 to N-1)");
  }
  if (n < 1 || n > std::int64_t(kMaxShards))
    throw InputError(shown + ": N must be 1 to " + std::to_string(kMaxShards) + " shards");
  if (k < 0 || k >= n)
    throw InputError(shown + ": K must be 0 to " + std::to_string(n - 1) + " (shards are numbered from 0)");
  ShardInfo s;
  s.index = std::size_t(k);
  s.count = std::size_t(n);
  return s;
}

ShardFile check_shard(json results, const std::string& shown) {
  ShardFile f;
  f.results = std::move(results);
  const json s = f.results.value("shard", json());
  if (!s.is_object()) throw InputError(shown + " is not a shard's results (written by --shard K/N or --gpus)");
  const std::string shard = "shard " + shown + ": ";
  for (const char* key : {"index", "count", "runs_total"})
    if (!is_count(s.value(key, json()))) throw InputError(shard + "its shard." + key + " is not a count");
  if (!s.value("plan_hash", json()).is_string()) throw InputError(shard + "its shard.plan_hash is not text");
  if (!s.value("owners", json()).is_array()) throw InputError(shard + "its shard.owners is not a list");
  f.index = s["index"], f.count = s["count"], f.runs_total = s["runs_total"];
  f.plan_hash = s["plan_hash"];
  // Merge walks the shards of the count: a count no split can have is refused before.
  if (f.count == 0 || f.count > kMaxShards)
    throw InputError(shard + "its shard.count " + std::to_string(f.count) + " is not 1 to " +
                     std::to_string(kMaxShards) + " shards");
  if (f.index >= f.count)
    throw InputError(fmt::format("{}its shard.index {} is not below its count {}", shard, f.index, f.count));
  if (s["owners"].size() != f.runs_total)
    throw InputError(fmt::format("{}its shard.owners names {} runs' shards, and runs_total is {}", shard,
                                 s["owners"].size(), f.runs_total));
  for (const json& o : s["owners"]) {
    if (!is_count(o) || o.get<std::size_t>() >= f.count)
      throw InputError(fmt::format("{}shard.owners[{}] is not a shard from 0 to {}", shard, f.owners.size(),
                                   f.count - 1));
    f.owners.push_back(o);
  }
  check_shard_runs(f, shard);
  f.reproduction = s.value("reproduction", json());
  check_reproduction(f.reproduction, shard);
  f.config = config_name(f.results.value("config", json()));
  if (f.config.empty()) throw InputError(shard + "its config has no name");
  return f;
}

namespace {

// A time a costs file records: a finite number from 0 to `most`.
bool in_range(const json& v, double most) {
  return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() >= 0 && v.get<double>() <= most;
}

[[noreturn]] void bad_cost(const json& v, double most, const char* unit, const std::string& what) {
  throw InputError(fmt::format("{} is {}, not a number of {} from 0 to {:.0f}", what, printable(v.dump(), 40),
                               unit, most));
}

double cost_value(const json& v, double most, const char* unit, const std::string& what) {
  if (!in_range(v, most)) bad_cost(v, most, unit, what);
  return v.get<double>();
}

// A run's seconds from its timing, for files written before runs recorded wall_s: its
// samples and warm-up calls (at the median's pace), each checked.
double timed_seconds(const json& t, const std::string& run) {
  const double most_ms = MeasuredCosts::kMaxRunSeconds * 1e3;
  const double median = cost_value(t["median"], most_ms, "ms", run + ".timing.median");
  double ms = 0;
  if (t.contains("samples")) {
    const json& samples = t["samples"];
    if (!samples.is_array()) throw InputError(run + ".timing.samples is not a list");
    for (std::size_t i = 0; i < samples.size(); ++i) {
      if (!in_range(samples[i], most_ms))
        bad_cost(samples[i], most_ms, "ms", fmt::format("{}.timing.samples[{}]", run, i));
      ms += samples[i].get<double>();
    }
  }
  const json warmup = t.contains("warmup") ? t["warmup"] : json(std::size_t{0});
  if (!is_count(warmup) || warmup.get<std::size_t>() > 1000000)
    throw InputError(run + ".timing.warmup is " + printable(warmup.dump(), 40) + ", not a count of calls");
  ms += double(warmup.get<std::size_t>()) * median;
  return cost_value(json(ms / 1e3), MeasuredCosts::kMaxRunSeconds, "seconds", run + "'s timed calls");
}

}  // namespace

void MeasuredCosts::add(const json& r, const std::string& shown) {
  if (r.contains("peer")) return;  // a peer's runs are not ladder's to weigh
  const std::string config = config_name(r.value("config", json::object()));
  const json& runs = r["runs"];
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const json& run = runs[i];
    const std::string where = fmt::format("--costs {}: runs[{}]", shown, i);
    double s = -1;
    if (run.contains("wall_s")) s = cost_value(run["wall_s"], kMaxRunSeconds, "seconds", where + ".wall_s");
    else if (run.contains("timing") && run["timing"].is_object()) s = timed_seconds(run["timing"], where);
    if (s < 0) continue;  // an untimed run (unsupported, skipped) took no time to weigh
    seconds_[run_key(config, run["study"].get<std::string>() + "/" + run["variant"].get<std::string>(),
                     run["point"].get<std::string>())] = s;
  }
}

MeasuredCosts MeasuredCosts::read(const std::string& path) {
  MeasuredCosts costs;
  std::error_code ec;
  std::vector<fs::path> files;
  if (fs::is_directory(path, ec)) {
    for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".json" && it->path().filename() != "reproduction.json")
        files.push_back(it->path());
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  for (const fs::path& f : files) costs.add(read_results(f.string()), "'" + printable(f.string(), 120) + "'");
  if (costs.empty())
    throw InputError("--costs '" + printable(path, 120) + "' holds no timed run of ladder's");
  return costs;
}

double MeasuredCosts::seconds(const std::string& config, const std::string& variant_id,
                              const std::string& point) const {
  const auto it = seconds_.find(run_key(config, variant_id, point));
  return it == seconds_.end() ? -1 : it->second;
}

std::vector<std::vector<double>> run_costs(const std::vector<PlanToSplit>& plans, const MeasuredCosts& measured) {
  // Estimates are put on the measured runs' scale, so that a run the costs do not know (a new
  // step, another scale) weighs what its peers measured would suggest.
  std::vector<std::vector<double>> estimate, known(plans.size());
  double measured_sum = 0, estimate_sum = 0;
  for (std::size_t p = 0; p < plans.size(); ++p) {
    estimate.push_back(estimated_runs(plans[p]));
    for (std::size_t i = 0; i < plans[p].runs.size(); ++i) {
      const PlannedRun& r = plans[p].runs[i];
      const double s = measured.seconds(plans[p].config->name, r.variant->id(), plans[p].config->points[r.point].key());
      known[p].push_back(s);
      if (s >= 0) measured_sum += s, estimate_sum += estimate[p][i];
    }
  }
  const double scale = measured_sum > 0 && estimate_sum > 0 ? measured_sum / estimate_sum : 1;
  for (std::size_t p = 0; p < plans.size(); ++p)
    for (std::size_t i = 0; i < known[p].size(); ++i)
      if (known[p][i] < 0) known[p][i] = estimate[p][i] * scale;
  return known;
}

std::vector<ShardInfo> split_plans(const std::vector<PlanToSplit>& plans, std::size_t index,
                                   std::size_t count, const MeasuredCosts& measured) {
  const std::vector<std::vector<double>> costs = run_costs(plans, measured);
  std::vector<Unit> units;
  for (std::size_t p = 0; p < plans.size(); ++p)
    for (std::size_t i = 0; i < plans[p].runs.size(); ++i) {
      if (i == 0 || plans[p].runs[i - 1].data_group != plans[p].runs[i].data_group)
        units.push_back({p, i, i, 0});
      units.back().end = i + 1;
      units.back().cost += costs[p][i];
    }
  // Largest first, each to the least loaded shard (the lowest index among equals); the sort is
  // stable, so equal costs keep the plans' order and every shard computes the same split.
  std::vector<std::size_t> order(units.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return units[a].cost > units[b].cost; });
  std::vector<double> load(count, 0);
  std::vector<ShardInfo> out(plans.size());
  for (std::size_t p = 0; p < plans.size(); ++p) out[p].owners.assign(plans[p].runs.size(), 0);
  for (std::size_t u : order) {
    const std::size_t shard = std::min_element(load.begin(), load.end()) - load.begin();
    load[shard] += units[u].cost;
    for (std::size_t i = units[u].first; i < units[u].end; ++i) out[units[u].plan].owners[i] = shard;
  }
  for (std::size_t p = 0; p < plans.size(); ++p) {
    out[p].index = index;
    out[p].count = count;
    out[p].plan_hash = plan_hash(plans[p], out[p].owners, count);
  }
  return out;
}

}  // namespace ladder
