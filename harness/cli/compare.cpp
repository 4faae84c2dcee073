// `ladder compare`: two results files side by side, run by run, as a table for people or CSV
// for spreadsheets, each timed run judged by the process-level contract (compare_judge.cpp):
// process medians are the observations, Welch's t on their logs, Benjamini-Hochberg across the
// rows, a practical floor, TOST for `same`, the MDE where nothing can be said.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

#include "../../datagen/base/errors.hpp"
#include "../../datagen/base/printable.hpp"
#include "../../datagen/numbers.hpp"
#include "../process_timing.hpp"
#include "../results.hpp"
#include "../stats.hpp"
#include "args.hpp"
#include "commands.hpp"
#include "compare.hpp"
#include "csv.hpp"

namespace ladder::cli {
namespace {

using json = nlohmann::json;

constexpr const char* kCompareAbout =
    "One row per run (study/variant [sweep] point) in either file. The sample is a process:\n"
    "samples taken in one process share its state (clocks, memory placement, code layout), so\n"
    "what is compared is each process's median (`ladder run --processes K` records K; a\n"
    "one-process file has one). Per timed row: each side's time (the geometric mean of its process\n"
    "medians; one process: its median), K (processes) and ICC\n"
    "(the share of the samples' variance that lies between processes), B/A = the ratio of the\n"
    "geometric means of process medians with its 95% CI, Welch's two-sided p on the log process\n"
    "medians, its Benjamini-Hochberg q-value across the rows tested, MDE80 (the change the test\n"
    "detects with 80% power at alpha 0.05), the Mann-Whitney U p of the process medians (a\n"
    "diagnostic, 8+ processes a side), a verdict, notes and A/B = 1 / (B/A), the speedup (above\n"
    "1: B is faster), last. Verdicts, of B against A:\n"
    "  slower, faster      q <= Q (--q, default 0.01), B/A 3% or more from 1 (--min-effect) and\n"
    "                      the geometric means 2 us or more apart;\n"
    "  same                the 90% CI of B/A (TOST) inside +-max(3%, 2 us / A's time) and\n"
    "                      MDE80 at most 3% (--min-effect): a change of 3% would have been\n"
    "                      seen, so a row too noisy to tell is never same;\n"
    "  inconclusive (MDE x%)  neither;\n"
    "  too few processes   fewer than 5 a side (a one-process file) and no --calibration;\n"
    "  INCORRECT (A), (B) or (A, B)  a side failed validation (said first).\n"
    "--calibration DIM.json (a K-process run of a config of the same study on the same GPU\n"
    "model, by `ladder run --processes K`) gives rows with fewer than 5 processes a side a\n"
    "z-test with DIM's sd of log process medians for that run: SE = sd * sqrt(1/K_A + 1/K_B);\n"
    "a run DIM lacks (another scale) takes the sd of its variant's run in DIM nearest in time\n"
    "(test `z by variant`); a variant DIM lacks stays too few processes. Where the variant's\n"
    "process medians in DIM (each run's over its robust sd, pooled over its runs within 10x of\n"
    "the row's time, the faster side's) put the difference further\n"
    "out than the normal tail, the share of 20,000 resampled differences is the p (a difference\n"
    "past 10 robust sds read as one of 10 for a variant that jumped that far in DIM). Notes: drift\n"
    "(both sides' process medians trend with the run order, p < 0.05 the same way; a warning\n"
    "when over 10% of rows do), heavy-tailed (U's p over 10x Welch's on a row Welch alone makes\n"
    "significant: U's p in its place would not pass BH; or DIM's resampled tail gave the p),\n"
    "rounds A vs B (the sides' GPU samples\n"
    "were taken in different rounds, `run --rounds`, which changes host-bound steps' times).\n"
    "A run not timed shows its status; one\n"
    "missing from a file shows -. A point a sweep lists twice is matched by occurrence: the\n"
    "second in A with the second in B. The options used are printed under the table.\n"
    "--csv writes the same rows as CSV (RFC 4180) on stdout, numbers at full precision:\n"
    "study,variant,sweep,point,occurrence,a_status,a_median_ms,a_min_ms,a_max_ms,a_samples,\n"
    "b_status,b_median_ms,b_min_ms,b_max_ms,b_samples,speedup,verdict,p_value,a_processes,\n"
    "b_processes,ratio,ratio_ci_low,ratio_ci_high,q_value,mde80 (relative: 0.03 is 3%),icc_a,\n"
    "icc_b,u_p_value,drift (1, 0, or empty: not checkable),heavy_tailed,test (welch, z, z by\n"
    "variant or empty)\n";

// ---- reading the sides ------------------------------------------------------------------------

// The share of the run's variance between processes: from its samples by process where the
// file keeps them, else as the file records it.
double icc_of(const ProcessTiming& t, const json& timing) {
  std::size_t most = 0;  // one sample a process shows no variance within: no ICC
  for (const auto& s : t.samples) most = std::max(most, s.size());
  if (t.samples.size() >= 2) return most >= 2 ? stats::variance_components(t.samples).icc : kNaN;
  const json icc = member(timing, "icc");
  return t.medians.size() >= 2 && icc.is_number() ? icc.get<double>() : kNaN;
}

Side side_of(const json& run, const std::map<std::size_t, double>& order) {
  Side s;
  s.status = member(run, "status").is_string() ? text(run, "status") : "?";
  const json t = member(run, "timing");
  if (!t.is_object()) return s;  // read_results: an object has a numeric median
  s.timed = true;
  s.median = s.lo = s.hi = t["median"].get<double>();
  // The range holds the median, the recorded min and max and every sample, whichever a
  // (hand-made) file has.
  auto widen = [&s](const json& x) {
    if (!x.is_number()) return;
    s.lo = std::min(s.lo, x.get<double>());
    s.hi = std::max(s.hi, x.get<double>());
  };
  widen(member(t, "min"));
  widen(member(t, "max"));
  const json samples = member(t, "samples");
  for (const json& x : samples.is_array() ? samples : json::array()) {
    widen(x);
    s.samples += x.is_number();
  }
  const ProcessTiming pt = process_timing(t);
  s.medians = pt.medians;
  s.icc = icc_of(pt, t);
  if (const json r = member(t, "rounds"); r.is_number_integer() && r.get<long long>() >= 1 && r.get<long long>() <= 1000000)
    s.rounds = int(r.get<long long>());
  for (std::size_t index : pt.process)
    if (const auto it = order.find(index); it != order.end()) s.positions.push_back(it->second);
  if (s.positions.size() != s.medians.size()) s.positions.clear();
  return s;
}

// Each run of `file` with its identity, the n-th occurrence of a point in a sweep numbered n.
template <typename F>
void for_each_run(const json& file, F&& f) {
  std::map<std::tuple<std::string, std::string, std::string, std::string>, std::size_t> seen;
  for (const json& run : file["runs"]) {
    const std::string study = text(run, "study"), variant = text(run, "variant"), sweep = text(run, "sweep"),
                      point = text(run, "point");
    const std::size_t n = ++seen[{study, variant, sweep, point}];
    f(run, Row{study, variant, sweep, point, n, {}, {}});
  }
}

// Rows in A's order, then B's runs that A lacks; the n-th occurrence of a point in A meets the
// n-th in B.
std::vector<Row> pair_runs(const json& a, const json& b) {
  std::vector<Row> rows;
  std::map<RunId, std::size_t> index;  // identity -> its row
  auto add = [&](const json& file, bool is_a) {
    const std::map<std::size_t, double> order = order_positions(file);
    for_each_run(file, [&](const json& run, const Row& id) {
      const auto [it, fresh] = index.try_emplace(id.id(), rows.size());
      if (fresh) rows.push_back(id);
      (is_a ? rows[it->second].a : rows[it->second].b) = side_of(run, order);
    });
  };
  add(a, true);
  add(b, false);
  return rows;
}

// ---- options ----------------------------------------------------------------------------------

double q_option(const Parsed& p) {
  if (!p.has("q")) return 0.01;
  const double q = parse_double(p.get("q"), "--q");
  if (!(q > 0 && q < 1))
    throw InputError("--q must be a false discovery rate between 0 and 1, not " + printable(p.get("q"), 40));
  return q;
}

// --min-effect P, in percent ("5" or "5%").
double min_effect_option(const Parsed& p) {
  if (!p.has("min-effect")) return 0.03;
  std::string v = p.get("min-effect");
  if (!v.empty() && v.back() == '%') v.pop_back();
  const double pct = parse_double(v, "--min-effect");
  if (!(pct >= 0 && pct < 100))
    throw InputError("--min-effect must be a percentage from 0 to under 100, not " +
                     printable(p.get("min-effect"), 40));
  return pct / 100;
}

json study_name(const json& results) { return member(member(results, "config"), "study"); }
json gpu_model(const json& results) { return member(member(results, "device"), "name"); }

// DIM's noise by run: the sd of log process medians as it records it, else from its process
// medians; their robust sd; and its variant's shape (harness/cli/compare.hpp).
void calibration_sds(const json& dim, CompareOptions& o) {
  for_each_run(dim, [&](const json& run, const Row& id) {
    if (text(run, "status") != "passed") return;
    const json t = member(run, "timing");
    const ProcessTiming pt = process_timing(t);
    std::vector<double> logs;
    for (double m : pt.medians)
      if (m > 0 && std::isfinite(m)) logs.push_back(std::log(m));
    if (logs.size() != pt.medians.size()) logs.clear();  // a process median of 0: no logs to read
    const json recorded = member(t, "sd_log_process");
    Noise n;
    if (recorded.is_number() && std::isfinite(recorded.get<double>()) && recorded.get<double>() >= 0)
      n.sd = recorded.get<double>();
    else if (logs.size() >= 2)
      n.sd = stats::sample_sd(logs);
    else
      return;
    if (logs.size() >= kMinProcesses) {
      n.robust_sd = stats::robust_sd(logs);
      const double mid = stats::median(logs);
      std::vector<double> shape;
      if (n.robust_sd > 0)
        for (double x : logs) shape.push_back((x - mid) / n.robust_sd);
      if (!shape.empty()) o.variant_shape[{id.study, id.variant}].emplace_back(std::exp(mid), std::move(shape));
    }
    o.noise[id.id()] = n;
    if (!pt.medians.empty()) o.variant_noise[{id.study, id.variant}].emplace_back(stats::median(pt.medians), n);
  });
}

// --calibration DIM.json: a K-process run of the config the files compared ran, on their GPU
// model; anything else would lend one machine's or config's noise to another.
void read_calibration(CompareOptions& o, const std::string& path, const json& a, const json& b) {
  const json dim = read_results(path);
  const std::string shown = printable(path, 80);
  if (!member(dim, "processes").is_object() || process_count(dim) < 2)
    throw InputError("--calibration " + shown + " is a one-process file: its sd comes from `ladder run CONFIG "
                     "--processes K`");
  for (const json* f : {&a, &b}) {
    if (study_name(dim) != study_name(*f))
      throw InputError("--calibration " + shown + " is of study " + printable(study_name(dim).dump(), 60) +
                       ", the files compared of " + printable(study_name(*f).dump(), 60));
    if (gpu_model(dim) != gpu_model(*f))
      throw InputError("--calibration " + shown + " ran on " + printable(gpu_model(dim).dump(), 60) +
                       ", the files compared on " + printable(gpu_model(*f).dump(), 60));
  }
  o.calibration = path;
  calibration_sds(dim, o);
}

// ---- the table --------------------------------------------------------------------------------

// The time the ratio is taken of: the geometric mean of the process medians (one process: its
// median), so that A ms / B ms is the A/B printed at the end of the row.
std::string ms_cell(const std::optional<Side>& s) {
  if (!s) return "-";
  if (!s->timed) return s->status;
  const double g = s->processes() > 1 ? s->geomean() : s->median;
  return fmt::format("{:.4g}", std::isfinite(g) && g > 0 ? g : s->median);
}

std::string ratio_text(double r) { return r >= 0.1 ? fmt::format("{:.3f}", r) : fmt::format("{:.2g}", r); }

std::string icc_cell(const std::optional<Side>& s) {
  return s && s->timed && !std::isnan(s->icc) ? fmt::format("{:.2f}", s->icc) : "";
}

std::string k_cell(const std::optional<Side>& s) {
  return s && s->timed && !s->medians.empty() ? std::to_string(s->processes()) : "";
}

std::string number_cell(double x) { return std::isnan(x) ? "" : fmt::format("{:.2g}", x); }

std::string speedup_cell(const Row& r) {
  if (!comparable(r.a) || !comparable(r.b)) return "-";
  const double ratio = r.a->geomean() / r.b->geomean();
  // Two decimals, as before; a ratio far below 1 keeps its digits (0.004x, not 0.00x).
  return ratio >= 0.1 ? fmt::format("{:.2f}x", ratio) : fmt::format("{:.2g}x", ratio);
}

std::string ratio_cell(const Row& r, const Judgement& j) {
  if (!comparable(r.a) || !comparable(r.b)) return "";
  const std::string ratio = ratio_text(r.b->geomean() / r.a->geomean());
  if (!j.tested()) return ratio;
  return ratio + " [" + ratio_text(std::exp(j.d.ci_low)) + ", " + ratio_text(std::exp(j.d.ci_high)) + "]";
}

std::string notes_cell(const Judgement& j) {
  std::string out = j.drift == 1 ? "drift" : "";
  if (j.heavy_tailed) out += (out.empty() ? "" : ", ") + std::string("heavy-tailed");
  if (!j.rounds_differ.empty()) out += (out.empty() ? "" : ", ") + j.rounds_differ;
  return out;
}

struct DriftCount {
  std::size_t flagged = 0, checked = 0;
  bool warn() const { return checked > 0 && 10 * flagged > checked; }
  std::string warning() const {
    return fmt::format("{} of {} rows checked ({:.0f}%) show drift: both sides' process medians trend with the run "
                       "order (thermal or tenant drift), so their variance is suspect",
                       flagged, checked, 100.0 * double(flagged) / double(checked));
  }
};

DriftCount count_drift(const std::vector<Judgement>& judged) {
  DriftCount c;
  for (const Judgement& j : judged) c.flagged += j.drift == 1, c.checked += j.drift >= 0;
  return c;
}

void print_legend(const CompareOptions& o, const std::vector<Judgement>& judged) {
  std::size_t tested = 0;
  for (const Judgement& j : judged) tested += j.tested();
  fmt::print(
      "\nA ms, B ms: the geometric mean of each side's process medians (one process: its median).\n"
      "A/B: A's geometric mean of process medians over B's (above 1: B is faster); B/A: its inverse with the\n"
      "95% CI. K: processes; ICC: the share of variance between processes; p: Welch's t on log process medians\n"
      "(z with --calibration); q: Benjamini-Hochberg across the {} row{} tested; MDE80: the change detected with\n"
      "80% power; U p: Mann-Whitney on process medians (8+ a side), a diagnostic.\n"
      "verdict, of B against A: slower or faster when q <= {:g}, B/A {} or more from 1 and the means 2 us\n"
      "apart; same when the 90% CI of B/A lies within +-max({}, 2 us / A's time) and the MDE80 within {}; else\n"
      "inconclusive with its MDE; too few processes below {} a side (`ladder run --processes K`) without\n"
      "--calibration.\n"
      "notes: rounds A vs B (the sides took their samples in different rounds, which changes host-bound\n"
      "steps' times), drift (both sides trend with the run order), heavy-tailed (U's p over 10x Welch's, and not\n"
      "significant where Welch's is).\n"
      "options: --q {:g}, --min-effect {:g}%, --calibration {}\n",
      tested, tested == 1 ? "" : "s", o.q, percent(o.min_effect), percent(o.min_effect), percent(o.min_effect),
      kMinProcesses, o.q,
      100 * o.min_effect, o.calibration.empty() ? "none" : printable(o.calibration, 200));
}

void print_comparison(const std::vector<Row>& rows, const std::vector<Judgement>& judged, const CompareOptions& o) {
  std::vector<std::vector<std::string>> table;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const Judgement& j = judged[i];
    table.push_back({r.key(), ms_cell(r.a), k_cell(r.a), icc_cell(r.a), ms_cell(r.b), k_cell(r.b), icc_cell(r.b),
                     ratio_cell(r, j), j.tested() ? number_cell(j.d.p) : "", number_cell(j.q),
                     j.tested() ? percent(j.mde) : "", number_cell(j.u_p), j.verdict.empty() ? "-" : j.verdict,
                     notes_cell(j), speedup_cell(r)});
  }
  // A/B stays the last column: scripts read the speedup at the end of a row.
  print_table({"study/variant [sweep] point", "A ms", "K_A", "ICC_A", "B ms", "K_B", "ICC_B", "B/A [95% CI]", "p",
               "q", "MDE80", "U p", "verdict", "notes", "A/B"},
              table, {false, true, true, true, true, true, true, true, true, true, true, true, false, false, true});
  print_legend(o, judged);
  if (const DriftCount d = count_drift(judged); d.warn()) fmt::print("warning: {}\n", d.warning());
}

// ---- CSV --------------------------------------------------------------------------------------

const std::vector<std::string> kCompareColumns = {
    "study",       "variant",     "sweep",        "point",         "occurrence", "a_status",   "a_median_ms",
    "a_min_ms",    "a_max_ms",    "a_samples",    "b_status",      "b_median_ms", "b_min_ms",  "b_max_ms",
    "b_samples",   "speedup",     "verdict",      "p_value",       "a_processes", "b_processes", "ratio",
    "ratio_ci_low", "ratio_ci_high", "q_value",   "mde80",         "icc_a",      "icc_b",      "u_p_value",
    "drift",       "heavy_tailed", "test"};

std::string full_or_empty(double x) { return std::isnan(x) ? "" : full(x); }

std::vector<std::string> side_cells(const std::optional<Side>& s) {
  if (!s) return {"", "", "", "", ""};
  if (!s->timed) return {s->status, "", "", "", ""};
  return {s->status, full(s->median), full(s->lo), full(s->hi), std::to_string(s->samples)};
}

std::vector<std::string> csv_row(const Row& r, const Judgement& j) {
  std::vector<std::string> cells = {r.study, r.variant, r.sweep, r.point, std::to_string(r.occurrence)};
  for (const auto& s : {r.a, r.b}) {
    const auto c = side_cells(s);
    cells.insert(cells.end(), c.begin(), c.end());
  }
  const bool both = comparable(r.a) && comparable(r.b);
  cells.push_back(both ? full(r.a->geomean() / r.b->geomean()) : "");
  cells.push_back(j.verdict);
  cells.push_back(j.tested() ? full(j.d.p) : "");
  cells.push_back(k_cell(r.a));
  cells.push_back(k_cell(r.b));
  cells.push_back(both ? full(r.b->geomean() / r.a->geomean()) : "");
  cells.push_back(j.tested() ? full(std::exp(j.d.ci_low)) : "");
  cells.push_back(j.tested() ? full(std::exp(j.d.ci_high)) : "");
  cells.push_back(full_or_empty(j.q));
  cells.push_back(j.tested() ? full(j.mde) : "");
  cells.push_back(r.a && r.a->timed ? full_or_empty(r.a->icc) : "");
  cells.push_back(r.b && r.b->timed ? full_or_empty(r.b->icc) : "");
  cells.push_back(full_or_empty(j.u_p));
  cells.push_back(j.drift < 0 ? "" : std::to_string(j.drift));
  // Checkable with the U test (8+ processes a side) or DIM's process medians (z).
  const bool checkable = j.tested() && (!std::isnan(j.u_p) || j.test != "welch");
  cells.push_back(!checkable ? "" : j.heavy_tailed ? "1" : "0");
  cells.push_back(j.test);
  return cells;
}

void print_comparison_csv(const std::vector<Row>& rows, const std::vector<Judgement>& judged) {
  std::string out = csv_line(kCompareColumns, true);
  for (std::size_t i = 0; i < rows.size(); ++i) out += csv_line(csv_row(rows[i], judged[i]), true);
  fmt::print("{}", out);
  // stdout is the CSV alone.
  if (const DriftCount d = count_drift(judged); d.warn()) fmt::print(stderr, "ladder: warning: {}\n", d.warning());
}

}  // namespace

const Command compare_command{
    .name = "compare",
    .summary = "two results files run by run: process-level verdicts (slower, faster, same, inconclusive)",
    .positionals = {"A.json", "B.json"},
    .options = {{"csv", "", "the same rows as CSV on stdout, numbers at full precision"},
                {"q", "Q", "Benjamini-Hochberg's false discovery rate across the rows (default 0.01)"},
                {"min-effect", "P", "the smallest change in percent called slower or faster (default 3)"},
                {"calibration", "DIM.json", "a K-process run of the study on the same GPU model: z-tests for few processes"}},
    .about = kCompareAbout,
    .body = compare,
};

int compare(const Parsed& p) {
  if (p.positional.size() != 2) throw InputError("compare needs two results files");
  CompareOptions o;
  o.q = q_option(p);
  o.min_effect = min_effect_option(p);
  const json a = read_results(p.positional[0]), b = read_results(p.positional[1]);
  if (p.has("calibration")) read_calibration(o, p.get("calibration"), a, b);
  const std::vector<Row> rows = pair_runs(a, b);
  const std::vector<Judgement> judged = judge(rows, o);
  if (p.has("csv"))
    print_comparison_csv(rows, judged);
  else
    print_comparison(rows, judged, o);
  return 0;
}

}  // namespace ladder::cli
