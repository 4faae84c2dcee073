// `ladder compare` and `ladder export`: results files read back for people, as a table of
// speedups that tells a real difference from run-to-run noise, or as CSV for spreadsheets.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <tuple>

#include "../../datagen/base/atomic_file.hpp"
#include "../../datagen/base/errors.hpp"
#include "../../datagen/base/printable.hpp"
#include "../results.hpp"
#include "args.hpp"
#include "commands.hpp"
#include "export.hpp"
#include "out_path.hpp"

namespace ladder::cli {
namespace {

using json = nlohmann::json;

// Two medians closer than these are noise whatever their samples say: two processes differ by
// more than the samples of one spread (clocks, launch, memory placement). Two identical runs of
// configs/dtw/smoke.json on an H100 (5 samples a side) gave medians up to 2.3% apart for a
// 3.6 ms step (p = 0.008) and up to 4.4 us (6-9%) for kernels of 10-50 us.
constexpr double kNoiseFloor = 0.03;
constexpr double kNoiseFloorMs = 0.01;
// The significance level of the rank test, and the samples a side it advises, as Google
// Benchmark's compare.py has them.
constexpr double kAlpha = 0.05;
constexpr std::size_t kAdvisedSamples = 9;

constexpr const char* kCompareAbout =
    "One row per run (study/variant [sweep] point) in either file: each side's median time,\n"
    "its spread (+-x%: half the range of the samples, max - min, relative to the median; n=1\n"
    "for a single sample), a verdict and A/B = A's median / B's median (above 1: B is faster).\n"
    "The verdict says how B compares with A, by the Mann-Whitney U test on the two sets of\n"
    "samples (two-sided, as Google Benchmark's compare.py): `faster` or `slower` when p < 0.05\n"
    "and the medians differ by 3% and 10 us or more, else `noise`; `too few samples` when no\n"
    "outcome of the test could reach p < 0.05 with so few (3 and 3 cannot: 4 and 4 can). A run\n"
    "that "
    "failed validation is marked INCORRECT (A), (B) or (A, B); a run that was not timed shows\n"
    "its status instead of a time, and a run missing from one file shows -. A point a sweep\n"
    "lists twice is matched by occurrence: the second in A with the second in B.\n"
    "--csv writes the same rows as CSV (RFC 4180) on stdout, numbers at full precision:\n"
    "study,variant,sweep,point,occurrence,a_status,a_median_ms,a_min_ms,a_max_ms,a_samples,\n"
    "b_status,b_median_ms,b_min_ms,b_max_ms,b_samples,speedup,verdict,p_value\n";

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
    "that is not a number is refused; a run with a median only is one iteration, said on stderr.\n";

// ---- CSV -------------------------------------------------------------------------------------

// RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A cell of CSV bound for stdout (a terminal, often): each of its lines escaped as names are
// on a terminal (printable_all: ESC, BEL, CR, C1 and bidirectional controls as \xNN), its line
// breaks kept, as a quoted field may hold them. A file written with --out keeps the text as is.
std::string stdout_cell(const std::string& s) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t nl; (nl = s.find('\n', from)) != std::string::npos; from = nl + 1)
    out += printable_all(s.substr(from, nl - from)) + "\n";
  return out + printable_all(s.substr(from));
}

// RFC 4180 ends records with CRLF; spreadsheets and csv readers expect it.
std::string csv_line(const std::vector<std::string>& cells, bool to_stdout) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i)
    out += (i ? "," : "") + csv_field(to_stdout ? stdout_cell(cells[i]) : cells[i]);
  return out + "\r\n";
}

// Full precision: the shortest text that reads back as the same double.
std::string full(double x) { return fmt::format("{}", x); }

// ---- reading runs defensively ----------------------------------------------------------------
// read_results checks only what every reader needs (names, a numeric median); anything else in
// a hand-edited file may be missing or of another type, and reads as absent here.

json member(const json& obj, const char* key) {
  return obj.is_object() && obj.contains(key) ? obj[key] : json();
}

std::string text(const json& obj, const char* key) {
  const json v = member(obj, key);
  return v.is_string() ? v.get<std::string>() : "";
}

// A JSON value as one cell: text as is, numbers as the file has them, null or absent empty.
std::string cell(const json& v) {
  if (v.is_null()) return "";
  return v.is_string() ? v.get<std::string>() : v.dump();
}

// ---- compare ---------------------------------------------------------------------------------

// One run as compare sees it: its status and, when timed, its median and the range [lo, hi]
// of its samples.
struct Side {
  std::string status;
  bool timed = false;
  double median = 0, lo = 0, hi = 0;
  std::size_t samples = 0;
  std::vector<double> values;  // the samples (the median alone where a file lists none)
};

Side side_of(const json& run) {
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
    if (x.is_number()) s.values.push_back(x.get<double>());
  }
  if (s.values.empty()) s.values = {s.median};
  return s;
}

// A time a speedup can be taken of: measured (passed, or incorrect and marked so) and positive.
bool comparable(const std::optional<Side>& s) {
  return s && s->timed && (s->status == "passed" || s->status == "incorrect") &&
         s->median > 0 && std::isfinite(s->median);
}

// The smallest two-sided p-value the rank test can give for n and m samples: both sets wholly
// apart, 2 / C(n + m, n) (3 and 3: 0.1; 4 and 4: 0.029; 5 and 5: 0.008).
double smallest_p(std::size_t n, std::size_t m) {
  double c = 1;  // C(n + m, n), built up factor by factor
  for (std::size_t i = 1; i <= n; ++i) c = c * double(m + i) / double(i);
  return std::min(1.0, 2 / c);
}

// U of `a` against `b` (pairs where a's sample is the larger, ties counting a half) from the
// ranks of the pooled samples, sorted once: U = R_a - n(n+1)/2, equal values sharing their
// average rank. Also the sum of t^3 - t over groups of t equal values (the tie correction).
// Counting pairs instead takes n * m steps: minutes for two runs of 100,000 samples.
struct RankSums {
  double u = 0, ties = 0;
};

RankSums rank_sums(const std::vector<double>& a, const std::vector<double>& b) {
  std::vector<std::pair<double, bool>> all;  // (sample, from a)
  all.reserve(a.size() + b.size());
  for (double x : a) all.emplace_back(x, true);
  for (double y : b) all.emplace_back(y, false);
  std::sort(all.begin(), all.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  RankSums s;
  double rank_sum_a = 0;
  for (std::size_t i = 0, j; i < all.size(); i = j) {
    std::size_t from_a = 0;
    for (j = i; j < all.size() && all[j].first == all[i].first; ++j) from_a += all[j].second;
    const double t = double(j - i);
    rank_sum_a += double(from_a) * double(i + j + 1) / 2;  // ranks i+1 .. j, averaged
    s.ties += t * t * t - t;
  }
  const double n = double(a.size());
  s.u = rank_sum_a - n * (n + 1) / 2;
  return s;
}

// The two-sided p-value of the Mann-Whitney U test of `a` against `b`, as SciPy's
// mannwhitneyu (which Google Benchmark's compare.py calls) computes it: the exact
// distribution of U for small samples without ties, else the normal approximation with the
// tie correction and a continuity correction.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b) {
  const std::size_t n = a.size(), m = b.size();
  const auto [u, ties] = rank_sums(a, b);
  if (ties == 0 && std::min(n, m) <= 8 && std::max(n, m) <= 400) {
    // count[k][s]: orderings of k of the smaller set's samples and j of the other's with U = s,
    // for j = 0, 1, ... in turn (the largest sample is the smaller set's, adding j to U, or
    // the other's). U's distribution does not depend on which set is called a.
    const std::size_t k_max = std::min(n, m), j_max = std::max(n, m), top = n * m;
    std::vector<std::vector<double>> count(k_max + 1, std::vector<double>(top + 1, 0));
    for (std::size_t k = 0; k <= k_max; ++k) count[k][0] = 1;  // j = 0: U is 0
    for (std::size_t j = 1; j <= j_max; ++j)
      for (std::size_t k = 1; k <= k_max; ++k)
        for (std::size_t s = top + 1; s-- > 0;)
          count[k][s] += s >= j ? count[k - 1][s - j] : 0;
    const std::vector<double>& dist = count[k_max];
    const double total = std::accumulate(dist.begin(), dist.end(), 0.0);
    const std::size_t lo = std::size_t(std::min(u, double(top) - u));
    double tail = 0;
    for (std::size_t s = 0; s <= lo; ++s) tail += dist[s];
    return std::min(1.0, 2 * tail / total);
  }
  const double nn = double(n), mm = double(m), big = nn + mm;
  const double sigma = std::sqrt(nn * mm / 12 * ((big + 1) - ties / (big * (big - 1))));
  if (sigma == 0) return 1;
  const double z = (std::fabs(u - nn * mm / 2) - 0.5) / sigma;
  return std::min(1.0, std::erfc(std::max(z, 0.0) / std::sqrt(2.0)));
}

// Whether B differs from A beyond run-to-run noise: the rank test of Google Benchmark's
// compare.py on the samples (p < kAlpha), and medians kNoiseFloor (3%) and kNoiseFloorMs or
// more apart. Why a
// floor: samples taken within one run do not show what differs between runs (clocks,
// temperature, other tenants). Why `too few samples`: with 3 and 3 samples even two wholly
// separate sets give p = 0.1, so no difference could be shown, and a single outlier would
// otherwise decide.
struct Verdict {
  std::string text;
  double p = -1;  // the test's p-value, -1 where it was not taken
};

Verdict verdict(const std::optional<Side>& a, const std::optional<Side>& b) {
  const bool bad_a = a && a->status == "incorrect", bad_b = b && b->status == "incorrect";
  // A failed validation is said first: its time is no achievement.
  if (bad_a && bad_b) return {"INCORRECT (A, B)"};
  if (bad_a || bad_b) return {bad_a ? "INCORRECT (A)" : "INCORRECT (B)"};
  if (!comparable(a) || !comparable(b)) return {""};
  if (smallest_p(a->values.size(), b->values.size()) >= kAlpha) return {"too few samples"};
  const double ratio = a->median / b->median, p = mann_whitney_p(a->values, b->values);
  if (std::max(ratio, 1 / ratio) < 1 + kNoiseFloor || p >= kAlpha ||
      std::fabs(a->median - b->median) < kNoiseFloorMs)
    return {"noise", p};
  return {ratio > 1 ? "faster" : "slower", p};
}

std::string p_text(const Verdict& v) { return v.p < 0 ? "" : fmt::format("{:.3g}", v.p); }

// A row: the run's identity and what each file has for it. A run is known by its study,
// variant, sweep and point and, where a sweep lists a point twice, by which occurrence of that
// point it is (1, 2, ...): kept apart from the names, so that no text a point may hold (a
// point named "p #2") can make two runs one.
struct Row {
  std::string study, variant, sweep, point;
  std::size_t occurrence = 1;
  std::optional<Side> a, b;
  std::string key() const {
    return study + "/" + variant + (sweep.empty() ? "" : " [" + sweep + "]") + " " + point +
           (occurrence > 1 ? " (occurrence " + std::to_string(occurrence) + ")" : "");
  }
};

// Rows in A's order, then B's runs that A lacks; the n-th occurrence of a point in A meets the
// n-th in B.
std::vector<Row> pair_runs(const json& a, const json& b) {
  using Name = std::tuple<std::string, std::string, std::string, std::string>;
  using Key = std::pair<Name, std::size_t>;
  std::vector<Row> rows;
  std::map<Key, std::size_t> index;  // identity -> its row
  auto add = [&](const json& file, bool is_a) {
    std::map<Name, std::size_t> seen;
    for (const json& run : file["runs"]) {
      Row id{text(run, "study"), text(run, "variant"), text(run, "sweep"), text(run, "point"),
             1, {}, {}};
      const Name name{id.study, id.variant, id.sweep, id.point};
      id.occurrence = ++seen[name];
      const auto [it, fresh] = index.try_emplace(Key{name, id.occurrence}, rows.size());
      if (fresh) rows.push_back(id);
      (is_a ? rows[it->second].a : rows[it->second].b) = side_of(run);
    }
  };
  add(a, true);
  add(b, false);
  return rows;
}

std::string speedup_cell(const Row& r) {
  if (!comparable(r.a) || !comparable(r.b)) return "-";
  const double ratio = r.a->median / r.b->median;
  // Two decimals, as before; a ratio far below 1 keeps its digits (0.004x, not 0.00x).
  return ratio >= 0.1 ? fmt::format("{:.2f}x", ratio) : fmt::format("{:.2g}x", ratio);
}

void print_comparison(const std::vector<Row>& rows) {
  bool few = false;  // a run compared on fewer samples than advised
  auto ms = [](const std::optional<Side>& s) -> std::string {
    if (!s) return "-";
    return s->timed ? fmt::format("{:.4g}", s->median) : s->status;
  };
  auto spread = [](const std::optional<Side>& s) -> std::string {
    if (!s || !s->timed || !(s->median > 0)) return "";
    if (s->samples == 1) return "n=1";
    // GPU timings often vary by well under 1%: two decimals there, so ±0.04% is not ±0.0%.
    const double pct = 50 * (s->hi - s->lo) / s->median;
    return pct < 1 ? fmt::format("±{:.2f}%", pct) : fmt::format("±{:.1f}%", pct);
  };
  std::vector<std::vector<std::string>> table;
  for (const Row& r : rows) {
    const Verdict v = verdict(r.a, r.b);
    table.push_back({r.key(), ms(r.a), spread(r.a), ms(r.b), spread(r.b), p_text(v),
                     v.text.empty() ? "-" : v.text, speedup_cell(r)});
    few = few || v.text == "too few samples" ||
          (v.p >= 0 && std::min(r.a->values.size(), r.b->values.size()) < kAdvisedSamples);
  }
  // A/B stays the last column: scripts read the speedup at the end of a row.
  print_table({"study/variant [sweep] point", "A ms", "A ±", "B ms", "B ±", "p", "verdict", "A/B"},
              table, {false, true, true, true, true, true, false, true});
  fmt::print(
      "\nA/B: A's median over B's (above 1: B is faster). ±: half the samples' range over the "
      "median.\nverdict, of B against A: faster or slower when the Mann-Whitney U test gives "
      "p < 0.05 and the\nmedians differ by 3% and 10 us or more, else noise; too few samples when no "
      "outcome could reach p < 0.05.\n");
  if (few)
    fmt::print("Some runs have fewer than {} samples a side: results may be unreliable; {}+ repetitions "
               "are advised (as Google Benchmark's compare.py advises).\n", kAdvisedSamples, kAdvisedSamples);
}

void print_comparison_csv(const std::vector<Row>& rows) {
  std::string out = csv_line({"study", "variant", "sweep", "point", "occurrence", "a_status", "a_median_ms",
                              "a_min_ms", "a_max_ms", "a_samples", "b_status", "b_median_ms",
                              "b_min_ms", "b_max_ms", "b_samples", "speedup", "verdict", "p_value"},
                             true);
  auto side = [](const std::optional<Side>& s) -> std::vector<std::string> {
    if (!s) return {"", "", "", "", ""};
    if (!s->timed) return {s->status, "", "", "", ""};
    return {s->status, full(s->median), full(s->lo), full(s->hi), std::to_string(s->samples)};
  };
  for (const Row& r : rows) {
    std::vector<std::string> cells = {r.study, r.variant, r.sweep, r.point,
                                      std::to_string(r.occurrence)};
    for (const auto& s : {r.a, r.b}) {
      const auto c = side(s);
      cells.insert(cells.end(), c.begin(), c.end());
    }
    cells.push_back(comparable(r.a) && comparable(r.b) ? full(r.a->median / r.b->median) : "");
    const Verdict v = verdict(r.a, r.b);
    cells.push_back(v.text);
    cells.push_back(v.p < 0 ? "" : full(v.p));
    out += csv_line(cells, true);
  }
  fmt::print("{}", out);
}

// ---- export ----------------------------------------------------------------------------------

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

// Google Benchmark's JSON format (what its --benchmark_format=json writes and its
// tools/compare.py reads): a `context`, then per timed run one `iteration` entry per sample,
// all named alike (study/variant[/sweep]/point), and its aggregates named NAME_mean,
// NAME_median, NAME_stddev and NAME_cv. ladder times wall clock only, so cpu_time repeats
// real_time. The run's label, status and throughput ride along as fields compare.py ignores.
// A run with a median but no samples (a hand-made or older file) is one iteration holding its
// median, marked so, and said on stderr: never dropped without a word.
json export_gbench(const json& results) {
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
  // The timed runs with what they export: their samples, or their median alone.
  std::vector<const json*> timed;
  std::vector<std::vector<json>> values;
  std::vector<std::string> plain, median_only;
  for (std::size_t i = 0; i < results["runs"].size(); ++i) {
    const json& run = results["runs"][i];
    const json timing = member(run, "timing");
    if (!timing.is_object()) continue;  // not timed (read_results: a timing has a median)
    std::vector<json> samples = gbench_samples(member(timing, "samples"), run, i);
    if (samples.empty()) {
      samples = {timing["median"]};
      median_only.push_back(run_shown(run, i));
    }
    timed.push_back(&run);
    values.push_back(std::move(samples));
    plain.push_back(text(run, "study") + "/" + text(run, "variant") +
                    (text(run, "sweep").empty() ? "" : "/" + text(run, "sweep")) + "/" + text(run, "point"));
  }
  std::vector<bool> aggregated;  // as below: aggregates only for repeated runs
  for (const std::vector<json>& v : values) aggregated.push_back(v.size() >= 2);
  const std::vector<std::string> names = gbench_names(plain, aggregated);
  json benchmarks = json::array();
  for (std::size_t r = 0; r < timed.size(); ++r) {
    const json& run = *timed[r];
    const json timing = member(run, "timing");
    const std::vector<json>& samples = values[r];
    const std::string& name = names[r];
    json base = {{"name", name}, {"family_index", r}, {"per_family_instance_index", 0},
                 {"run_name", name}, {"repetitions", samples.size()}, {"threads", 1},
                 {"time_unit", "ms"}, {"label", member(run, "label")}, {"status", member(run, "status")}};
    if (!member(timing, "samples").is_array() || member(timing, "samples").empty())
      base["ladder_note"] = "the results file has this run's median only, no samples";
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
      const json v = member(timing, agg);
      if (!v.is_number() || samples.size() < 2) continue;
      json b = base;
      b.update({{"name", name + "_" + agg}, {"run_type", "aggregate"}, {"aggregate_name", agg},
                {"aggregate_unit", std::string(agg) == "cv" ? "percentage" : "time"},
                {"iterations", samples.size()}, {"real_time", v}, {"cpu_time", v}});
      benchmarks.push_back(b);
    }
  }
  if (!median_only.empty())
    fmt::print(stderr, "ladder: warning: {} run{} with a median but no samples (first: {}): each is exported "
               "as one iteration holding its median, marked ladder_note\n", median_only.size(),
               median_only.size() == 1 ? "" : "s", median_only.front());
  return {{"context", context}, {"benchmarks", benchmarks}};
}

}  // namespace

std::string export_csv_text(const json& results) { return export_csv(results, false); }
json export_gbench_json(const json& results) { return export_gbench(results); }

const Command compare_command{
    .name = "compare",
    .summary = "speedups between two results files, noise marked",
    .positionals = {"A.json", "B.json"},
    .options = {{"csv", "", "the same rows as CSV on stdout, numbers at full precision"}},
    .about = kCompareAbout,
    .body = compare,
};

const Command export_command{
    .name = "export",
    .summary = "a results file as CSV (spreadsheets) or Google Benchmark's JSON (its compare.py)",
    .positionals = {"RESULTS.json"},
    .options = {{"format", "csv|gbench", "CSV (RFC 4180), or Google Benchmark's JSON format"},
                {"csv", "", "the same as --format csv"},
                {"out", "FILE", "write it atomically to FILE instead of stdout"}},
    .about = kExportAbout,
    .body = export_results,
};

int compare(const Parsed& p) {
  if (p.positional.size() != 2) throw InputError("compare needs two results files");
  const json a = read_results(p.positional[0]), b = read_results(p.positional[1]);
  const std::vector<Row> rows = pair_runs(a, b);
  if (p.has("csv"))
    print_comparison_csv(rows);
  else
    print_comparison(rows);
  return 0;
}

int export_results(const Parsed& p) {
  if (p.positional.size() != 1) throw InputError("export needs exactly one results file");
  // The format is always named: a later default must not change what a bare `export` means.
  if (!p.has("format") && !p.has("csv")) throw InputError("export needs --format csv|gbench (or --csv)");
  const std::string format = p.has("format") ? p.get("format") : "csv";
  if (format != "csv" && format != "gbench")
    throw InputError("--format must be csv or gbench, not '" + printable(format, 40) + "'");
  if (p.has("csv") && format != "csv") throw InputError("--csv and --format " + format + " disagree");
  // The --out path is checked before reading and created only once everything is checked.
  const std::string out = p.has("out") ? results_target(p.get("out")) : "";
  if (!out.empty()) {
    check_out_creatable(out);
    refuse_overwriting(out, {p.positional[0]}, "--out");
  }
  const json results = read_results(p.positional[0]);
  // JSON as ASCII (\uXXXX escapes): the same text for a program, and no raw control or
  // bidirectional character for a terminal.
  const std::string text =
      format == "csv" ? export_csv(results, out.empty()) : export_gbench(results).dump(2, ' ', true) + "\n";
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
