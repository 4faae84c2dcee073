#include "commands.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <nlohmann/json.hpp>

#include "../../datagen/base/printable.hpp"
#include "../hardware.hpp"
#include "../../datagen/base/progress.hpp"
#include "../../datagen/numbers.hpp"
#include "../config.hpp"
#include "../memory.hpp"
#include "../process_facts.hpp"
#include "../results.hpp"
#include "../runner.hpp"
#include "../tally.hpp"
#include "../../datagen/json_file.hpp"
#include "args.hpp"
#include "merge.hpp"
#include "out_path.hpp"
#include "process_child.hpp"
#include "shards.hpp"
#include "summary.hpp"

namespace ladder::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

// Columns as wide as their longest cell, so long ids never push the others out of line;
// columns named in `right` are right-aligned (numbers). Cells hold names from configs,
// handovers and results files: every one is escaped (printable_all) before it is measured.
void print_table(const std::vector<std::string>& head, const std::vector<std::vector<std::string>>& raw_rows,
                 const std::vector<bool>& right) {
  std::vector<std::vector<std::string>> rows = raw_rows;
  for (auto& r : rows)
    for (auto& cell : r) cell = printable_all(cell);
  std::vector<std::size_t> width(head.size());
  for (std::size_t c = 0; c < head.size(); ++c) {
    width[c] = display_width(head[c]);
    for (const auto& r : rows) width[c] = std::max(width[c], display_width(r[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(width[c] - display_width(cells[c]), ' ');
      out += (c ? "  " : "") + (right[c] ? pad + cells[c] : cells[c] + (c + 1 < cells.size() ? pad : ""));
    }
    fmt::print("{}\n", out);
  };
  line(head);
  for (const auto& r : rows) line(r);
}

namespace {

json param_json(const ParamSpec& s) {
  static const char* kinds[] = {"integer", "real", "text", "path"};
  json j = {{"name", s.name}, {"default", s.default_value}, {"help", s.help},
            {"kind", kinds[static_cast<int>(s.kind)]}};
  if (s.kind == ParamSpec::Kind::integer || s.kind == ParamSpec::Kind::real)
    j["range"] = {s.min, s.max};
  if (!s.choices.empty()) j["choices"] = s.choices;
  j["generator"] = s.generated_only;  // a generator's parameter, refused beside a data file
  return j;
}

// Whole numbers in full (a range's 16777216), others and the very large as %g.
std::string number_text(double x) {
  return x == std::floor(x) && std::fabs(x) < 1e15 ? fmt::format("{:.0f}", x) : fmt::format("{:g}", x);
}

// "n (1..16777216)", "seed=42 (0..9.2e+18)", "mode=pair (pair|batch|triangle)": a parameter
// as plain `list` shows it, with its default and what it accepts.
std::string param_text(const json& q) {
  std::string out = q["name"].get<std::string>();
  if (const std::string d = q["default"].get<std::string>(); !d.empty()) out += "=" + d;
  std::string accepts;
  if (q.contains("choices"))
    for (const json& c : q["choices"]) accepts += (accepts.empty() ? "" : "|") + c.get<std::string>();
  else if (q.contains("range"))
    accepts = number_text(q["range"][0].get<double>()) + ".." + number_text(q["range"][1].get<double>());
  return accepts.empty() ? out : out + " (" + accepts + ")";
}

// The figures a config of the study may name: `ladder`, then its paper's.
std::vector<std::string> figures_of(const Study& s) {
  std::vector<std::string> f = s.figures();
  f.insert(f.begin(), "ladder");
  return f;
}

json catalogue() {
  json studies = json::array();
  for (const auto& s : registry().studies()) {
    json vs = json::array(), ds = json::array();
    for (const auto& p : s->data_params()) ds.push_back(param_json(p));
    for (const VariantSpec* v : registry().variants(s->name())) {
      json ps = json::array(), needs = json::array();
      for (const auto& p : v->params) ps.push_back(param_json(p));
      for (Feature f : v->needs) needs.push_back(to_string(f));
      vs.push_back({{"id", v->id()}, {"step", v->step}, {"label", v->label},
                    {"role", to_string(v->role)}, {"backend", to_string(v->backend)},
                    {"precision", to_string(v->precision)}, {"change", v->change},
                    {"params", ps}, {"needs", needs}});
    }
    studies.push_back({{"name", s->name()}, {"summary", s->summary()},
                       {"generators", s->generators()}, {"figures", figures_of(*s)},
                       {"data_params", ds}, {"variants", vs}});
  }
  return {{"studies", studies}};
}

}  // namespace

std::string default_out(const Config& c, const ShardInfo& shard) {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", std::gmtime(&t));
  // The shards of a Slurm array start in the same second: their names differ by the shard.
  const std::string part = shard.active() ? fmt::format(".shard-{}-of-{}", shard.index, shard.count) : "";
  return "results/" + safe_name(c.name) + "-" + buf + part + ".json";
}

void print_summary(const RunReport& rep) {
  std::vector<SummaryRow> rows;
  std::vector<std::string> failures, notes;
  for (const auto& r : rep.runs) {
    SummaryRow row{r.variant->id(), std::to_string(r.variant->step), r.point, to_string(r.status)};
    if (!r.samples_ms.empty()) {
      const double m = median_of(r.samples_ms);
      row.median_ms = m;
      row.spread_pct = half_range_pct(r.samples_ms);
      if (const double v = r.work.rate(m); v > 0) {
        row.throughput = fmt::format("{:.4g} {}", v, r.work.unit);
        if (r.work.peak > 0)
          row.pct_of_peak = fmt::format("{:.1f}{}", 100 * v / r.work.peak,
                                        r.work.binds == "memory" ? " mem" : "");
        else if (!r.work.peak_reason.empty()) row.pct_of_peak = "?";
      }
    }
    if (!r.emulated.empty()) row.status += " (emulated)";
    rows.push_back(row);
    for (const std::string& note : {r.emulated, r.work.peak_reason})
      if (!note.empty() && std::find(notes.begin(), notes.end(), note) == notes.end())
        notes.push_back(note);
    if (r.status == Status::incorrect || r.status == Status::error)
      failures.push_back(r.variant->id() + " " + r.point + ": " + r.reason);
  }
  // Each skipped GPU run says "no CUDA device"; what the runtime said about it, once.
  if (!rep.device.runtime_said.empty() &&
      std::any_of(rep.runs.begin(), rep.runs.end(), [&](const RunRecord& r) {
        return r.status == Status::skipped && r.reason == rep.device.absent_reason;
      }))
    notes.push_back("GPU steps skipped: " + absence(rep.device));
  print_run_table(rows, failures, notes,
                  "half the range of the run's samples in this one process (`--processes K` "
                  "measures the spread between processes)");
}

void print_tally(const json& results) {
  Tally tally;
  tally.add_runs(results);
  fmt::print("\nruns: {}\n", tally.text());
}

int integer_option(const Parsed& p, const std::string& name, int lo) {
  ParamSpec spec{"--" + name, "", "", ParamSpec::Kind::integer, double(lo), 100000};
  check_param(spec, p.get(name));
  return std::stoi(p.get(name));
}

OptionSpec shared_option(const std::string& name) {
  static const std::vector<OptionSpec> shared = {
      {"scale", "paper|quick", "the config as its \"reproduce\" block sets it at that scale"},
      {"filter", "RE", "only the variants in whose study/variant RE is found"},
      {"validate", "full|sample:N|off", "check every output, N sampled ones, or none (default: config's)"},
      {"repetitions", "N", "timed samples per run (default: the config's)"},
      {"warmup", "N", "untimed runs before the samples (default: the config's)"},
      {"timing", "hot|cold", "hot: L2 as the last sample left it; cold: flushed before each"},
      {"device", "N", "the CUDA device to use (default 0)"},
      {"quiet", "", "no progress lines"},
      {"runs", "LIST", "only these runs, by run_index as `ladder plan` numbers them with the same --filter (3,7-9)"},
  };
  const auto it = std::find_if(shared.begin(), shared.end(), [&](const OptionSpec& o) { return o.name == name; });
  if (it == shared.end()) throw std::logic_error("no shared option --" + name);
  return *it;
}

const Command list_command{
    .name = "list",
    .summary = "the studies, their data parameters, variants and steps",
    .options = {{"json", "", "the same as JSON, with each parameter's kind, range and choices"}},
    .about = "Lists every study, its data parameters and its variants (step, role, backend, precision,\n"
             "what changed, parameters with their defaults; --json adds the architecture features\n"
             "a step needs: dpx, emulated before compute capability 9.0; wgmma_tma, 9.0 only).\n",
    .body = list,
};

const Command run_command{
    .name = "run",
    .summary = "run, validate and time a config's steps; write a results file",
    .positionals = {"CONFIG"},
    .options = {{"out", "FILE", "the results file (default results/<name>-<UTC time>.json)"},
                shared_option("filter"), shared_option("validate"),
                {"dump-outputs", "DIR", "each run's raw output as DIR/<study>__<variant>__<point>.npy"},
                {"profile", "", "each variant once in an NVTX range (study.variant) for ncu or nsys; untimed"},
                shared_option("device"), shared_option("quiet"), shared_option("repetitions"),
                shared_option("warmup"), shared_option("timing"), shared_option("scale"),
                shared_option("runs"), shard_option("shard"), shard_option("costs"), shard_option("gpus"),
                processes_option("processes"), processes_option("cpus"),
                {"process-samples", "", "GPU runs take 20 samples, or 5 ms of them, up to 100 (the config's count at least; an explicit --repetitions wins)"},
                {"rounds", "R", "each point's GPU samples in R rounds, its steps in a seeded random order each round, a warm-up call before each (default 1, with --processes 5; CPU runs are not split)"},
                {"blocked-start", "", "each GPU sample also taken with the stream held until the step is queued: timing.device_samples, the host's submission left out"},
                {"plant", "RE:FACTOR", "for testing the harness's statistics: steps whose study/variant RE finds take FACTOR (above 1, at most 10) times their warm-up median"}},
    .about = "Runs every point and selected variant of CONFIG, validates each output against the study's\n"
             "sequential reference and writes the results to FILE, rewritten atomically after every\n"
             "run. --shard K/N runs only shard K's data groups (merge the shards with `ladder merge`);\n"
             "--gpus runs one shard per GPU and merges them into FILE (the shards' files and logs are\n"
             "kept in FILE's name with .shards until the merge is complete). --processes K runs K\n"
             "processes of the config one after another (each a sample of the timing contract) and\n"
             "joins them into FILE, each timed run with every process's median and their spread\n"
             "(parts and logs kept in FILE's name with .processes until joined); --cpus pins them.\n"
             "Exit status: 0 every run passed (or was validly unsupported or skipped), 1 a run failed\n"
             "or errored (or a shard or a process is missing), 2 bad input, 3 CUDA error, 4 internal.\n",
    .body = run,
};

namespace {

// After gen's options in its help: each study's generators and data parameters.
std::string gen_studies() {
  std::string out = "Each study's generators and data parameters (PARAM):\n";
  for (const auto& s : registry().studies()) {
    std::string gens, params;
    for (const std::string& g : s->generators()) gens += (gens.empty() ? "" : ", ") + g;
    for (const auto& d : s->data_params()) params += " --" + d.name;
    out += fmt::format("  {}: {}\n    {}\n", s->name(), gens.empty() ? "(none: reads files)" : gens,
                       params.empty() ? "" : params.substr(1));
  }
  return out;
}

}  // namespace

const Command gen_command{
    .name = "gen",
    .summary = "write a generated data set, or a config point's data, to a file",
    .positionals = {"STUDY"},
    .forms = {"ladder gen STUDY [--generator NAME] [--PARAM VALUE ...] --out FILE",
              "ladder gen --config CONFIG --point K [--scale paper|quick] [--json] --out FILE"},
    .options = {{"out", "FILE", "the file to write, in the format the study reads back", true},
                {"generator", "NAME", "which of the study's generators (default its first)"},
                {"config", "CONFIG", "write the data of a point of CONFIG instead of a STUDY's"},
                {"point", "K", "that point, by its index in `ladder plan --json`"},
                shared_option("scale"),
                {"json", "", "with --config: print the file and the data's facts (a run's `data`) as JSON"}},
    .open = {"PARAM", "VALUE", "a data parameter of the study (below; `ladder list` has their ranges)"},
    .about = "Writes a generated data set of STUDY to FILE, in the format the study reads back (its\n"
             "extension chooses where a study reads several). PARAM is any data parameter of the study\n"
             "(`ladder list` shows them with their defaults and ranges). With --config, the data set of\n"
             "the config's point K (`ladder plan --json` lists its points) as `ladder run` builds or reads\n"
             "it: what a peer loads.\n",
    .more_help = gen_studies,
    .body = gen,
};

int list(const Parsed& p) {
  if (!p.positional.empty()) throw InputError("list takes no arguments");
  json cat = catalogue();
  if (p.has("json")) {
    fmt::print("{}\n", cat.dump(2));
    return 0;
  }
  for (const auto& s : cat["studies"]) {
    fmt::print("{}: {}\n", s["name"].get<std::string>(), s["summary"].get<std::string>());
    fmt::print("  data parameters:\n");
    for (const auto& d : s["data_params"])
      fmt::print("    {}{}\n", param_text(d), d["generator"].get<bool>() ? "  [generated data]" : "");
    std::vector<std::vector<std::string>> rows;
    for (const auto& v : s["variants"]) {
      std::string ps;
      for (const auto& q : v["params"]) ps += ", " + param_text(q);
      rows.push_back({"  " + std::to_string(v["step"].get<int>()), v["id"].get<std::string>(),
                      v["role"].get<std::string>(), v["backend"].get<std::string>(),
                      v["precision"].get<std::string>(),
                      v["change"].get<std::string>() + (ps.empty() ? "" : "  [" + ps.substr(2) + "]")});
    }
    print_table({"step", "variant", "role", "backend", "precision", "what changed"}, rows,
                {true, false, false, false, false, false});
  }
  return 0;
}

Config config_from_options(const Parsed& p) {
  const std::string scale = p.has("scale") ? parse_scale(p.get("scale"), "--scale") : "";
  Config config = load_config(p.positional.at(0), scale);
  // Command-line overrides of the config's counts (sanitizer runs want one repetition).
  // The recorded config says what ran, overrides included.
  if (p.has("repetitions")) {
    const int n = integer_option(p, "repetitions", 1);
    config.repetitions = {n, n};
    config.time_budget_s = 0;  // the count asked for is the count taken
    for (Point& pt : config.points) {  // the override wins everywhere
      pt.repetitions.reset();
      pt.time_budget_s.reset();
    }
    config.resolved["repetitions"] = n;
    config.resolved["time_budget_s"] = 0;
  }
  if (p.has("warmup")) {
    const int n = integer_option(p, "warmup", 0);
    config.warmup = {n, n};
    for (Point& pt : config.points) pt.warmup.reset();
    config.resolved["warmup"] = n;
  }
  if (p.has("timing")) {
    config.timing = parse_timing(p.get("timing"), "--timing");
    config.resolved["timing"] = p.get("timing");
  }
  return config;
}

RunOptions run_options(const Parsed& p) {
  RunOptions opt;
  opt.filter = p.get("filter");
  if (p.has("validate")) opt.validation = parse_validation(p.get("validate"));
  opt.dump_dir = p.get("dump-outputs");
  opt.profile = p.has("profile");
  opt.quiet = p.has("quiet");
  if (p.has("device")) {
    opt.device = integer_option(p, "device", 0);
    opt.device_given = true;
  }
  if (p.has("runs")) opt.only_runs = run_list(p.get("runs"));
  opt.process_samples = p.has("process-samples") && !p.has("repetitions");  // the count asked for wins
  if (p.has("rounds")) opt.rounds = integer_option(p, "rounds", 1);
  opt.blocked_start = p.has("blocked-start");
  if (p.has("plant")) opt.plant = parse_plant(p.get("plant"));
  if (opt.profile && (p.has("process-samples") || p.has("rounds") || opt.blocked_start || opt.plant))
    throw InputError("--profile takes no samples: give it without --process-samples, --rounds, --blocked-start and --plant");
  return opt;
}

namespace {

// "7" or "7-9" (1 to 9 digits each, A <= B) as a range; nullopt for anything else.
std::optional<RunRange> run_range(const std::string& part) {
  const std::size_t dash = part.find('-');
  const auto index = [](const std::string& digits) -> std::optional<std::size_t> {
    if (digits.empty() || digits.size() > 9 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return std::nullopt;
    return std::stoul(digits);
  };
  const std::optional<std::size_t> lo = index(part.substr(0, dash));
  const std::optional<std::size_t> hi = dash == std::string::npos ? lo : index(part.substr(dash + 1));
  if (!lo || !hi || *hi < *lo) return std::nullopt;
  return RunRange{*lo, *hi};
}

}  // namespace

std::vector<RunRange> run_list(const std::string& text) {
  std::vector<RunRange> runs;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    const std::optional<RunRange> r = run_range(part);
    if (!r) throw InputError("--runs: '" + printable(part, 40) + "' is not a run index or a range A-B (A <= B)");
    runs.push_back(*r);
  }
  if (runs.empty() || text.back() == ',') throw InputError("--runs: give run indices, e.g. 3,7-9");
  return runs;
}

namespace {

// `run --gpus`: every input checked here, then one `run --shard k/N --device g` per GPU into
// OUT's .shards folder, merged into OUT.
int run_on_gpus(const Parsed& p, const Config& config) {
  for (const char* other : {"device", "shard", "runs"})
    if (p.has(other)) throw InputError(std::string("--gpus cannot be given with --") + other + ": each GPU runs a shard");
  const std::vector<int> gpus = gpus_option(p);
  const RunOptions opt = run_options(p);
  const PlanToSplit plan{&config, plan_runs(config, opt.filter, opt.validation)};
  const MeasuredCosts costs = costs_option(p);
  const std::string shown = p.has("out") ? p.get("out") : default_out(config);
  const std::string out = results_target(shown);
  check_out_creatable(out);
  refuse_overwriting(out, input_files(config), "--out");
  const fs::path dir = fs::path(out).replace_extension(".shards");
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir, ec)))
    throw InputError("'" + printable(dir.string(), 120) + "' is in the way: --gpus keeps its shards there; remove it");
  if (!opt.dump_dir.empty()) check_dump_dir(opt.dump_dir);
  check_config(config, opt);
  const std::size_t n = gpus.size();
  const std::vector<ShardInfo> split = split_plans({plan}, 0, n, costs);
  const std::vector<std::vector<double>> run_cost = run_costs({plan}, costs);
  std::vector<ShardChild> children(n);
  for (std::size_t k = 0; k < n; ++k) {
    const std::string name = fmt::format("{}-of-{}", k, n);
    children[k].argv = {fs::canonical("/proc/self/exe").string(), "run", p.positional[0], "--shard",
                        fmt::format("{}/{}", k, n), "--device", std::to_string(gpus[k]), "--out",
                        (dir / (name + ".json")).string(), "--quiet"};
    const std::vector<std::string> more = pass_on(p, {"gpus", "out", "quiet"});
    children[k].argv.insert(children[k].argv.end(), more.begin(), more.end());
    children[k].log = (dir / (name + ".log")).string();
    children[k].watch = (dir / (name + ".json")).string();
    for (std::size_t i = 0; i < plan.runs.size(); ++i)
      if (split[0].owners[i] == k) children[k].cost += run_cost[0][i], ++children[k].runs;
  }
  fs::create_directories(dir);
  const std::vector<int> status = run_shard_children(children, "run " + printable_all(config.name), run_cost, {config.name});
  const MergeOutcome m = merge_shards(out, {dir.string()});
  for (const std::string& line : m.missing) fmt::print(stderr, "ladder: {}\n", printable_all(line));
  bool ok = m.complete;
  for (std::size_t k = 0; k < n; ++k)
    if (status[k] != 0) {
      ok = false;
      fmt::print(stderr, "ladder: shard {}/{} on GPU {} exited with status {} (log {})\n", k, n, gpus[k], status[k],
                 children[k].log);
    }
  if (m.complete) fs::remove_all(dir);  // the merged file holds everything the shards wrote
  json merged;
  try {
    merged = read_json_file(out, "results", kMaxResultsDepth);
  } catch (const InputError&) {  // none was written: no run to count
  }
  print_tally(merged);
  fmt::print("results: {} ({} of {} runs, {} GPUs)\n", shown, m.runs, plan.runs.size(), n);
  return ok ? 0 : 1;
}

}  // namespace

int run(const Parsed& p) {
  if (p.positional.size() != 1) throw InputError("run needs exactly one CONFIG file");
  Config config = config_from_options(p);
  if (p.has("processes") || p.has("cpus")) return run_processes(p, config);
  if (p.has("gpus")) return run_on_gpus(p, config);
  return run_here(p, config);
}

int run_here(const Parsed& p, const Config& config) {
  RunOptions opt = run_options(p);
  if (p.has("runs") && p.has("shard")) throw InputError("--runs selects runs itself: give it without --shard");
  if (p.has("shard")) {
    const ShardInfo s = parse_shard(p.get("shard"));
    opt.shard = split_plans({{&config, plan_runs(config, opt.filter, opt.validation)}}, s.index, s.count,
                            costs_option(p))[0];
  } else if (p.has("costs")) {
    throw InputError("--costs balances shards: give it with --shard or --gpus");
  }
  // Output paths are checked now and created only once everything else has been checked.
  const std::string shown = p.has("out") ? p.get("out") : default_out(config, opt.shard);
  const std::string out = results_target(shown);
  check_out_creatable(out);
  refuse_overwriting(out, input_files(config), "--out");
  if (!opt.dump_dir.empty()) check_dump_dir(opt.dump_dir);
  // What this process records of where it ran: from the moment every input is checked.
  ProcessFacts facts;
  const auto more = [&facts](const std::vector<std::string>& warnings) {
    return json{{"process", process_json(facts)}, {"warnings", warnings}};
  };
  opt.on_checked = [&out, &opt, &facts] {
    prepare_results_file(out);
    if (!opt.dump_dir.empty()) prepare_dump_dir(opt.dump_dir);
    facts = process_start(opt.device);
  };
  // The results file is rewritten (atomically) after every run, so an interrupted sweep keeps
  // what it measured.
  opt.on_run = [&out, &facts, &more](const RunReport& partial) {
    note_slowdowns(facts, partial.device);
    write_results(out, partial, more({}));
  };
  RunReport rep = run_config(config, opt);
  process_end(facts);
  const std::vector<std::string> warnings = process_warnings(facts, rep.clock_start_mhz, rep.clock_end_mhz);
  print_summary(rep);
  write_results(out, rep, more(warnings));
  for (const std::string& w : warnings) fmt::print(stderr, "ladder: warning: {}\n", w);
  Tally tally;
  for (const RunRecord& r : rep.runs) tally.add(r.status);
  fmt::print("\nruns: {}\nresults: {}\n", tally.text(), shown);
  if (!rep.all_ok()) {
    fmt::print(stderr, "ladder: some runs failed validation or errored (see results)\n");
    return 1;
  }
  return 0;
}

namespace {

// Builds (or reads) one data set and writes it to `shown` in the study's format; every input
// is checked, and the output's folder found creatable, before anything is built or created.
// With `as_json`, stdout gets the file and the data's facts as results record them (a run's
// `data`: sizes, and where a point's inputs lie in the set) instead of a line for people.
void write_data_set(const Study& study, const DataSource& src, const Params& resolved,
                    const std::string& shown, const std::vector<std::string>& inputs,
                    bool as_json = false) {
  const std::string out = results_target(shown);
  check_out_creatable(out);
  refuse_overwriting(out, inputs, "--out");
  study.check_point(src, resolved, nullptr);
  study.check_writable(src, resolved);
  check_data_memory(study, src, resolved);
  std::unique_ptr<Problem> problem;
  {
    ProgressTicker ticker((src.file.empty() ? "generating " : "reading ") + study.name() + " data",
                          false);
    problem = study.make_problem(src, resolved);
  }
  prepare_results_file(out);
  study.write_data(*problem, out);
  if (as_json)
    fmt::print("{}\n", json{{"file", shown}, {"data", study.describe(*problem)}}.dump());
  else
    fmt::print("wrote {}\n", shown);
}

// `ladder gen --config CONFIG --point K`: a peer's data, exactly the point's as `run` has it.
int gen_point(const Parsed& p) {
  if (!p.positional.empty()) throw InputError("gen --config takes no STUDY: the config names it");
  for (const auto& [k, v] : p.options)
    if (k != "out" && k != "config" && k != "point" && k != "scale" && k != "json")
      throw InputError("--" + printable(k, 40) + " cannot be given with --config: the point sets the data");
  if (!p.has("point")) throw InputError("gen --config needs --point K");
  Parsed c = p;
  c.positional = {p.get("config")};
  const Config config = config_from_options(c);
  const std::int64_t k = parse_int64(p.get("point"), "--point");
  if (k < 0 || k >= std::int64_t(config.points.size()))
    throw InputError("--point " + std::to_string(k) + " is not a point of the config: it has " +
                     std::to_string(config.points.size()) + " (0 to " +
                     std::to_string(config.points.size() - 1) + ")");
  const Point& pt = config.points[std::size_t(k)];
  write_data_set(*config.study, pt.data,
                 resolve(*config.study, nullptr, pt.params, pt.data.file.empty()), p.get("out"),
                 input_files(config), p.has("json"));
  return 0;
}

}  // namespace

int gen(const Parsed& p) {
  if (p.has("config")) return gen_point(p);
  if (p.has("point") || p.has("scale") || p.has("json"))
    throw InputError("--point, --scale and --json need --config CONFIG");
  if (p.positional.size() != 1) throw InputError("gen needs exactly one STUDY");
  const Study* study = registry().study(p.positional[0]);
  if (!study) throw InputError("unknown study '" + p.positional[0] + "'");
  const auto gens = study->generators();
  if (gens.empty())
    throw InputError("study " + study->name() + " has no generator: it reads its data from files");
  DataSource src;
  src.generator = p.get("generator", gens.front());
  if (std::find(gens.begin(), gens.end(), src.generator) == gens.end())
    throw InputError("unknown generator '" + src.generator + "' for study " + study->name());
  Params params;
  for (const auto& [k, v] : p.options) {
    if (k == "out" || k == "generator") continue;
    const auto specs = study->data_params();
    // (A structured binding is named through an init-capture: clang before 16 cannot capture one.)
    auto it = std::find_if(specs.begin(), specs.end(), [&name = k](const auto& s) { return s.name == name; });
    if (it == specs.end()) throw InputError("unknown option --" + k + " for study " + study->name());
    check_param(*it, v);
    params.set(k, v);
  }
  std::vector<std::string> inputs;
  for (const auto& spec : study->data_params())
    if (spec.kind == ParamSpec::Kind::path && params.has(spec.name)) inputs.push_back(params.text(spec.name));
  write_data_set(*study, src, resolve(*study, nullptr, params), p.get("out"), inputs);
  return 0;
}

}  // namespace ladder::cli
