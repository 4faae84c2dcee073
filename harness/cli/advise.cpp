// `ladder plan --advise RESULTS.json`: a K-process run (`ladder run CONFIG --processes K`, a
// dimensioning experiment in Kalibera & Jones's sense) read for what the next runs need. Per
// timed run: its variance within and between processes (log scale), their ICC, Kalibera &
// Jones's samples a process, r = ceil(sqrt(c * sd_within^2 / sd_between^2)) with c a
// process's cost over a sample's, and the processes a side a Welch test of process medians
// needs to detect 5% and 10% with 80% power at alpha 0.05.
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "../../datagen/base/errors.hpp"
#include "../../datagen/base/printable.hpp"
#include "../../datagen/numbers.hpp"
#include "../process_timing.hpp"
#include "../results.hpp"
#include "../stats.hpp"
#include "advise.hpp"
#include "commands.hpp"
#include "csv.hpp"

namespace ladder::cli {
namespace {

using json = nlohmann::json;

// A process's cost over a sample's: unknown from a results file (a process's start-up, data
// and reference against one timed call), so the design's estimate stands unless given.
constexpr double kCostRatio = 200;
constexpr double kAlpha = 0.05, kPower = 0.8;
constexpr double kEffects[] = {0.05, 0.10};

struct Advice {
  std::string name;  // study/variant [sweep] point
  json id;           // the run's identity fields
  std::size_t processes = 0;
  double median = 0;
  stats::Components c;
  std::optional<std::size_t> samples;  // none: unbounded (no spread between processes)
  std::optional<std::size_t> needed[2];  // for kEffects; none: beyond any sensible count
};

// The components from the processes' samples where the file keeps them, else as recorded.
stats::Components components(const ProcessTiming& t, const json& timing) {
  if (t.samples.size() >= 2) return stats::variance_components(t.samples);
  stats::Components c;
  c.processes = t.medians.size();
  const auto recorded = [&](const char* k) {
    const json v = member(timing, k);
    return v.is_number() ? v.get<double>() : 0.0;
  };
  c.sd_log_within = recorded("sd_log_within");
  c.sd_log_between = recorded("sd_log_between");
  c.icc = recorded("icc");
  std::vector<double> logs;
  for (double m : t.medians) logs.push_back(std::log(m));
  c.sd_log_process = stats::sample_sd(logs);
  return c;
}

std::vector<Advice> advise(const json& results, double cost_ratio) {
  std::vector<Advice> out;
  for (const json& run : results["runs"]) {
    const json timing = member(run, "timing");
    if (!timing.is_object() || text(run, "status") != "passed") continue;
    const ProcessTiming t = process_timing(timing);
    if (t.medians.size() < 2) continue;
    Advice a;
    const std::string sweep = text(run, "sweep");
    a.name = text(run, "study") + "/" + text(run, "variant") + (sweep.empty() ? "" : " [" + sweep + "]") + " " +
             text(run, "point");
    a.id = {{"study", member(run, "study")}, {"variant", member(run, "variant")}, {"sweep", member(run, "sweep")},
            {"point", member(run, "point")}};
    a.processes = t.medians.size();
    a.median = timing["median"].get<double>();
    a.c = components(t, timing);
    a.samples = stats::samples_per_process(a.c.sd_log_within, a.c.sd_log_between, cost_ratio);
    for (std::size_t e = 0; e < 2; ++e)
      a.needed[e] = stats::processes_needed(a.c.sd_log_process, kEffects[e], kAlpha, kPower);
    out.push_back(std::move(a));
  }
  return out;
}

std::string count_text(const std::optional<std::size_t>& n, const char* none) {
  return n ? std::to_string(*n) : none;
}

std::vector<std::string> cells(const Advice& a) {
  const auto pct = [](double sd) { return fmt::format("{:.2f}%", 100 * sd); };
  return {a.name, std::to_string(a.processes), fmt::format("{:.4g}", a.median), pct(a.c.sd_log_within),
          pct(a.c.sd_log_between), pct(a.c.sd_log_process), fmt::format("{:.2f}", a.c.icc),
          count_text(a.samples, "unbounded"), count_text(a.needed[0], "too many"), count_text(a.needed[1], "too many")};
}

const std::vector<std::string> kHead = {"study/variant [sweep] point", "K", "median ms", "sd within", "sd between",
                                        "sd process", "ICC", "samples/process", "K for 5%", "K for 10%"};

std::string footnote(double cost_ratio) {
  return fmt::format(
      "sd: of log times (about relative), within a process, between processes (its random effect) and of a "
      "process's median; ICC: between / (between + within) variance. samples/process: Kalibera & Jones's "
      "ceil(sqrt(c * within^2 / between^2)) at c = {:g}, a process's cost over a sample's (--cost-ratio), "
      "unbounded where processes do not differ. K for 5% and 10%: processes a side for a Welch test of process "
      "medians to detect that change with 80% power at alpha 0.05 (two-sided).",
      cost_ratio);
}

// Markdown for a README: escaped pipes, the numbers right-aligned.
void print_markdown(const std::vector<Advice>& advice, double cost_ratio) {
  const auto row = [](const std::vector<std::string>& c) {
    std::string out = "|";
    for (const std::string& s : c) {
      std::string esc;
      for (char ch : printable_all(s)) esc += ch == '|' ? std::string("\\|") : std::string(1, ch);
      out += " " + esc + " |";
    }
    return out + "\n";
  };
  std::string out = row(kHead) + "|---|" ;
  for (std::size_t i = 1; i < kHead.size(); ++i) out += "---:|";
  out += "\n";
  for (const Advice& a : advice) out += row(cells(a));
  fmt::print("{}\n{}\n", out, footnote(cost_ratio));
}

json advice_json(const json& results, const std::vector<Advice>& advice, double cost_ratio) {
  json runs = json::array();
  const auto count = [](const std::optional<std::size_t>& n) { return n ? json(*n) : json(); };
  for (const Advice& a : advice) {
    json r = a.id;
    r.update({{"processes", a.processes}, {"median_ms", a.median}, {"sd_log_within", a.c.sd_log_within},
              {"sd_log_between", a.c.sd_log_between}, {"sd_log_process", a.c.sd_log_process}, {"icc", a.c.icc},
              {"samples_per_process", count(a.samples)}, {"processes_for_5pct", count(a.needed[0])},
              {"processes_for_10pct", count(a.needed[1])}});
    runs.push_back(r);
  }
  return {{"config", member(member(results, "config"), "name")}, {"processes", process_count(results)},
          {"cost_ratio", cost_ratio}, {"alpha", kAlpha}, {"power", kPower}, {"runs", runs}};
}

double cost_ratio_option(const Parsed& p) {
  if (!p.has("cost-ratio")) return kCostRatio;
  const double c = parse_double(p.get("cost-ratio"), "--cost-ratio");
  if (!(c > 0)) throw InputError("--cost-ratio must be above 0, not " + printable(p.get("cost-ratio"), 40));
  return c;
}

}  // namespace

int plan_advise(const Parsed& p) {
  if (!p.positional.empty()) throw InputError("plan --advise RESULTS.json takes no CONFIG");
  for (const char* o : {"shard", "costs", "scale", "filter", "validate", "repetitions", "warmup", "timing"})
    if (p.has(o)) throw InputError(std::string("plan --advise reads a results file: --") + o + " does not apply");
  if (p.has("markdown") && p.has("json")) throw InputError("plan --advise: --markdown or --json, not both");
  const double cost_ratio = cost_ratio_option(p);
  const std::string path = p.get("advise");
  const json results = read_results(path);
  if (!member(results, "processes").is_object() || process_count(results) < 2)
    throw InputError(printable(path, 80) + " has one process a run: advice needs the spread between processes, "
                     "which `ladder run CONFIG --processes K` records");
  const std::vector<Advice> advice = advise(results, cost_ratio);
  if (p.has("json")) {
    fmt::print("{}\n", advice_json(results, advice, cost_ratio).dump(2, ' ', true));
  } else if (p.has("markdown")) {
    print_markdown(advice, cost_ratio);
  } else {
    std::vector<std::vector<std::string>> rows;
    for (const Advice& a : advice) rows.push_back(cells(a));
    fmt::print("{}: {} processes, {} timed run{}\n", printable(path, 200), process_count(results), advice.size(),
               advice.size() == 1 ? "" : "s");
    print_table(kHead, rows, {false, true, true, true, true, true, true, true, true, true});
    fmt::print("\n{}\n", footnote(cost_ratio));
  }
  return 0;
}

}  // namespace ladder::cli
