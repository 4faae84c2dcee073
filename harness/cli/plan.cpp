// `ladder plan CONFIG`: the runs `ladder run` would execute, in its order, without running or
// creating anything. The list is the runner's own (harness/plan.hpp), so a dry run cannot
// differ from the run: run_index, study, variant, sweep, point, every parameter with its
// default filled in, the data group, validation, repetitions and warm-up.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <set>

#include "../../datagen/base/printable.hpp"
#include "../plan.hpp"
#include "advise.hpp"
#include "commands.hpp"
#include "shards.hpp"

namespace ladder::cli {
namespace {

using json = nlohmann::json;

constexpr const char* kPlanAbout =
    "Lists the runs `ladder run` would execute with the same options, in its order, without\n"
    "running or writing anything: run_index (as results record it), variant, sweep, point, the\n"
    "data group (runs that share one generated or read data set and its reference), validation,\n"
    "repetitions (\"5 in 2s\": at most 5, as many as fit in the config's time budget) and\n"
    "warm-up. --json prints them with every parameter, defaults filled in (time_budget_s: 0 for\n"
    "none), and the config's points (what a peer runs: `ladder gen --config`, `ladder ingest`).\n"
    "--advise RESULTS.json reads a K-process results file (`ladder run CONFIG --processes K`)\n"
    "instead: per timed run, its processes, median, the sd of log times within and between\n"
    "processes and of a process's median, the ICC, Kalibera & Jones's samples a process\n"
    "(ceil(sqrt(c * within^2 / between^2)), c = a process's cost over a sample's: --cost-ratio,\n"
    "default 200) and the processes a side for a Welch test of process medians to detect 5% and\n"
    "10% with 80% power at alpha 0.05; --markdown prints a Markdown table, --json JSON.\n";

json data_json(const DataSource& d) {
  return d.file.empty() ? json{{"generator", d.generator}} : json{{"file", d.file}};
}

json params_json(const Params& p) {
  json out = json::object();
  for (const auto& [k, v] : p.items()) out[k] = v;
  return out;
}

json per_backend(const PerBackend& n) { return {{"cpu", n.cpu}, {"gpu", n.gpu}}; }

// Every point of the config, in its order, as a peer needs it: the index a handover names
// (`ladder ingest`), the parameters a peer's run records (the study's defaults filled in), the
// data (`ladder gen --config CONFIG --point K` writes it; consecutive points of one data group
// share it), validation and counts per backend. --filter selects runs, not points.
json points_json(const Config& c, const std::optional<Validation>& validation) {
  json points = json::array();
  std::size_t group = 0;
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const Point& pt = c.points[i];
    if (i > 0 && data_source_key(*c.study, pt) != data_source_key(*c.study, c.points[i - 1])) ++group;
    points.push_back({{"point", i}, {"sweep", pt.sweep}, {"key", pt.key()},
                      {"params", params_json(resolve(*c.study, nullptr, pt.params, pt.data.file.empty()))},
                      {"data", data_json(pt.data)}, {"data_group", group},
                      {"validation", validation.value_or(pt.validation.value_or(c.validation)).text()},
                      {"repetitions", per_backend(pt.repetitions.value_or(c.repetitions))},
                      {"warmup", per_backend(pt.warmup.value_or(c.warmup))},
                      {"time_budget_s", pt.time_budget_s.value_or(c.time_budget_s)}});
  }
  return points;
}

json plan_json(const Config& c, const std::vector<PlannedRun>& plan,
               const std::optional<Validation>& validation) {
  json runs = json::array();
  for (const PlannedRun& r : plan) {
    const Point& pt = c.points[r.point];
    const json params = params_json(r.params);
    runs.push_back({{"run_index", r.index}, {"study", r.variant->study},
                    {"variant", r.variant->name}, {"step", r.variant->step},
                    {"backend", to_string(r.variant->backend)}, {"sweep", pt.sweep},
                    {"point", pt.params.key()}, {"params", params},
                    {"data_group", r.data_group}, {"data", data_json(pt.data)},
                    {"validation", r.validation.text()}, {"repetitions", r.repetitions},
                    {"warmup", r.warmup}, {"time_budget_s", r.time_budget_s}});
  }
  return {{"config", c.name}, {"study", c.study->name()}, {"scale", c.scale},
          {"runs_planned", plan.size()}, {"runs", runs}, {"points", points_json(c, validation)}};
}

void print_plan(const Config& c, const std::vector<PlannedRun>& plan) {
  std::vector<std::vector<std::string>> rows;
  for (const PlannedRun& r : plan) {
    const Point& pt = c.points[r.point];
    // With a time budget the count is an upper bound: "5 in 2s".
    const std::string reps = std::to_string(r.repetitions) +
                             (r.time_budget_s > 0 ? fmt::format(" in {:g}s", r.time_budget_s) : "");
    rows.push_back({std::to_string(r.index), r.variant->id(), pt.sweep, pt.params.key(),
                    std::to_string(r.data_group), r.validation.text(), reps,
                    std::to_string(r.warmup)});
  }
  std::set<std::size_t> distinct;  // a shard's groups are not numbered from 0
  for (const PlannedRun& r : plan) distinct.insert(r.data_group);
  const std::size_t groups = distinct.size();
  fmt::print("{}: {} runs over {} data set{}{}\n", printable_all(c.name.empty() ? c.path : c.name), plan.size(),
             groups, groups == 1 ? "" : "s", c.scale.empty() ? "" : " at the " + c.scale + " scale");
  print_table({"run", "variant", "sweep", "point", "data", "validation", "reps", "warmup"}, rows,
              {true, false, false, false, true, false, true, true});
}

}  // namespace

const Command plan_command{
    .name = "plan",
    .summary = "the runs `run` would execute, in its order, without running them",
    .positionals = {"CONFIG"},
    .forms = {"ladder plan CONFIG [--scale paper|quick] [--filter RE] [--validate full|sample:N|off] [--repetitions N] "
              "[--warmup N] [--timing hot|cold] [--shard K/N] [--costs FILE|DIR] [--json]",
              "ladder plan --advise RESULTS.json [--cost-ratio X] [--markdown | --json]"},
    .options = {shared_option("scale"), shared_option("filter"), shared_option("validate"),
                shared_option("repetitions"), shared_option("warmup"), shared_option("timing"),
                shard_option("shard"), shard_option("costs"),
                {"json", "", "the runs with every parameter, and the config's points, as JSON"},
                {"advise", "RESULTS.json", "samples a process and processes a side a K-process results file calls for"},
                {"cost-ratio", "X", "--advise: a process's cost over a sample's (default 200)"},
                {"markdown", "", "--advise: a Markdown table"}},
    .about = kPlanAbout,
    .body = plan,
};

int plan(const Parsed& p) {
  if (p.has("advise")) return plan_advise(p);
  for (const char* o : {"cost-ratio", "markdown"})
    if (p.has(o)) throw InputError(std::string("--") + o + " goes with --advise RESULTS.json");
  if (p.positional.size() != 1) throw InputError("plan needs exactly one CONFIG file");
  const Config config = config_from_options(p);
  std::optional<Validation> validation;
  if (p.has("validate")) validation = parse_validation(p.get("validate"));
  std::vector<PlannedRun> plan = plan_runs(config, p.get("filter"), validation);
  if (!p.has("shard")) {
    if (p.has("costs")) throw InputError("--costs balances shards: give it with --shard");
    // ASCII only (\uXXXX escapes): names with bidirectional or C1 controls reach no terminal raw.
    if (p.has("json")) fmt::print("{}\n", plan_json(config, plan, validation).dump(2, ' ', true));
    else print_plan(config, plan);
    return 0;
  }
  // The shard's runs, as `run --shard` executes them, and the split they come from.
  const ShardInfo want = parse_shard(p.get("shard"));
  const MeasuredCosts costs = costs_option(p);
  const ShardInfo s = split_plans({{&config, plan}}, want.index, want.count, costs)[0];
  const std::vector<double> cost = run_costs({{&config, plan}}, costs)[0];
  double mine = 0, all = 0;
  for (std::size_t i = 0; i < plan.size(); ++i) all += cost[i], mine += s.owns(i) ? cost[i] : 0;
  std::erase_if(plan, [&](const PlannedRun& r) { return !s.owns(r.index); });
  if (p.has("json")) {
    json j = plan_json(config, plan, validation);
    for (json& run : j["runs"]) run["expected_s"] = cost[run["run_index"].get<std::size_t>()];
    j["shard"] = {{"index", s.index}, {"count", s.count}, {"plan_hash", s.plan_hash},
                  {"owners", s.owners}, {"expected_s", mine}, {"expected_total_s", all}};
    fmt::print("{}\n", j.dump(2, ' ', true));
    return 0;
  }
  fmt::print("shard {}/{}: {} of {} runs, expected {:.3g} s of {:.3g} s ({})\n", s.index, s.count, plan.size(),
             s.owners.size(), mine, all, p.has("costs") ? "measured costs" : "the plan's estimate");
  if (!plan.empty()) print_plan(config, plan);
  return 0;
}

}  // namespace ladder::cli
