// `ladder plan CONFIG`: the runs `ladder run` would execute, in its order, without running or
// creating anything. The list is the runner's own (harness/plan.hpp), so a dry run cannot
// differ from the run: run_index, study, variant, sweep, point, every parameter with its
// default filled in, the data group, validation, repetitions and warm-up.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "../plan.hpp"
#include "commands.hpp"

namespace ladder::cli {
namespace {

using json = nlohmann::json;

constexpr const char* kPlanHelp =
    "usage: ladder plan CONFIG [--scale paper|quick] [--filter RE] [--validate full|sample:N|off]\n"
    "                   [--repetitions N] [--warmup N] [--timing hot|cold] [--json]\n"
    "Lists the runs `ladder run` would execute with the same options, in its order, without\n"
    "running or writing anything: run_index (as results record it), variant, sweep, point, the\n"
    "data group (runs that share one generated or read data set and its reference), validation,\n"
    "repetitions and warm-up. --json prints them with every parameter, defaults filled in.\n";

json data_json(const DataSource& d) {
  return d.file.empty() ? json{{"generator", d.generator}} : json{{"file", d.file}};
}

json plan_json(const Config& c, const std::vector<PlannedRun>& plan) {
  json runs = json::array();
  for (const PlannedRun& r : plan) {
    const Point& pt = c.points[r.point];
    json params = json::object();
    for (const auto& [k, v] : r.params.items()) params[k] = v;
    runs.push_back({{"run_index", r.index}, {"study", r.variant->study},
                    {"variant", r.variant->name}, {"step", r.variant->step},
                    {"backend", to_string(r.variant->backend)}, {"sweep", pt.sweep},
                    {"point", pt.params.key()}, {"params", params},
                    {"data_group", r.data_group}, {"data", data_json(pt.data)},
                    {"validation", r.validation.text()}, {"repetitions", r.repetitions},
                    {"warmup", r.warmup}});
  }
  return {{"config", c.name}, {"study", c.study->name()}, {"scale", c.scale},
          {"runs_planned", plan.size()}, {"runs", runs}};
}

void print_plan(const Config& c, const std::vector<PlannedRun>& plan) {
  std::vector<std::vector<std::string>> rows;
  for (const PlannedRun& r : plan) {
    const Point& pt = c.points[r.point];
    rows.push_back({std::to_string(r.index), r.variant->id(), pt.sweep, pt.params.key(),
                    std::to_string(r.data_group), r.validation.text(),
                    std::to_string(r.repetitions), std::to_string(r.warmup)});
  }
  const std::size_t groups = plan.empty() ? 0 : plan.back().data_group + 1;
  fmt::print("{}: {} runs over {} data set{}{}\n", c.name.empty() ? c.path : c.name, plan.size(),
             groups, groups == 1 ? "" : "s", c.scale.empty() ? "" : " at the " + c.scale + " scale");
  print_table({"run", "variant", "sweep", "point", "data", "validation", "reps", "warmup"}, rows,
              {true, false, false, false, true, false, true, true});
}

}  // namespace

int plan(const Args& args) {
  Parsed p = parse_args(args, {"scale", "filter", "validate", "repetitions", "warmup", "timing"},
                        {"json", "help"});
  if (p.has("help")) {
    fmt::print("{}", kPlanHelp);
    return 0;
  }
  if (p.positional.size() != 1) throw InputError("plan needs exactly one CONFIG file");
  const Config config = config_from_options(p);
  std::optional<Validation> validation;
  if (p.has("validate")) validation = parse_validation(p.get("validate"));
  const std::vector<PlannedRun> plan = plan_runs(config, p.get("filter"), validation);
  if (p.has("json"))
    fmt::print("{}\n", plan_json(config, plan).dump(2));
  else
    print_plan(config, plan);
  return 0;
}

}  // namespace ladder::cli
