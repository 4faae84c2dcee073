// compare's verdicts under the process-level contract: the sample is a process. Each side's
// process medians are the observations; the effect is the ratio of their geometric means, B
// over A, tested by Welch's t on the logs (or, for sides of fewer than 5 processes, by a z-test
// with the sd a dimensioning run measured), Benjamini-Hochberg across the rows tested, a
// practical floor for slower/faster, TOST for same, and the MDE where neither can be said.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "compare.hpp"

namespace ladder::cli {

const Noise* CompareOptions::variant_noise_near(const std::string& study, const std::string& variant,
                                               double ms) const {
  const auto it = variant_noise.find({study, variant});
  if (it == variant_noise.end() || !(ms > 0)) return nullptr;
  const Noise* best = nullptr;
  double distance = INFINITY;
  for (const auto& [median, noise] : it->second)
    if (const double d = std::fabs(std::log(median / ms)); median > 0 && d < distance) distance = d, best = &noise;
  return best;
}

std::vector<double> CompareOptions::shape_near(const std::string& study, const std::string& variant,
                                               double ms) const {
  std::vector<double> pooled;
  const auto it = variant_shape.find({study, variant});
  if (it == variant_shape.end() || !(ms > 0)) return pooled;
  for (const auto& [median, shape] : it->second)
    if (median > 0 && std::fabs(std::log10(median / ms)) <= 1) pooled.insert(pooled.end(), shape.begin(), shape.end());
  return pooled;
}

double Side::geomean() const {
  if (medians.size() == 1) return medians[0];
  double sum = 0;
  for (double m : medians) sum += std::log(m);
  return std::exp(sum / double(medians.size()));
}

bool comparable(const std::optional<Side>& s) {
  return s && s->timed && (s->status == "passed" || s->status == "incorrect") && s->median > 0 &&
         std::isfinite(s->median) && !s->medians.empty();
}

std::string percent(double fraction) {
  const double pct = 100 * fraction;
  return std::fabs(pct) < 10 ? fmt::format("{:.1f}%", pct) : fmt::format("{:.0f}%", pct);
}

namespace {

std::vector<double> logs(const std::vector<double>& v) {
  std::vector<double> out;
  for (double x : v) out.push_back(std::log(x));
  return out;
}

// The trend of a side's log process medians over the run order, when it has one to fit.
std::optional<stats::Slope> trend(const Side& s) {
  if (s.positions.size() != s.medians.size() || s.medians.size() < 3) return std::nullopt;
  const stats::Slope fit = stats::slope(s.positions, logs(s.medians));
  if (std::isnan(fit.p)) return std::nullopt;
  return fit;
}

// Drift (both sides trend with the run order at p < 0.05, the same way): interleaving keeps
// it from biasing A against B, but the variance the test assumes is then suspect.
int drift(const Side& a, const Side& b) {
  const auto ta = trend(a), tb = trend(b);
  if (!ta || !tb) return -1;
  return ta->p < 0.05 && tb->p < 0.05 && ta->slope * tb->slope > 0;
}

// The step's time at the row's size, for finding DIM's runs near it: the faster side's, since
// a wait (the jumps below) only ever adds.
double typical_ms(const Row& r) { return std::min(r.a->geomean(), r.b->geomean()); }

// The z-test with DIM's noise. Where the step's shape in DIM at sizes near the row's puts a difference this large
// further out than the normal tail does, the share of resampled differences is the p-value and
// the row says heavy-tailed: the normal tail alone gave OpenMP steps, whose calls now and then
// wait milliseconds for a thread, false verdicts between two processes of one binary. A step
// whose processes in DIM jumped kFar robust sds or more (a normal spread never does) jumps by
// an amount set by the wait, not by its own scale, so a difference beyond kFar is read as one
// of kFar: its p is at least how often the step jumps that far.
void calibrated(Judgement& j, const Row& r, const Noise& n, const CompareOptions& o) {
  constexpr double kFar = 10;
  const Side &a = *r.a, &b = *r.b;
  j.d = stats::z_test(logs(a.medians), logs(b.medians), n.sd);
  const std::vector<double> shape = o.shape_near(r.study, r.variant, typical_ms(r));
  if (shape.empty() || !(n.robust_sd > 0)) return;
  double far = 0;
  for (double x : shape) far = std::max(far, std::fabs(x));
  double size = std::fabs(j.d.diff) / n.robust_sd;
  if (far >= kFar) size = std::min(size, kFar);
  const double tail = stats::resampled_tail(shape, a.processes(), b.processes(), size);
  if (tail > j.d.p) {
    j.d.p = tail;
    j.dim_tail = true;
  }
}

// The row's test, before BH: Welch with enough processes, else the z-test with a known sd,
// else the reason there is none.
Judgement test_row(const Row& r, const CompareOptions& o) {
  Judgement j;
  const bool bad_a = r.a && r.a->status == "incorrect", bad_b = r.b && r.b->status == "incorrect";
  // A failed validation is said first: its time is no achievement.
  if (bad_a || bad_b) {
    j.verdict = bad_a && bad_b ? "INCORRECT (A, B)" : bad_a ? "INCORRECT (A)" : "INCORRECT (B)";
    return j;
  }
  if (!comparable(r.a) || !comparable(r.b)) return j;
  const Side &a = *r.a, &b = *r.b;
  j.drift = drift(a, b);
  if (a.rounds != b.rounds) j.rounds_differ = "rounds " + std::to_string(a.rounds) + " vs " + std::to_string(b.rounds);
  if (a.processes() >= kMinProcesses && b.processes() >= kMinProcesses) {
    j.d = stats::welch(logs(a.medians), logs(b.medians));
    j.test = "welch";
  } else if (const auto n = o.noise.find(r.id()); n != o.noise.end()) {
    calibrated(j, r, n->second, o);
    j.test = "z";
  } else if (const Noise* vn = o.variant_noise_near(r.study, r.variant, typical_ms(r))) {
    calibrated(j, r, *vn, o);
    j.test = "z by variant";
  } else {
    j.verdict = "too few processes";
    return j;
  }
  j.mde = stats::mde80(j.d.se, j.d.df);
  if (a.processes() >= kRankTestProcesses && b.processes() >= kRankTestProcesses)
    j.u_p = stats::mann_whitney_p(a.medians, b.medians);
  return j;
}

// slower/faster: BH-significant and beyond both floors; same: the 90% interval inside the
// margin and a change of the relative floor (3%) detectable, so that `same` never stands for
// "too noisy to tell"; else inconclusive, with the change the test could have seen. `threshold`: the p
// below which BH rejects in this comparison (k* Q / m for k* rows rejected of m).
void decide(Judgement& j, const Row& r, const CompareOptions& o, double threshold) {
  const double ga = r.a->geomean(), gb = r.b->geomean(), ratio = gb / ga;
  const bool significant = j.q <= o.q;
  if (significant && std::fabs(ratio - 1) >= o.min_effect && std::fabs(gb - ga) >= kFloorMs)
    j.verdict = ratio > 1 ? "slower" : "faster";
  else if (const double margin = std::max(o.min_effect, kFloorMs / ga);
           stats::equivalent(j.d, std::log1p(margin)) && j.mde <= o.min_effect)
    j.verdict = "same";
  else
    j.verdict = "inconclusive (MDE " + percent(j.mde) + ")";
  // Welch is slightly anticonservative under heavy-tailed process effects. A row Welch alone
  // makes significant (the rank test of the same medians, in Welch's place, would not pass BH)
  // with a U p ten times Welch's says so.
  j.heavy_tailed =
      j.dim_tail || (significant && !std::isnan(j.u_p) && j.u_p > 10 * j.d.p && j.u_p > threshold);
}

}  // namespace

std::vector<Judgement> judge(const std::vector<Row>& rows, const CompareOptions& o) {
  std::vector<Judgement> out;
  std::vector<double> p;
  for (const Row& r : rows) {
    out.push_back(test_row(r, o));
    p.push_back(out.back().tested() ? out.back().d.p : kNaN);
  }
  const std::vector<double> q = stats::bh_qvalues(p);
  double tested = 0, rejected = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) tested += !std::isnan(q[i]), rejected += q[i] <= o.q;
  const double threshold = tested > 0 ? rejected * o.q / tested : 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!out[i].tested()) continue;
    out[i].q = q[i];
    decide(out[i], rows[i], o, threshold);
  }
  return out;
}

}  // namespace ladder::cli
