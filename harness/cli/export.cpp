// `ladder export`: a results file as CSV for spreadsheets, or as Google Benchmark's JSON for
// its tools/compare.py, by sample or (--per-process) by process median.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "../../datagen/base/atomic_file.hpp"
#include "../../datagen/base/errors.hpp"
#include "../../datagen/base/printable.hpp"
#include "../process_timing.hpp"
#include "../results.hpp"
#include "../stats.hpp"
#include "args.hpp"
#include "commands.hpp"
#include "csv.hpp"
#include "export.hpp"
#include "out_path.hpp"

namespace ladder::cli {
namespace {

using json = nlohmann::json;

constexpr const char* kExportAbout =
    "Writes one CSV (RFC 4180) line per run on stdout, or atomically to FILE: study, variant,\n"
    "step, label, role, backend, precision, sweep, point, status, reason, emulated (why the\n"
    "step ran emulated on its GPU, else empty), median_ms, min_ms, max_ms, mean_ms, stddev_ms,\n"
    "samples (how many), metric, metric_value, metric_unit,\n"
    "pct_of_peak, validation_mode, checked, max_abs_error, max_rel_error, then param_NAME for\n"
    "every parameter any run has (sorted; empty where a run lacks it). Empty cells are values\n"
    "the run does not have (no timing for a skipped run). On stdout, control and bidirectional\n"
    "characters in the file's text show as \\xNN (line breaks kept); --out FILE keeps them.\n"
    "--format gbench writes Google Benchmark's JSON format instead, which its tools/compare.py\n"
    "reads: per timed run, one `iteration` entry per sample named study/variant[/sweep]/point\n"
    "(cpu_time = real_time, ms), then its mean, median, stddev and cv aggregates. A name another\n"
    "run has (a point a sweep lists twice) gets #k, the first k from 2 that no run has. A sample\n"
    "that is not a number is refused; a run with a median only is one iteration, said on stderr.\n"
    "--per-process (gbench only) writes one iteration per process median instead, and the\n"
    "aggregates of those, so that compare.py's U test compares processes, the unit that varies\n"
    "independently (samples of one process share its state); a one-process file (no `run\n"
    "--processes K`) gives one iteration a run, said on stderr.\n";

const std::vector<std::string> kExportColumns = {
    "study",     "variant",      "step",         "label",        "role",        "backend",
    "precision", "sweep",        "point",        "status",       "reason",      "emulated",
    "median_ms",
    "min_ms",    "max_ms",       "mean_ms",      "stddev_ms",    "samples",     "metric",
    "metric_value", "metric_unit", "pct_of_peak", "validation_mode", "checked", "max_abs_error",
    "max_rel_error"};

// The run's throughput metric: the one the run names, else (an older or hand-made file) the
// first number in `metrics` that is not one of its companions.
std::string metric_name(const json& run) {
  if (const std::string m = text(run, "metric"); !m.empty()) return m;
  static const std::set<std::string> companions{"work", "peak", "pct_of_peak"};
  const json metrics = member(run, "metrics");
  if (metrics.is_object())
    for (const auto& [k, v] : metrics.items())
      if (v.is_number() && !companions.count(k)) return k;
  return "";
}

std::vector<std::string> export_row(const json& run, const std::set<std::string>& params) {
  std::vector<std::string> cells;
  for (const char* k : {"study", "variant", "step", "label", "role", "backend", "precision",
                        "sweep", "point", "status", "reason", "emulated"})
    cells.push_back(cell(member(run, k)));
  const json timing = member(run, "timing");
  for (const char* k : {"median", "min", "max", "mean", "stddev"})
    cells.push_back(cell(member(timing, k)));
  const json samples = member(timing, "samples");
  cells.push_back(samples.is_array() ? std::to_string(samples.size()) : "");
  const std::string metric = metric_name(run);
  const json metrics = member(run, "metrics");
  cells.push_back(metric);
  cells.push_back(metric.empty() ? "" : cell(member(metrics, metric.c_str())));
  cells.push_back(cell(member(metrics, "unit")));
  cells.push_back(cell(member(metrics, "pct_of_peak")));
  const json validation = member(run, "validation");
  for (const char* k : {"mode", "checked", "max_abs_error", "max_rel_error"})
    cells.push_back(cell(member(validation, k)));
  const json values = member(run, "params");
  for (const std::string& p : params) cells.push_back(cell(member(values, p.c_str())));
  return cells;
}

std::string export_csv(const json& results, bool to_stdout) {
  // A column for every parameter any run has: sweeps vary different ones.
  std::set<std::string> params;
  for (const json& run : results["runs"])
    if (const json values = member(run, "params"); values.is_object())
      for (const auto& [k, v] : values.items()) params.insert(k);
  std::vector<std::string> head = kExportColumns;
  for (const std::string& p : params) head.push_back("param_" + p);
  std::string out = csv_line(head, to_stdout);
  for (const json& run : results["runs"]) out += csv_line(export_row(run, params), to_stdout);
  return out;
}

// A run as error and warning lines name it: its place in the file and its identity.
std::string run_shown(const json& run, std::size_t i) {
  const std::string sweep = text(run, "sweep");
  return fmt::format("runs[{}] ({}/{}{} {})", i, printable(text(run, "study")), printable(text(run, "variant")),
                     sweep.empty() ? "" : " [" + printable(sweep) + "]", printable(text(run, "point")));
}

// The run's samples as Google Benchmark's iterations: every one a finite number, or the export
// is refused (compare.py would fail on text, or silently compare nonsense).
std::vector<json> gbench_samples(const json& samples, const json& run, std::size_t i) {
  std::vector<json> out;
  for (const json& x : samples.is_array() ? samples : json::array()) {
    if (!x.is_number() || !std::isfinite(x.get<double>()))
      throw InputError(run_shown(run, i) + " has a sample that is not a number of milliseconds: " +
                       printable(x.dump(), 40));
    out.push_back(x);
  }
  return out;
}

// Entry names no two runs share. A run is named study/variant[/sweep]/point and, when it has
// aggregates, NAME_mean, NAME_median, NAME_stddev and NAME_cv. It keeps that name unless an
// earlier run has it (a point a sweep lists twice) or one of its aggregates' names is another
// run's name (point "p" beside a point "p_median"); then it is NAME#k for the first k from 2
// whose names are neither taken nor any run's own name: a point literally named "p#2" keeps
// its name, and compare.py, which groups entries by name, never mixes two runs.
std::vector<std::string> gbench_names(const std::vector<std::string>& plain, const std::vector<bool>& aggregated) {
  static const char* const kAggregates[] = {"mean", "median", "stddev", "cv"};
  const std::set<std::string> reserved(plain.begin(), plain.end());
  std::set<std::string> taken;  // every entry name given out, aggregates' included
  const auto family = [](const std::string& name, bool with_aggregates) {
    std::vector<std::string> f{name};
    for (const char* agg : kAggregates)
      if (with_aggregates) f.push_back(name + "_" + agg);
    return f;
  };
  // Whether NAME's entries can go out: none taken, none another run's name (`own`: NAME
  // itself is this run's own name).
  const auto fits = [&](const std::string& name, bool with_aggregates, bool own) {
    const std::vector<std::string> f = family(name, with_aggregates);
    for (std::size_t i = 0; i < f.size(); ++i)
      if (taken.contains(f[i]) || ((i > 0 || !own) && reserved.contains(f[i]))) return false;
    return true;
  };
  std::map<std::string, std::size_t> seen;
  std::vector<std::string> out;
  for (std::size_t r = 0; r < plain.size(); ++r) {
    std::string name = plain[r];
    if (const std::size_t n = ++seen[name]; n > 1 || !fits(name, aggregated[r], true))
      for (std::size_t k = std::max<std::size_t>(n, 2);; ++k)
        if (name = plain[r] + "#" + std::to_string(k); fits(name, aggregated[r], false)) break;
    for (const std::string& entry : family(name, aggregated[r])) taken.insert(entry);
    out.push_back(name);
  }
  return out;
}

// What a run exports as iterations: its samples, or with --per-process its process medians
// (a one-process file: its median). `note` says where that is not what the flag asks for.
struct GbenchValues {
  std::vector<json> values;
  std::string note;
  json aggregates;  // name -> value, for repeated runs
};

json aggregates_of(const std::vector<double>& v) {
  if (v.size() < 2) return json::object();
  const double mean = stats::mean(v), sd = stats::sample_sd(v);
  return {{"mean", mean}, {"median", stats::median(v)}, {"stddev", sd}, {"cv", mean != 0 ? sd / mean : 0.0}};
}

GbenchValues gbench_values(const json& run, std::size_t i, bool per_process) {
  const json timing = member(run, "timing");
  GbenchValues g;
  if (per_process) {
    const ProcessTiming t = process_timing(timing);
    if (!t.recorded) {
      g.values = {timing["median"]};
      g.note = "the results file has one process: this run's median";
      return g;
    }
    for (double m : t.medians) g.values.push_back(m);
    g.aggregates = aggregates_of(t.medians);
    return g;
  }
  g.values = gbench_samples(member(timing, "samples"), run, i);
  if (g.values.empty()) {
    g.values = {timing["median"]};
    g.note = "the results file has this run's median only, no samples";
    return g;
  }
  g.aggregates = json::object();
  for (const char* agg : {"mean", "median", "stddev", "cv"})
    if (const json v = member(timing, agg); v.is_number() && g.values.size() >= 2) g.aggregates[agg] = v;
  return g;
}

// Google Benchmark's JSON format (what its --benchmark_format=json writes and its
// tools/compare.py reads): a `context`, then per timed run one `iteration` entry per sample
// (per process median with --per-process), all named alike (study/variant[/sweep]/point), and
// its aggregates named NAME_mean, NAME_median, NAME_stddev and NAME_cv. ladder times wall
// clock only, so cpu_time repeats real_time. The run's label, status and throughput ride
// along as fields compare.py ignores. A run with a median but no samples (a hand-made or
// older file), or with --per-process a run of a one-process file, is one iteration holding
// its median, marked so, and said on stderr: never dropped without a word.
json export_gbench(const json& results, bool per_process) {
  const json host = member(results, "host"), build = member(results, "ladder");
  json context = {{"date", member(results, "started_at")},
                  {"host_name", member(host, "hostname")},
                  {"executable", "ladder"},
                  {"num_cpus", member(host, "cores")},
                  {"mhz_per_cpu", 0},
                  {"cpu_scaling_enabled", false},
                  {"caches", json::array()},
                  {"load_avg", json::array()},
                  {"library_build_type", text(build, "build_type") == "Debug" ? "debug" : "release"},
                  {"ladder_commit", member(build, "git_commit")},
                  {"device", member(member(results, "device"), "name")}};
  if (per_process) context["ladder_unit"] = "process median";
  std::vector<const json*> timed;
  std::vector<GbenchValues> values;
  std::vector<std::string> plain, median_only;
  for (std::size_t i = 0; i < results["runs"].size(); ++i) {
    const json& run = results["runs"][i];
    if (!member(run, "timing").is_object()) continue;  // not timed (read_results: a timing has a median)
    values.push_back(gbench_values(run, i, per_process));
    if (!values.back().note.empty()) median_only.push_back(run_shown(run, i));
    timed.push_back(&run);
    plain.push_back(text(run, "study") + "/" + text(run, "variant") +
                    (text(run, "sweep").empty() ? "" : "/" + text(run, "sweep")) + "/" + text(run, "point"));
  }
  std::vector<bool> aggregated;  // as below: aggregates only for repeated runs
  for (const GbenchValues& v : values) aggregated.push_back(v.values.size() >= 2);
  const std::vector<std::string> names = gbench_names(plain, aggregated);
  json benchmarks = json::array();
  for (std::size_t r = 0; r < timed.size(); ++r) {
    const json& run = *timed[r];
    const std::vector<json>& samples = values[r].values;
    const std::string& name = names[r];
    json base = {{"name", name}, {"family_index", r}, {"per_family_instance_index", 0},
                 {"run_name", name}, {"repetitions", samples.size()}, {"threads", 1},
                 {"time_unit", "ms"}, {"label", member(run, "label")}, {"status", member(run, "status")}};
    if (!values[r].note.empty()) base["ladder_note"] = values[r].note;
    for (std::size_t i = 0; i < samples.size(); ++i) {
      json b = base;
      b.update({{"run_type", "iteration"}, {"repetition_index", i}, {"iterations", 1},
                {"real_time", samples[i]}, {"cpu_time", samples[i]}});
      const std::string metric = metric_name(run);
      if (const json v = member(member(run, "metrics"), metric.c_str()); !metric.empty() && v.is_number())
        b[metric] = v;
      benchmarks.push_back(b);
    }
    // Aggregates, as Google Benchmark writes them, only for repeated runs.
    for (const char* agg : {"mean", "median", "stddev", "cv"}) {
      const json v = member(values[r].aggregates, agg);
      if (!v.is_number() || samples.size() < 2) continue;
      json b = base;
      b.update({{"name", name + "_" + agg}, {"run_type", "aggregate"}, {"aggregate_name", agg},
                {"aggregate_unit", std::string(agg) == "cv" ? "percentage" : "time"},
                {"iterations", samples.size()}, {"real_time", v}, {"cpu_time", v}});
      benchmarks.push_back(b);
    }
  }
  if (!median_only.empty())
    fmt::print(stderr, "ladder: warning: {} run{} {} (first: {}): each is exported as one iteration holding its "
               "median, marked ladder_note\n", median_only.size(), median_only.size() == 1 ? "" : "s",
               per_process ? "of a one-process file (`run --processes K` records K)" : "with a median but no samples",
               median_only.front());
  return {{"context", context}, {"benchmarks", benchmarks}};
}

}  // namespace

std::string export_csv_text(const json& results) { return export_csv(results, false); }
json export_gbench_json(const json& results, bool per_process) { return export_gbench(results, per_process); }

const Command export_command{
    .name = "export",
    .summary = "a results file as CSV (spreadsheets) or Google Benchmark's JSON (its compare.py)",
    .positionals = {"RESULTS.json"},
    .options = {{"format", "csv|gbench", "CSV (RFC 4180), or Google Benchmark's JSON format"},
                {"csv", "", "the same as --format csv"},
                {"per-process", "", "gbench: one iteration per process median, not per sample"},
                {"out", "FILE", "write it atomically to FILE instead of stdout"}},
    .about = kExportAbout,
    .body = export_results,
};

int export_results(const Parsed& p) {
  if (p.positional.size() != 1) throw InputError("export needs exactly one results file");
  // The format is always named: a later default must not change what a bare `export` means.
  if (!p.has("format") && !p.has("csv")) throw InputError("export needs --format csv|gbench (or --csv)");
  const std::string format = p.has("format") ? p.get("format") : "csv";
  if (format != "csv" && format != "gbench")
    throw InputError("--format must be csv or gbench, not '" + printable(format, 40) + "'");
  if (p.has("csv") && format != "csv") throw InputError("--csv and --format " + format + " disagree");
  if (p.has("per-process") && format != "gbench")
    throw InputError("--per-process is for --format gbench (CSV has a row per run, not per sample)");
  // The --out path is checked before reading and created only once everything is checked.
  const std::string out = p.has("out") ? results_target(p.get("out")) : "";
  if (!out.empty()) {
    check_out_creatable(out);
    refuse_overwriting(out, {p.positional[0]}, "--out");
  }
  const json results = read_results(p.positional[0]);
  // JSON as ASCII (\uXXXX escapes): the same text for a program, and no raw control or
  // bidirectional character for a terminal.
  const std::string text = format == "csv" ? export_csv(results, out.empty())
                                            : export_gbench(results, p.has("per-process")).dump(2, ' ', true) + "\n";
  if (out.empty()) {
    fmt::print("{}", text);
    return 0;
  }
  prepare_results_file(out);
  write_file_atomically(out, text);
  fmt::print("wrote {}\n", p.get("out"));
  return 0;
}

}  // namespace ladder::cli
