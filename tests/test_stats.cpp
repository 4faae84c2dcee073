// harness/stats.hpp against reference numbers: the distributions, Welch's test, BH q-values,
// the MDE, TOST, the z-test, Kalibera & Jones's allocation, the processes a side needs, the
// drift slope and the rank test, each compared with the SciPy call named beside it (SciPy
// 1.x, the values printed with repr and pasted here); the variance components against a
// one-way ANOVA worked by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "harness/stats.hpp"

namespace ladder::stats {
namespace {

// Within `rel` of `want`, relative (absolute near 0).
void expect_close(double got, double want, double rel = 1e-10) {
  EXPECT_NEAR(got, want, rel * std::max(1e-300, std::fabs(want))) << "want " << want;
}

TEST(Stats, NormalCdf) {
  // scipy.stats.norm.cdf(z)
  expect_close(normal_cdf(-8.0), 6.22096057427174e-16);
  expect_close(normal_cdf(-1.96), 0.024997895148220435);
  expect_close(normal_cdf(0.0), 0.5);
  expect_close(normal_cdf(0.5), 0.6914624612740131);
  expect_close(normal_cdf(3.0), 0.9986501019683699);
}

TEST(Stats, NormalQuantile) {
  // scipy.stats.norm.ppf(p)
  expect_close(normal_quantile(1e-12), -7.034483825301131, 1e-12);
  expect_close(normal_quantile(0.001), -3.090232306167813, 1e-12);
  expect_close(normal_quantile(0.025), -1.9599639845400545, 1e-12);
  EXPECT_EQ(normal_quantile(0.5), 0.0);
  expect_close(normal_quantile(0.8), 0.8416212335729143, 1e-12);
  expect_close(normal_quantile(0.975), 1.959963984540054, 1e-12);
  expect_close(normal_quantile(0.999999), 4.753424308817087, 1e-10);
  EXPECT_THROW(normal_quantile(0), std::invalid_argument);
  EXPECT_THROW(normal_quantile(1), std::invalid_argument);
}

TEST(Stats, StudentTCdf) {
  struct Case {
    double t, df, cdf, two_sided;
  };
  // scipy.stats.t.cdf(t, df) and 2 * scipy.stats.t.sf(abs(t), df)
  const Case cases[] = {{2.0, 3.0, 0.9303370157205785, 0.13932596855884305},
                        {-1.5, 7.5, 0.08724028529323204, 0.17448057058646407},
                        {0.3, 1.0, 0.5927735790777423, 0.8144528418445154},
                        {10.0, 18.0, 0.9999999955345266, 8.930946909956929e-09},
                        {2.5, 0.5, 0.7995147354733534, 0.4009705290532932},
                        {1.7, 2500.0, 0.9553723435251341, 0.08925531294973181},
                        {-4.0, 123.4, 5.4205634732199235e-05, 0.00010841126946439847}};
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "t " << c.t << " df " << c.df);
    expect_close(t_cdf(c.t, c.df), c.cdf);
    expect_close(t_two_sided_p(c.t, c.df), c.two_sided);
  }
  EXPECT_EQ(t_cdf(0, 4), 0.5);
  expect_close(t_cdf(1.2, kInf), normal_cdf(1.2), 1e-15);
  EXPECT_THROW(t_cdf(1, 0), std::invalid_argument);
  // scipy.special.betainc(2.5, 0.5, 0.3)
  expect_close(incomplete_beta(0.3, 2.5, 0.5), 0.018927124071945658);
}

TEST(Stats, StudentTQuantile) {
  struct Case {
    double p, df, t;
  };
  // scipy.stats.t.ppf(p, df)
  const Case cases[] = {{0.975, 1.0, 12.706204736174694},   {0.975, 2.0, 4.302652729749462},
                        {0.975, 17.3, 2.1070320037534676},  {0.8, 17.3, 0.8628946328855623},
                        {0.95, 5.0, 2.0150483733330233},    {0.999, 3.5, 8.315567604516115},
                        {1e-06, 10.0, -9.751995490940581},  {0.6, 0.7, 0.35603136523468015},
                        {0.975, 1000.0, 1.9623390808264083}, {0.9999999, 2.0, 2236.067642678063}};
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "p " << c.p << " df " << c.df);
    expect_close(t_quantile(c.p, c.df), c.t);
    expect_close(t_cdf(t_quantile(c.p, c.df), c.df), c.p);
  }
  EXPECT_EQ(t_quantile(0.5, 3), 0.0);
  expect_close(t_quantile(0.975, kInf), 1.959963984540054, 1e-12);
}

TEST(Stats, Welch) {
  const std::vector<double> a = {1.0, 1.2, 0.9, 1.1, 1.05}, b = {1.3, 1.25, 1.4, 1.2, 1.35, 1.5};
  const Difference d = welch(a, b);
  // scipy.stats.ttest_ind(b, a, equal_var=False): statistic, pvalue, df and
  // .confidence_interval(0.95)
  expect_close(d.diff, 0.2833333333333332);
  expect_close(d.t, 4.249999999999998);
  expect_close(d.p, 0.002426458128150932);
  expect_close(d.df, 8.51913477537438);
  expect_close(d.ci_low, 0.13121521184165105);
  expect_close(d.ci_high, 0.43545145482501535);
  expect_close(d.se, d.diff / d.t);
  // Swapped sides: the same test, the difference negated.
  const Difference back = welch(b, a);
  expect_close(back.diff, -d.diff);
  expect_close(back.p, d.p);
  EXPECT_THROW(welch({1.0}, b), std::invalid_argument);
}

TEST(Stats, WelchWithoutSpread) {
  // Every value equal on both sides: no SE; the means differ or do not, with certainty.
  const Difference d = welch({2.0, 2.0, 2.0}, {3.0, 3.0, 3.0});
  EXPECT_EQ(d.se, 0);
  EXPECT_EQ(d.p, 0);
  EXPECT_EQ(d.ci_low, 1.0);
  EXPECT_EQ(d.ci_high, 1.0);
  EXPECT_EQ(welch({2.0, 2.0}, {2.0, 2.0}).p, 1);
  // One side without spread: df is the other side's n - 1.
  expect_close(welch({2.0, 2.0, 2.0}, {1.0, 2.0, 3.0, 4.0}).df, 3);
}

TEST(Stats, ZTest) {
  // Logs of (1.0, 1.02) against log(1.1), known sd 0.03: diff, se = 0.03 * sqrt(1/2 + 1/1),
  // 2 * scipy.stats.norm.sf(abs(diff) / se), diff -+ scipy.stats.norm.ppf(0.975) * se
  const Difference d = z_test({std::log(1.0), std::log(1.02)}, {std::log(1.1)}, 0.03);
  expect_close(d.diff, 0.08540886615623507);
  expect_close(d.se, 0.036742346141747664);
  EXPECT_TRUE(std::isinf(d.df));
  expect_close(d.p, 0.020096842958553504);
  expect_close(d.ci_low, 0.01339519101090543);
  expect_close(d.ci_high, 0.1574225413015647);
}

TEST(Stats, ResampledTail) {
  // From {-1, 1}, one value a side: b - a is -2, 0, 0 or 2, each a quarter of the time.
  const std::vector<double> two = {-1.0, 1.0};
  EXPECT_NEAR(resampled_tail(two, 1, 1, 2.0), 0.5, 0.02);
  EXPECT_NEAR(resampled_tail(two, 1, 1, -2.0), 0.5, 0.02);  // two-sided
  EXPECT_EQ(resampled_tail(two, 1, 1, 0.0), 1.0);
  EXPECT_EQ(resampled_tail(two, 1, 1, 2.01), 0.0);
  // Seeded: the same share every time.
  EXPECT_EQ(resampled_tail(two, 2, 3, 1.0), resampled_tail(two, 2, 3, 1.0));
  // A normal shape gives the normal tail: one a side, |b - a| >= 1.96 sqrt(2) 5% of the time;
  // five a side, the same share at 1.96 sqrt(2/5).
  std::vector<double> normal;
  for (int i = 0; i < 2000; ++i) normal.push_back(normal_quantile((i + 0.5) / 2000));
  EXPECT_NEAR(resampled_tail(normal, 1, 1, 1.959964 * std::sqrt(2.0)), 0.05, 0.006);
  EXPECT_NEAR(resampled_tail(normal, 5, 5, 1.959964 * std::sqrt(0.4)), 0.05, 0.006);
  // A shape with a far value now and then keeps a share far out where the normal has none.
  std::vector<double> far(normal.begin(), normal.begin() + 1980);
  far.insert(far.end(), 20, 30.0);  // 1%
  EXPECT_NEAR(resampled_tail(far, 1, 1, 25.0), 0.0199, 0.005);  // one of the two far, not both
  EXPECT_THROW(resampled_tail({}, 1, 1, 1.0), std::invalid_argument);
  EXPECT_THROW(resampled_tail(two, 0, 1, 1.0), std::invalid_argument);
}

TEST(Stats, RobustSd) {
  // 1.4826 x the median of |x - 3| = (2, 1, 0, 1, 97): a far value does not move it.
  expect_close(robust_sd({1, 2, 3, 4, 100}), 1.4826);
  EXPECT_EQ(robust_sd({}), 0);
  EXPECT_EQ(robust_sd({5, 5, 5}), 0);
}

TEST(Stats, BenjaminiHochberg) {
  // scipy.stats.false_discovery_control([0.01, 0.04, 0.03, 0.005, 0.2, 0.9])
  const std::vector<double> q = bh_qvalues({0.01, 0.04, 0.03, 0.005, 0.2, 0.9});
  const std::vector<double> want = {0.03, 0.06, 0.06, 0.03, 0.24, 0.9};
  ASSERT_EQ(q.size(), want.size());
  for (std::size_t i = 0; i < q.size(); ++i) expect_close(q[i], want[i], 1e-14);
  // A row without a test: NaN in, NaN out, and it does not count in m (the same q as above).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> with_gap = bh_qvalues({0.01, nan, 0.04, 0.03, 0.005, 0.2, 0.9});
  EXPECT_TRUE(std::isnan(with_gap[1]));
  expect_close(with_gap[0], 0.03, 1e-14);
  expect_close(with_gap[6], 0.9, 1e-14);
  // Capped at 1, monotone in p.
  const std::vector<double> big = bh_qvalues({0.9, 0.95, 0.99});
  for (double x : big) EXPECT_LE(x, 1.0);
  EXPECT_EQ(bh_qvalues({0.5, 0.5}), (std::vector<double>{0.5, 0.5}));
  EXPECT_TRUE(bh_qvalues({}).empty());
}

TEST(Stats, MinimumDetectableEffect) {
  // math.expm1((scipy.stats.t.ppf(0.975, df) + scipy.stats.t.ppf(0.8, df)) * se)
  expect_close(mde80(0.01, 18.0), 0.030073034575206693);
  expect_close(mde80(0.05, 8.5), 0.17166890109878863);
  // The same with scipy.stats.norm.ppf: a z-test's MDE.
  expect_close(mde80(0.01, kInf), 0.028411986865301785);
}

TEST(Stats, Equivalence) {
  // Two sets 0.002 apart: scipy.stats.ttest_ind(b, a, equal_var=False)
  // .confidence_interval(0.90) is (-0.007297740187654491, 0.011297740187654486).
  const std::vector<double> a = {0.0, 0.01, -0.01, 0.005, -0.005}, b = {0.002, 0.012, -0.008, 0.007, -0.003};
  const Difference d = welch(a, b);
  const Interval ci = confidence_interval(d, 0.90);
  expect_close(ci.low, -0.007297740187654491);
  expect_close(ci.high, 0.011297740187654486);
  EXPECT_TRUE(equivalent(d, 0.0113));   // the interval inside +-margin
  EXPECT_FALSE(equivalent(d, 0.0112));  // its upper end outside
  EXPECT_FALSE(equivalent(d, 0.007));
}

TEST(Stats, KaliberaJonesSamplesPerProcess) {
  // ceil(sqrt(200 * 0.06^2 / 0.01^2)) = ceil(84.85) = 85
  EXPECT_EQ(samples_per_process(0.06, 0.01, 200), 85u);
  // ceil(sqrt(200 * 0.0604^2 / 0.142^2)) = ceil(6.015) = 7 (the design's TWED host class)
  EXPECT_EQ(samples_per_process(0.0604, 0.142, 200), 7u);
  EXPECT_EQ(samples_per_process(0.0, 0.1, 200), 1u);  // no within spread: one sample
  EXPECT_EQ(samples_per_process(0.1, 1e-9, 200, 1000), 1000u);  // capped
  EXPECT_FALSE(samples_per_process(0.1, 0.0, 200).has_value());  // unbounded
}

TEST(Stats, ProcessesNeeded) {
  // The least K with (scipy.stats.t.ppf(0.975, 2K-2) + scipy.stats.t.ppf(0.8, 2K-2)) * sd *
  // sqrt(2/K) <= log1p(effect), by a Python loop over K from 2.
  EXPECT_EQ(processes_needed(0.142, 0.05), 134u);
  EXPECT_EQ(processes_needed(0.142, 0.10), 36u);
  EXPECT_EQ(processes_needed(0.01, 0.05), 3u);
  EXPECT_EQ(processes_needed(0.0039, 0.05), 2u);
  EXPECT_EQ(processes_needed(0.05, 0.03), 46u);
  EXPECT_EQ(processes_needed(0.2, 0.5), 5u);
  EXPECT_EQ(processes_needed(0.0, 0.05), 2u);
  EXPECT_FALSE(processes_needed(0.142, 0.05, 0.05, 0.8, 100).has_value());
  EXPECT_THROW(processes_needed(0.1, 0.0), std::invalid_argument);
}

TEST(Stats, Slope) {
  // scipy.stats.linregress(x, y): slope, stderr, pvalue
  const Slope s = slope({1, 2, 3, 4, 5, 6, 7, 8}, {2.0, 2.1, 2.3, 2.2, 2.6, 2.5, 2.8, 2.9});
  expect_close(s.slope, 0.12857142857142856);
  expect_close(s.se, 0.015521910488577737);
  expect_close(s.p, 0.00016766185371765277);
  EXPECT_TRUE(std::isnan(slope({1, 2}, {1, 2}).p));
  EXPECT_TRUE(std::isnan(slope({1, 1, 1}, {1, 2, 3}).p));
  EXPECT_EQ(slope({1, 2, 3}, {5, 5, 5}).p, 1);
  EXPECT_EQ(slope({1, 2, 3}, {1, 2, 3}).p, 0);
}

TEST(Stats, MannWhitney) {
  struct Case {
    std::vector<double> a, b;
    double p;
  };
  // scipy.stats.mannwhitneyu(a, b).pvalue (two-sided, method 'auto': exact without ties and
  // with 8 or fewer on a side, else asymptotic with the tie and continuity corrections)
  const Case cases[] = {
      {{1, 2, 2, 3, 3, 3, 4, 4, 5, 5}, {3, 4, 4, 5, 5, 5, 6, 6, 7, 7}, 0.007154053613678814},
      {{1.0, 2.0, 2.0, 3.0, 4.0}, {2.0, 3.0, 3.0, 5.0, 6.0}, 0.19882894401644247},
      {{1.1, 2.3, 3.5, 0.7, 5.2, 4.4}, {2.0, 3.1, 6.3, 7.7, 8.2, 5.9, 6.6, 9.1, 4.9}, 0.025574425574425574},
      {{10.0, 11.0, 12.0, 13.0}, {14.0, 15.0, 16.0, 17.0}, 0.02857142857142857},
      {{10.0, 9.0, 11.0, 10.5, 9.5}, {10.8, 10.9, 11.5, 12.0, 10.85}, 0.05555555555555555},
      {{10.0, 10.1, 9.9, 10.05, 30.0}, {10.02, 10.0, 9.98, 10.03, 10.01}, 0.4633438825652173},
      {{1.0, 1.015, 1.03, 1.04, 1.055, 1.065, 1.08, 1.095, 1.105, 1.12, 1.13, 1.145, 1.16, 1.17, 1.185, 1.195, 1.21,
        1.225, 1.235, 1.25},
       {1.1,    1.1131, 1.1262, 1.1344, 1.1475, 1.1557, 1.1688, 1.177,  1.1901, 1.2032, 1.2114, 1.2245, 1.2327,
        1.2458, 1.254,  1.2671, 1.2802, 1.2884, 1.3015, 1.3097, 1.3228, 1.331,  1.3441, 1.3572, 1.3654},
       0.00024629849670787496}};
  for (const Case& c : cases) {
    expect_close(mann_whitney_p(c.a, c.b), c.p, 1e-9);
    expect_close(mann_whitney_p(c.b, c.a), c.p, 1e-9);
  }
  // 1 and 1: the smallest p possible is 1.
  EXPECT_EQ(mann_whitney_p({5.0}, {6.0}), 1.0);
}

// Samples whose logs are the given values.
std::vector<std::vector<double>> exp_of(const std::vector<std::vector<double>>& logs) {
  std::vector<std::vector<double>> out;
  for (const auto& g : logs) {
    out.emplace_back();
    for (double l : g) out.back().push_back(std::exp(l));
  }
  return out;
}

TEST(Stats, VarianceComponentsEqualGroups) {
  // Logs {-0.1, 0.1}, {0.9, 1.1}, {1.9, 2.1}. By hand: group means 0, 1, 2, grand mean 1.
  // SSW = 6 * 0.01 = 0.06 on 6 - 3 = 3 df: MSW = 0.02. SSB = 2 * (1 + 0 + 1) = 4 on 2 df:
  // MSB = 2. n0 = 2. sd_between^2 = (MSB - MSW) / n0 = 0.99. ICC = 0.99 / (0.99 + 0.02).
  // Process medians (each the mean of two) 0, 1, 2: sd 1.
  const Components c = variance_components(exp_of({{-0.1, 0.1}, {0.9, 1.1}, {1.9, 2.1}}));
  EXPECT_EQ(c.processes, 3u);
  expect_close(c.samples_per_process, 2);
  expect_close(c.sd_log_within, std::sqrt(0.02), 1e-12);
  expect_close(c.sd_log_between, std::sqrt(0.99), 1e-12);
  expect_close(c.icc, 0.99 / 1.01, 1e-12);
  expect_close(c.sd_log_process, 1, 1e-12);
}

TEST(Stats, VarianceComponentsUnequalGroups) {
  // Logs {0, 0.2}, {1.0, 1.2, 1.4}. By hand: means 0.1 and 1.2, grand mean 3.8 / 5 = 0.76.
  // SSW = 0.02 + 0.08 = 0.10 on 3 df: MSW = 0.1 / 3. SSB = 2 * 0.66^2 + 3 * 0.44^2 = 1.452
  // on 1 df. n0 = (5 - (4 + 9) / 5) / 1 = 2.4. sd_between^2 = (1.452 - 0.1 / 3) / 2.4.
  // Process medians (of the times, as compare takes them) (1 + e^0.2) / 2 and e^1.2: the sd of
  // their logs is (1.2 - log((1 + e^0.2) / 2)) / sqrt(2), not that of the median logs 0.1, 1.2.
  const Components c = variance_components(exp_of({{0.0, 0.2}, {1.0, 1.2, 1.4}}));
  const double between2 = (1.452 - 0.1 / 3) / 2.4;
  expect_close(c.samples_per_process, 2.5);
  expect_close(c.sd_log_within, std::sqrt(0.1 / 3), 1e-12);
  expect_close(c.sd_log_between, std::sqrt(between2), 1e-12);
  expect_close(c.icc, between2 / (between2 + 0.1 / 3), 1e-12);
  expect_close(c.sd_log_process, (1.2 - std::log((1 + std::exp(0.2)) / 2)) / std::sqrt(2.0), 1e-12);
}

TEST(Stats, VarianceComponentsDegenerate) {
  // One process: no between; one sample a process: no within; no spread at all: ICC 0.
  const Components one = variance_components(exp_of({{0.0, 0.2}}));
  EXPECT_EQ(one.sd_log_between, 0);
  EXPECT_EQ(one.sd_log_process, 0);
  expect_close(one.sd_log_within, std::sqrt(0.02), 1e-12);
  const Components singles = variance_components(exp_of({{0.0}, {1.0}}));
  EXPECT_EQ(singles.sd_log_within, 0);
  EXPECT_EQ(singles.icc, 1);
  const Components flat = variance_components({{2.0, 2.0}, {2.0, 2.0}});
  EXPECT_EQ(flat.icc, 0);
  EXPECT_EQ(variance_components({}).processes, 0u);
}

TEST(Stats, Median) {
  EXPECT_EQ(median({3, 1, 2}), 2);
  EXPECT_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_THROW(median({}), std::invalid_argument);
}

}  // namespace
}  // namespace ladder::stats
