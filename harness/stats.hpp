// The statistics ladder's timing contract rests on: the process is the sample. Samples taken
// in one process share its state (clocks, memory placement, code layout), so they are not
// independent draws; what is compared across processes is each process's median. Here: the
// two-level variance components of a run's samples (within and between processes, on the log
// scale), Kalibera & Jones's allocation, Welch's t test on log process medians with
// Benjamini-Hochberg across a comparison's rows, the minimum detectable effect, the rank test
// kept as a diagnostic, and the distributions they need.
#pragma once
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace ladder::stats {

constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- distributions ---------------------------------------------------------------------------
// Student's t takes a fractional df (Welch-Satterthwaite gives one); df = kInf is the standard
// normal, which a test with a known variance uses. Accurate to about 1e-12 relative for the
// df a comparison of processes has (up to a few thousand): the incomplete beta's log-gamma
// terms lose digits in proportion to df.
double normal_cdf(double z);
double normal_quantile(double p);           // 0 < p < 1
double t_cdf(double t, double df);          // df > 0
double t_quantile(double p, double df);     // 0 < p < 1, df > 0
double t_two_sided_p(double t, double df);  // P(|T| >= |t|), without 1 - cdf's cancellation
double incomplete_beta(double x, double a, double b);  // regularized, I_x(a, b)

// ---- a difference of means and its test ------------------------------------------------------
// An estimate of mean(b) - mean(a) with its standard error and degrees of freedom (kInf: a
// z-test), its statistic, two-sided p and 95% confidence interval.
struct Difference {
  double diff = 0, se = 0, df = kInf, t = 0, p = 1;
  double ci_low = 0, ci_high = 0;
};

// The two-sided interval diff -+ quantile(1 - (1 - level) / 2) * se.
struct Interval {
  double low = 0, high = 0;
};
Interval confidence_interval(const Difference& d, double level);

// Welch's unequal-variance t test: SE = sqrt(va/na + vb/nb), df by Welch-Satterthwaite. Needs
// two values a side (throws std::invalid_argument otherwise). With no spread on either side
// SE is 0: p is 0 when the means differ and 1 when they do not, and the interval is the point.
Difference welch(const std::vector<double>& a, const std::vector<double>& b);

// The z-test of mean(b) - mean(a) when each value's sd is known (Kalibera & Jones's
// dimensioning run gives it): SE = sd * sqrt(1/na + 1/nb), df = kInf. One value a side is
// enough.
Difference z_test(const std::vector<double>& a, const std::vector<double>& b, double sd);

// The z-test's tail as the dimensioning run's values give it, for spreads that are not normal
// (an OpenMP step whose call now and then waits milliseconds for a thread puts one process in
// ten 100x off): the share of `draws` resampled differences, the mean of nb values less the
// mean of na values drawn with replacement from `shape`, at least |diff| in size. Seeded, so
// the same inputs give the same share anywhere. Needs a value in `shape` and na, nb >= 1
// (throws std::invalid_argument otherwise).
double resampled_tail(const std::vector<double>& shape, std::size_t na, std::size_t nb, double diff,
                      int draws = 20000);

// A robust scale of `v`: 1.4826 x the median absolute deviation from the median (the sd of a
// normal sample), which a few far values do not move.
double robust_sd(const std::vector<double>& v);

// Benjamini-Hochberg q-values in the order of `p`: q_(i) = min over j >= i of p_(j) m / j,
// capped at 1, so that rejecting every q <= Q controls the false discovery rate at Q. A NaN p
// (a row with no test) gets a NaN q and does not count in m.
std::vector<double> bh_qvalues(const std::vector<double>& p);

// The minimum detectable effect at 80% power of a two-sided test at `alpha` on the log scale,
// as a relative change: exp((t_{1-alpha/2,df} + t_{0.8,df}) * se) - 1.
double mde80(double se, double df, double alpha = 0.05);

// TOST (two one-sided tests at alpha each): whether the 1 - 2 alpha interval of the difference
// lies inside [-margin, margin]. At alpha 0.05: the 90% interval.
bool equivalent(const Difference& d, double margin, double alpha = 0.05);

// ---- planning (Kalibera & Jones, ISMM 2013) --------------------------------------------------
// The samples a process worth taking: r = ceil(sqrt(cost_ratio * sd_within^2 /
// sd_between^2)), at least 1 and at most `cap`; none (unbounded: more samples always help)
// when sd_between is 0. cost_ratio: a process's cost over a sample's.
std::optional<std::size_t> samples_per_process(double sd_within, double sd_between, double cost_ratio,
                                               std::size_t cap = 100000);

// The processes a side needs for a two-sided Welch test at `alpha` to detect a relative change
// `effect` with probability `power`, when log process medians have sd `sd_process`: the least
// K >= 2 with (t_{1-alpha/2,2K-2} + t_{power,2K-2}) * sd * sqrt(2/K) <= log(1 + effect). None
// above `cap`.
std::optional<std::size_t> processes_needed(double sd_process, double effect, double alpha = 0.05,
                                            double power = 0.8, std::size_t cap = 1000000);

// ---- drift -----------------------------------------------------------------------------------
// The least-squares slope of y on x, its standard error and the two-sided p of slope = 0 (t
// with n - 2 df). Fewer than 3 points or x without spread: p is NaN. A perfect fit: p is 0 for
// a slope, 1 for none.
struct Slope {
  double slope = 0, se = 0, p = std::numeric_limits<double>::quiet_NaN();
};
Slope slope(const std::vector<double>& x, const std::vector<double>& y);

// ---- rank test -------------------------------------------------------------------------------
// The two-sided p-value of the Mann-Whitney U test of `a` against `b`, as SciPy's
// mannwhitneyu (which Google Benchmark's compare.py calls) computes it: the exact
// distribution of U for small samples without ties, else the normal approximation with the
// tie correction and a continuity correction.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

// ---- variance components ---------------------------------------------------------------------
// A run's samples grouped by process, read on the log scale (times are positive and their
// spread multiplicative). One-way random-effects ANOVA with unequal group sizes: sd_within is
// sqrt(MSW), sd_between is sqrt(max(0, (MSB - MSW) / n0)), icc = between^2 / (between^2 +
// within^2) (0 when both are 0). sd_process is the standard deviation of the log process
// medians: what a test of process medians sees. Fields a group count cannot give are 0
// (one process: no between; one sample a process: no within).
struct Components {
  std::size_t processes = 0;
  double samples_per_process = 0;  // mean count
  double sd_log_within = 0, sd_log_between = 0, sd_log_process = 0, icc = 0;
};
Components variance_components(const std::vector<std::vector<double>>& samples_by_process);

double median(std::vector<double> v);  // of an even count: the mean of the middle two
double mean(const std::vector<double>& v);
double sample_sd(const std::vector<double>& v);  // n - 1 in the denominator; 0 below 2 values

}  // namespace ladder::stats
