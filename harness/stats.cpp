#include "stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <utility>

namespace ladder::stats {

double median(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("median of no values");
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + mid, v.end());
  if (v.size() % 2) return v[mid];
  const double upper = v[mid];
  return (*std::max_element(v.begin(), v.begin() + mid) + upper) / 2;
}

double mean(const std::vector<double>& v) {
  if (v.empty()) throw std::invalid_argument("mean of no values");
  double sum = 0;
  for (double x : v) sum += x;
  return sum / double(v.size());
}

double sample_sd(const std::vector<double>& x) {
  if (x.size() < 2) return 0;
  const double m = mean(x);
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  return std::sqrt(ss / double(x.size() - 1));
}

Components variance_components(const std::vector<std::vector<double>>& samples_by_process) {
  Components c;
  std::vector<std::vector<double>> logs;
  std::vector<double> log_medians;  // of each process's median, as compare tests it
  for (const auto& group : samples_by_process) {
    if (group.empty()) continue;
    std::vector<double> l;
    for (double x : group) l.push_back(std::log(x));
    logs.push_back(std::move(l));
    log_medians.push_back(std::log(median(group)));
  }
  c.processes = logs.size();
  if (logs.empty()) return c;
  double n_total = 0, grand = 0, sum_sq_sizes = 0;
  std::vector<double> means;
  for (const auto& l : logs) {
    double m = 0;
    for (double v : l) m += v;
    means.push_back(m / double(l.size()));
    n_total += double(l.size());
    sum_sq_sizes += double(l.size()) * double(l.size());
    grand += m;
  }
  grand /= n_total;
  const double k = double(logs.size());
  c.samples_per_process = n_total / k;
  double ssw = 0, ssb = 0;
  for (std::size_t i = 0; i < logs.size(); ++i) {
    for (double v : logs[i]) ssw += (v - means[i]) * (v - means[i]);
    ssb += double(logs[i].size()) * (means[i] - grand) * (means[i] - grand);
  }
  const double msw = n_total > k ? ssw / (n_total - k) : 0;
  c.sd_log_within = std::sqrt(msw);
  if (k >= 2) {
    const double msb = ssb / (k - 1);
    const double n0 = (n_total - sum_sq_sizes / n_total) / (k - 1);  // the mean group size, weighted
    c.sd_log_between = n0 > 0 ? std::sqrt(std::max(0.0, (msb - msw) / n0)) : 0;
    c.sd_log_process = sample_sd(log_medians);
  }
  const double total = c.sd_log_between * c.sd_log_between + msw;
  c.icc = total > 0 ? c.sd_log_between * c.sd_log_between / total : 0;
  return c;
}

// ---- a difference of means and its test ------------------------------------------------------

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// t, p and the 95% interval of an estimate. No spread (SE 0): the difference is certain, so p
// is 0 for a difference and 1 for none.
Difference finish(double diff, double se, double df) {
  Difference d{diff, se, df};
  if (se > 0) {
    d.t = diff / se;
    d.p = t_two_sided_p(d.t, df);
  } else {
    d.t = diff == 0 ? 0 : std::copysign(kInf, diff);
    d.p = diff == 0 ? 1 : 0;
  }
  const Interval ci = confidence_interval(d, 0.95);
  d.ci_low = ci.low;
  d.ci_high = ci.high;
  return d;
}

}  // namespace

Interval confidence_interval(const Difference& d, double level) {
  if (!(d.se > 0)) return {d.diff, d.diff};
  const double half = t_quantile(1 - (1 - level) / 2, d.df) * d.se;
  return {d.diff - half, d.diff + half};
}

Difference welch(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() < 2 || b.size() < 2) throw std::invalid_argument("Welch's test needs two values a side");
  const double na = double(a.size()), nb = double(b.size());
  const double sa = sample_sd(a), sb = sample_sd(b);
  const double va = sa * sa / na, vb = sb * sb / nb;  // each mean's variance
  const double se = std::sqrt(va + vb);
  // Welch-Satterthwaite; with no spread at all it is undefined, and the pooled df stands in.
  const double df = se > 0 ? (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1)) : na + nb - 2;
  return finish(mean(b) - mean(a), se, df);
}

Difference z_test(const std::vector<double>& a, const std::vector<double>& b, double sd) {
  if (a.empty() || b.empty()) throw std::invalid_argument("a z-test needs a value a side");
  if (!(sd >= 0)) throw std::invalid_argument("a z-test needs a known sd >= 0");
  return finish(mean(b) - mean(a), sd * std::sqrt(1 / double(a.size()) + 1 / double(b.size())), kInf);
}

double resampled_tail(const std::vector<double>& shape, std::size_t na, std::size_t nb, double diff, int draws) {
  if (shape.empty() || na == 0 || nb == 0 || draws < 1)
    throw std::invalid_argument("a resampled tail needs values, a value a side and a draw");
  std::mt19937_64 engine(0x6c61646465720049ull);  // mt19937_64's sequence is fixed by the standard
  const auto pick = [&] { return shape[engine() % shape.size()]; };  // bias below 1e-16
  const auto mean_of = [&](std::size_t n) {
    double sum = 0;
    for (std::size_t i = 0; i < n; ++i) sum += pick();
    return sum / double(n);
  };
  int beyond = 0;
  for (int i = 0; i < draws; ++i) beyond += std::fabs(mean_of(nb) - mean_of(na)) >= std::fabs(diff);
  return double(beyond) / double(draws);
}

double robust_sd(const std::vector<double>& v) {
  if (v.empty()) return 0;
  const double mid = median(v);
  std::vector<double> deviation;
  for (double x : v) deviation.push_back(std::fabs(x - mid));
  return 1.4826 * median(deviation);
}

std::vector<double> bh_qvalues(const std::vector<double>& p) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < p.size(); ++i)
    if (!std::isnan(p[i])) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return p[x] < p[y]; });
  std::vector<double> q(p.size(), kNaN);
  const double m = double(order.size());
  double running = 1;  // the minimum over the larger p-values, from the largest down
  for (std::size_t r = order.size(); r-- > 0;) {
    running = std::min(running, p[order[r]] * m / double(r + 1));
    q[order[r]] = running;
  }
  return q;
}

double mde80(double se, double df, double alpha) {
  return std::expm1((t_quantile(1 - alpha / 2, df) + t_quantile(0.8, df)) * se);
}

bool equivalent(const Difference& d, double margin, double alpha) {
  const Interval ci = confidence_interval(d, 1 - 2 * alpha);
  return ci.low >= -margin && ci.high <= margin;
}

// ---- planning --------------------------------------------------------------------------------

std::optional<std::size_t> samples_per_process(double sd_within, double sd_between, double cost_ratio,
                                               std::size_t cap) {
  if (!(sd_between > 0)) return std::nullopt;
  const double r = std::ceil(std::sqrt(cost_ratio) * sd_within / sd_between);
  if (!(r < double(cap))) return cap;
  return std::max<std::size_t>(1, std::size_t(r));
}

std::optional<std::size_t> processes_needed(double sd_process, double effect, double alpha, double power,
                                            std::size_t cap) {
  if (!(effect > 0)) throw std::invalid_argument("processes_needed: the effect must be > 0");
  const double target = std::log1p(effect);
  const auto enough = [&](std::size_t k) {
    const double df = 2.0 * double(k) - 2;
    return (t_quantile(1 - alpha / 2, df) + t_quantile(power, df)) * sd_process * std::sqrt(2 / double(k)) <=
           target;
  };
  // The normal approximation is a lower bound (t quantiles exceed z's); from there, double to
  // a K that is enough, then bisect.
  const double z = normal_quantile(1 - alpha / 2) + normal_quantile(power);
  const double start = std::ceil(2 * z * z * sd_process * sd_process / (target * target));
  if (!(start <= double(cap))) return std::nullopt;
  std::size_t lo = std::max<std::size_t>(2, std::size_t(start)), hi = lo;
  if (enough(lo)) return lo;
  while (!enough(hi)) {
    if (hi >= cap) return std::nullopt;
    lo = hi;
    hi = std::min(cap, hi * 2);
  }
  while (hi - lo > 1) {  // enough(hi), not enough(lo)
    const std::size_t mid = lo + (hi - lo) / 2;
    (enough(mid) ? hi : lo) = mid;
  }
  return hi;
}

// ---- drift -----------------------------------------------------------------------------------

Slope slope(const std::vector<double>& x, const std::vector<double>& y) {
  Slope s;
  if (x.size() != y.size()) throw std::invalid_argument("slope: x and y differ in length");
  if (x.size() < 3) return s;
  const double mx = mean(x), my = mean(y);
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sxx += (x[i] - mx) * (x[i] - mx), sxy += (x[i] - mx) * (y[i] - my);
  if (!(sxx > 0)) return s;
  s.slope = sxy / sxx;
  double sse = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - my - s.slope * (x[i] - mx);
    sse += r * r;
  }
  const double df = double(x.size()) - 2;
  s.se = std::sqrt(sse / df / sxx);
  s.p = s.se > 0 ? t_two_sided_p(s.slope / s.se, df) : (s.slope == 0 ? 1 : 0);
  return s;
}

// ---- rank test -------------------------------------------------------------------------------

namespace {

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

}  // namespace

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

}  // namespace ladder::stats
