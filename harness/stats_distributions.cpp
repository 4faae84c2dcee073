// The distributions the tests of harness/stats.hpp need: the standard normal (through erfc)
// and Student's t with a fractional df (through the regularized incomplete beta function).
// Written out here rather than taken from a library: the project has no numerics dependency,
// and these few functions are checked against SciPy in tests/test_stats.cpp.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "stats.hpp"

namespace ladder::stats {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kLogSqrt2Pi = 0.91893853320467274178;  // log(sqrt(2 pi))

// lgamma(x) - Stirling's approximation (x - 1/2) log x - x + log sqrt(2 pi), for x >= 10: the
// Stirling series. Kept apart so that log B(a, b) for a large a loses no digits to the
// cancellation of lgamma terms that are each far larger than their difference.
double lgamma_correction(double x) {
  static const double kCoef[] = {1.0 / 12, -1.0 / 360, 1.0 / 1260, -1.0 / 1680, 1.0 / 1188,
                                 -691.0 / 360360, 1.0 / 156};
  const double inv2 = 1 / (x * x);
  double sum = 0, power = 1 / x;
  for (double c : kCoef) sum += c * power, power *= inv2;
  return sum;
}

// log B(a, b), as R's lbeta computes it: directly for small arguments, else from Stirling's
// form and its corrections, so the large terms cancel analytically.
double log_beta(double a, double b) {
  const double p = std::min(a, b), q = std::max(a, b);
  if (q < 10) return std::lgamma(p) + std::lgamma(q) - std::lgamma(p + q);
  const double corr_q = lgamma_correction(q) - lgamma_correction(p + q);
  if (p < 10)
    return std::lgamma(p) + corr_q + p - p * std::log(p + q) + (q - 0.5) * std::log1p(-p / (p + q));
  return -0.5 * std::log(q) + kLogSqrt2Pi + lgamma_correction(p) + corr_q + (p - 0.5) * std::log(p / (p + q)) +
         q * std::log1p(-p / (p + q));
}

// The continued fraction of I_x(a, b) (Numerical Recipes' betacf, modified Lentz), which
// converges fast for x < (a + 1) / (a + b + 2).
double beta_fraction(double x, double a, double b) {
  constexpr double kTiny = 1e-300, kEps = 1e-16;
  const auto guard = [](double v) { return std::fabs(v) < kTiny ? kTiny : v; };
  double c = 1, d = 1 / guard(1 - (a + b) * x / (a + 1)), h = d;
  for (int m = 1; m <= 100000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
    d = 1 / guard(1 + aa * d);
    c = guard(1 + aa / c);
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
    d = 1 / guard(1 + aa * d);
    c = guard(1 + aa / c);
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < kEps) break;
  }
  return h;
}

// I_x(a, b) with y = 1 - x given exactly by the caller (t's x = df / (df + t^2) near 1 would
// lose y's digits to 1 - x).
double ibeta(double x, double y, double a, double b) {
  if (x <= 0) return 0;
  if (y <= 0) return 1;
  const double log_front = a * std::log(x) + b * std::log(y) - log_beta(a, b);
  if (x < (a + 1) / (a + b + 2)) return std::exp(log_front) * beta_fraction(x, a, b) / a;
  return 1 - std::exp(log_front) * beta_fraction(y, b, a) / b;
}

// P(T > |t|) for Student's t with df degrees of freedom: I_x(df/2, 1/2) / 2, x = df/(df+t^2).
double t_upper_tail(double t, double df) {
  if (std::isinf(df)) return 0.5 * std::erfc(std::fabs(t) / std::sqrt(2.0));
  if (std::isinf(t)) return 0;
  const double t2 = t * t;
  return 0.5 * ibeta(df / (df + t2), t2 / (df + t2), df / 2, 0.5);
}

double t_density(double t, double df) {
  if (std::isinf(df)) return std::exp(-t * t / 2 - kLogSqrt2Pi);
  return std::exp(-(df + 1) / 2 * std::log1p(t * t / df) - 0.5 * std::log(df) - log_beta(df / 2, 0.5));
}

void check_probability(double p, const char* what) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument(std::string(what) + ": p must lie in (0, 1)");
}

void check_df(double df) {
  if (!(df > 0)) throw std::invalid_argument("Student's t needs df > 0");
}

}  // namespace

double incomplete_beta(double x, double a, double b) { return ibeta(x, 1 - x, a, b); }

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

// Acklam's rational approximation (relative error 1.2e-9), then one Halley step on erfc, which
// takes it to full double precision. The upper half by symmetry: 1 - p is exact there.
double normal_quantile(double p) {
  check_probability(p, "normal_quantile");
  if (p > 0.5) return -normal_quantile(1 - p);
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01,  -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  double x;
  if (p < 0.02425) {
    const double q = std::sqrt(-2 * std::log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
        ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else {
    const double q = p - 0.5, r = q * q;
    x = (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
        (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
  const double e = normal_cdf(x) - p, u = e * std::sqrt(2 * kPi) * std::exp(x * x / 2);
  return x - u / (1 + x * u / 2);
}

double t_cdf(double t, double df) {
  check_df(df);
  if (std::isnan(t)) return t;
  const double tail = t_upper_tail(t, df);
  return t > 0 ? 1 - tail : tail;
}

double t_two_sided_p(double t, double df) {
  check_df(df);
  if (std::isnan(t)) return t;
  return std::min(1.0, 2 * t_upper_tail(t, df));
}

// The t with upper tail min(p, 1 - p), by Newton's method on the tail kept inside a bracket
// (bisection where a step would leave it: the t's heavy tails at small df overshoot), then
// signed. Starts from the normal quantile, which the t's exceeds.
double t_quantile(double p, double df) {
  check_probability(p, "t_quantile");
  check_df(df);
  if (std::isinf(df)) return normal_quantile(p);
  if (p == 0.5) return 0;
  const double q = std::min(p, 1 - p);
  double lo = 0, hi = std::max(1.0, -normal_quantile(q));
  while (t_upper_tail(hi, df) > q) lo = hi, hi *= 2;
  double t = std::max(lo, -normal_quantile(q));
  for (int i = 0; i < 300; ++i) {
    const double f = t_upper_tail(t, df) - q;  // decreasing in t
    if (f == 0) break;
    (f > 0 ? lo : hi) = t;
    double next = t + f / t_density(t, df);
    if (!(next > lo && next < hi)) next = (lo + hi) / 2;
    if (std::fabs(next - t) <= 1e-15 * std::fabs(next)) {
      t = next;
      break;
    }
    t = next;
  }
  return p < 0.5 ? -t : t;
}

}  // namespace ladder::stats
