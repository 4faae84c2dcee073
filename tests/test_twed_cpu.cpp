// The TWED baselines: aeon's golden value, both sequential algorithms against a memoised
// recursion written straight from the definition, and the CPU steps in every mode (batch and
// triangle matrices entry by entry against single pairs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "harness/memory.hpp"
#include "harness/study.hpp"
#include "variants/twed/problem.hpp"

namespace ladder::twed {
namespace {

// A problem with one A and one B series in R^dim, values and timestamps given.
TwedProblem pair_problem(std::vector<double> a, std::vector<double> ta, std::vector<double> b,
                         std::vector<double> tb, int dim, Costs c) {
  TwedProblem p;
  p.mode = Mode::pair;
  p.costs = c;
  auto list = [dim](std::vector<double> v, std::vector<double> t) {
    SeriesList l;
    l.count = 1, l.length = std::int64_t(t.size()), l.dim = dim;
    l.values = std::move(v), l.times = std::move(t);
    l.source_count = 1;
    return l;
  };
  p.a = list(std::move(a), std::move(ta));
  p.b = list(std::move(b), std::move(tb));
  return p;
}

// D(i, j) by the recurrence, recursing on the three predecessors (memoised).
double recursive_twed(const TwedProblem& p) {
  const std::int64_t n = p.n(), m = p.m();
  const int dim = int(p.dim());
  const CostsT<double> c(p.costs);
  const std::vector<double> zero(dim, 0.0);
  const PointRef<double> a{p.a.x(0), p.a.t(0), dim}, b{p.b.x(0), p.b.t(0), dim};
  std::vector<double> memo((n + 1) * (m + 1), -1);
  std::function<double(std::int64_t, std::int64_t)> D = [&](std::int64_t i, std::int64_t j) {
    if (i == 0 && j == 0) return 0.0;
    if (i == 0 || j == 0) return std::numeric_limits<double>::infinity();
    double& slot = memo[i * (m + 1) + j];
    if (slot >= 0) return slot;
    auto dist = [&](const double* x, const double* y) {
      double s = 0;
      for (int k = 0; k < dim; ++k) s += std::pow(std::fabs(x[k] - y[k]), p.costs.degree);
      return p.costs.root ? std::pow(s, 1.0 / p.costs.degree) : s;
    };
    const double match = D(i - 1, j - 1) + dist(a.at(i, zero.data()), b.at(j, zero.data())) +
                         dist(a.at(i - 1, zero.data()), b.at(j - 1, zero.data())) +
                         c.nu * (std::fabs(a.time(i) - b.time(j)) +
                                 std::fabs(a.time(i - 1) - b.time(j - 1)));
    const double del_a = D(i - 1, j) + dist(a.at(i, zero.data()), a.at(i - 1, zero.data())) +
                         c.lambda + c.nu * (a.time(i) - a.time(i - 1));
    const double del_b = D(i, j - 1) + dist(b.at(j, zero.data()), b.at(j - 1, zero.data())) +
                         c.lambda + c.nu * (b.time(j) - b.time(j - 1));
    slot = std::min({match, del_a, del_b});
    return slot;
  };
  return D(n, m);
}

std::vector<double> iota(double from, int count) {
  std::vector<double> v(count);
  for (int k = 0; k < count; ++k) v[k] = from + k;
  return v;
}

TEST(TwedGolden, AeonOneToTenAgainstElevenToTwenty) {
  // aeon: twe_distance(x = 1..10, y = 11..20, nu = 0.001, lambda = 1) = 46.018
  const TwedProblem p =
      pair_problem(iota(1, 10), iota(1, 10), iota(11, 10), iota(1, 10), 1, {0.001, 1, 2, true});
  EXPECT_NEAR(full_matrix_pair(p, 0, 0), 46.018, 1e-3);
  EXPECT_NEAR(itwed_pair(p, 0, 0), 46.018, 1e-3);
  EXPECT_NEAR(itwed_pair(p, 0, 0, true), 46.018, 1e-3);
  // cuTWED's tests count time from zero: the same distance, every gap is still 1.
  const TwedProblem z =
      pair_problem(iota(1, 10), iota(0, 10), iota(11, 10), iota(0, 10), 1, {0.001, 1, 2, true});
  EXPECT_NEAR(full_matrix_pair(z, 0, 0), 46.018, 1e-3);
}

TEST(TwedGolden, IdenticalSeriesAreZeroApart) {
  const TwedProblem p = pair_problem({3, -1, 2, 7}, {1, 2.5, 3, 9}, {3, -1, 2, 7},
                                     {1, 2.5, 3, 9}, 1, {0.7, 2, 2, true});
  EXPECT_EQ(full_matrix_pair(p, 0, 0), 0.0);
  EXPECT_EQ(itwed_pair(p, 0, 0), 0.0);
}

TEST(TwedGolden, SinglePointsByHand) {
  // n = m = 1: only the match, c(1,1) + c(0,0) = |a - b| + nu |ta - tb|.
  const TwedProblem p = pair_problem({2}, {5}, {-1}, {3}, 1, {0.5, 9, 2, true});
  EXPECT_DOUBLE_EQ(full_matrix_pair(p, 0, 0), 3 + 0.5 * 2);
  // Unrooted, degree 2: the squared difference.
  const TwedProblem u = pair_problem({2}, {5}, {-1}, {3}, 1, {0.5, 9, 2, false});
  EXPECT_DOUBLE_EQ(full_matrix_pair(u, 0, 0), 9 + 0.5 * 2);
}

// Random series in R^dim with increasing random timestamps.
TwedProblem random_pair(std::uint64_t seed, int n, int m, int dim, Costs c) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> g(0, 3);
  std::uniform_real_distribution<double> gap(0.1, 2);
  auto values = [&](int len) {
    std::vector<double> v(std::size_t(len) * dim);
    for (auto& x : v) x = g(rng);
    return v;
  };
  auto times = [&](int len) {
    std::vector<double> t(len);
    double now = gap(rng);
    for (auto& x : t) x = now, now += gap(rng);
    return t;
  };
  auto a = values(n), ta = times(n), b = values(m), tb = times(m);
  return pair_problem(a, ta, b, tb, dim, c);
}

TEST(TwedSequential, BothAlgorithmsFollowTheRecurrence) {
  const Costs costs[] = {{1, 1, 2, true}, {0.001, 1, 2, true}, {0.3, 0.5, 3, true},
                         {2, 0, 1, false}, {0, 4, 2, false}};
  int seed = 1;
  for (int n : {1, 2, 5, 31, 33})
    for (int m : {1, 3, 32})
      for (int dim : {1, 3})
        for (const Costs& c : costs) {
          const TwedProblem p = random_pair(seed++, n, m, dim, c);
          const double want = recursive_twed(p);
          SCOPED_TRACE(testing::Message() << "n=" << n << " m=" << m << " dim=" << dim
                                          << " degree=" << c.degree << " root=" << c.root);
          EXPECT_NEAR(full_matrix_pair(p, 0, 0), want, 1e-10 * want + 1e-12);
          EXPECT_NEAR(itwed_pair(p, 0, 0), want, 1e-10 * want + 1e-12);
          EXPECT_NEAR(itwed_pair(p, 0, 0, true), want, 1e-10 * want + 1e-12);
        }
}

TEST(TwedSequential, SymmetricInItsArguments) {
  TwedProblem p = random_pair(77, 40, 23, 2, {0.4, 1.5, 2, true});
  TwedProblem q = p;
  std::swap(q.a, q.b);
  EXPECT_NEAR(full_matrix_pair(p, 0, 0), full_matrix_pair(q, 0, 0), 1e-12 * full_matrix_pair(p, 0, 0));
}

// The registered CPU steps on a generated point, through the registry as the runner uses them.
Output run_variant(const std::string& id, const Params& given) {
  const Study& study = *registry().study("twed");
  const VariantSpec& v = *registry().variant(id);
  auto problem = study.make_problem(DataSource{"random_walk", ""}, resolve(study, &v, given));
  EXPECT_EQ(v.supports(*problem, resolve(study, &v, given), DeviceCaps{}), "");
  auto inst = v.prepare(*problem, resolve(study, &v, given), DeviceCaps{});
  inst->poison();
  inst->run_ms();
  return inst->fetch();
}

Params point(const char* mode, int n, int series, int dim) {
  Params p;
  p.set("mode", mode);
  p.set("n", std::to_string(n));
  p.set("series", std::to_string(series));
  p.set("dim", std::to_string(dim));
  p.set("seed", "5");
  p.set("timestamps", "data");
  return p;
}

TEST(TwedSteps, BatchAndTriangleMatchSinglePairs) {
  const Params batch = point("batch", 29, 7, 3), triangle = point("triangle", 29, 7, 3);
  for (const char* id : {"twed/seq_full", "twed/seq_itwed", "twed/openmp"}) {
    SCOPED_TRACE(id);
    const Output b = run_variant(id, batch), t = run_variant(id, triangle);
    ASSERT_EQ(b.size(), 49u);
    ASSERT_EQ(t.size(), 49u);
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 7; ++j) {
        Params one = point("pair", 29, 7, 3);
        one.set("a", std::to_string(i));
        one.set("b", std::to_string(j));
        const double want = run_variant("twed/seq_full", one).at(0);
        EXPECT_NEAR(b.at(i * 7 + j), want, 1e-9 * want);
        if (i == j) EXPECT_EQ(t.at(i * 7 + j), 0.0);
        else EXPECT_NEAR(t.at(i * 7 + j), want, 1e-9 * want);
      }
  }
}

TEST(TwedSteps, UnequalListsAndLengths) {
  Params p = point("batch", 17, 4, 1);
  p.set("m", "9");
  const Output full = run_variant("twed/seq_full", p), omp = run_variant("twed/openmp", p);
  ASSERT_EQ(full.size(), 16u);
  for (std::size_t k = 0; k < full.size(); ++k) EXPECT_NEAR(omp.at(k), full.at(k), 1e-9 * full.at(k));
}

// seq_full keeps one pair's (n+1) x (m+1) matrix: it runs wherever that fits in the host's
// share of memory (the seed's twed.c ran to N = 65,536, a 32 GiB matrix), and a point whose
// matrix does not fit is refused by the host memory check, which says how much it needs.
TEST(TwedSteps, FullMatrixRefusedOnlyBeyondHostMemory) {
  const VariantSpec& full = *registry().variant("twed/seq_full");
  auto pair_of = [](std::int64_t n) {  // the sizes alone: the check reads no value
    TwedProblem p;
    p.mode = Mode::pair;
    p.a.count = p.b.count = 1;
    p.a.length = p.b.length = n;
    p.a.dim = p.b.dim = 1;
    return p;
  };
  const Params params;
  const DeviceCaps none;
  const double share = kHostMemoryShare * host_memory_bytes();
  // The largest N whose matrix fits (at most 65,536: more would take minutes), and twice it.
  const auto fits = std::int64_t(std::min(65536.0, std::sqrt(share / 8.0) * 0.9));
  EXPECT_EQ(full.supports(pair_of(std::min<std::int64_t>(fits, 16384)), params, none), "");
  EXPECT_EQ(full.supports(pair_of(fits), params, none), "");
  const auto beyond = std::int64_t(std::sqrt(share / 8.0) * 1.1);
  const std::string why = full.supports(pair_of(beyond), params, none);
  EXPECT_NE(why.find("of host memory"), std::string::npos) << why;
}

}  // namespace
}  // namespace ladder::twed
