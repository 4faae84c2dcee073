// The sequential DTWs against a brute-force recursive DTW, and the CPU steps end to end.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>

#include "harness/study.hpp"
#include "variants/dtw/problem.hpp"

namespace ladder::dtw {
namespace {

// Straight from the definition: D(i, j) for the prefixes q[0..i) and s[0..j), in double,
// recursing on all three predecessors (memoised so n = 12 stays fast). Cells farther than
// `band` from the diagonal are +inf.
double recursive_dtw(const std::vector<float>& q, const std::vector<float>& s,
                     long band = 1 << 30) {
  const std::size_t n = q.size(), m = s.size();
  std::vector<double> memo((n + 1) * (m + 1), -1);
  std::function<double(std::size_t, std::size_t)> D = [&](std::size_t i, std::size_t j) {
    if (i == 0 && j == 0) return 0.0;
    if (i == 0 || j == 0) return std::numeric_limits<double>::infinity();
    if (std::labs(long(i) - long(j)) > band) return std::numeric_limits<double>::infinity();
    double& slot = memo[i * (m + 1) + j];
    if (slot >= 0) return slot;
    const double d = double(q[i - 1]) - double(s[j - 1]);
    slot = d * d + std::min({D(i - 1, j - 1), D(i - 1, j), D(i, j - 1)});
    return slot;
  };
  return D(n, m);
}

std::vector<float> random_series(std::mt19937& rng, std::size_t n) {
  std::normal_distribution<float> g(0.f, 2.f);
  std::vector<float> v(n);
  for (auto& x : v) x = g(rng);
  return v;
}

TEST(DtwCell, MatchesDefinition) {
  EXPECT_FLOAT_EQ(dtw_cell(5, 3, 4, 1, 3), 4 + 3);
  EXPECT_FLOAT_EQ(dtw_cell(1, 3, 4, 2, 2), 1);
  EXPECT_FLOAT_EQ(dtw_cell(INFINITY, INFINITY, 2, 0, 1), 3);
}

TEST(TwoRows, KnownValues) {
  std::vector<float> rows(16);
  std::vector<float> a{0, 1, 2}, b{0, 1, 2}, c{1}, d{3};
  EXPECT_EQ(dtw_two_rows(a.data(), b.data(), 3, rows.data(), 3), 0.f);
  EXPECT_EQ(dtw_two_rows(c.data(), d.data(), 1, rows.data(), 1), 4.f);
  // warping: q = 0 0 1, s = 0 1 1 aligns with cost 0
  std::vector<float> e{0, 0, 1}, f{0, 1, 1};
  EXPECT_EQ(dtw_two_rows(e.data(), f.data(), 3, rows.data(), 3), 0.f);
  // band 0 forbids the warp: the squared Euclidean distance 0 + 1 + 0
  EXPECT_EQ(dtw_two_rows(e.data(), f.data(), 3, rows.data(), 0), 1.f);
}

TEST(TwoRows, MatchesRecursiveOnRandomInputs) {
  std::mt19937 rng(std::random_device{}());
  for (std::size_t n : {1, 2, 3, 5, 8, 12}) {
    for (int trial = 0; trial < 20; ++trial) {
      auto q = random_series(rng, n), s = random_series(rng, n);
      std::vector<float> rows(2 * (n + 1));
      const double want = recursive_dtw(q, s);
      EXPECT_NEAR(dtw_two_rows(q.data(), s.data(), n, rows.data(), n), want, 1e-5 * (1 + want))
          << "n=" << n;
    }
  }
}

TEST(TwoRows, BandMatchesRecursiveOnRandomInputs) {
  std::mt19937 rng(std::random_device{}());
  for (int n : {1, 2, 5, 9, 12})
    for (int band : {0, 1, 2, 3, 7, 20}) {
      auto q = random_series(rng, n), s = random_series(rng, n);
      std::vector<float> rows(2 * (n + 1), -1.f);  // garbage: the band walls must be written
      const double want = recursive_dtw(q, s, band);
      EXPECT_NEAR(dtw_two_rows(q.data(), s.data(), n, rows.data(), band), want,
                  1e-5 * (1 + want))
          << "n=" << n << " band=" << band;
    }
}

// Runs a registered CPU step on a random problem (several queries, optionally banded) and
// checks every distance against the recursive DTW.
void check_cpu_step(const std::string& id, std::size_t n, std::size_t entries, unsigned seed,
                    int queries = 1, int band = 1 << 20) {
  const VariantSpec* v = registry().variant(id);
  ASSERT_NE(v, nullptr) << id;
  std::mt19937 rng(seed);
  DtwProblem p;
  p.data.entries = entries;
  p.data.length = n;
  for (std::size_t e = 0; e < entries; ++e) {
    auto s = random_series(rng, n);
    p.data.values.insert(p.data.values.end(), s.begin(), s.end());
    p.data.labels.push_back(0);
  }
  for (int k = 0; k < queries; ++k) {
    auto q = random_series(rng, n);
    p.query_index.push_back(k);
    p.queries.insert(p.queries.end(), q.begin(), q.end());
  }
  p.band = std::min<int>(band, n);
  const Params params = resolve(*registry().study("dtw"), v, Params{});
  ASSERT_EQ(v->supports(p, params, DeviceCaps{}), "");
  auto inst = v->prepare(p, params, DeviceCaps{});
  inst->poison();
  Output before = inst->fetch();
  for (std::size_t e = 0; e < before.size(); ++e) ASSERT_TRUE(std::isnan(before.at(e)));
  inst->run_ms();
  Output out = inst->fetch();
  ASSERT_EQ(out.size(), entries * queries);
  for (int k = 0; k < queries; ++k) {
    std::vector<float> q(p.query(k), p.query(k) + n);
    for (std::size_t e = 0; e < entries; ++e) {
      std::vector<float> s(p.data.series(e), p.data.series(e) + n);
      const double want = recursive_dtw(q, s, band);
      EXPECT_NEAR(out.at(k * entries + e), want, 1e-5 * (1 + want))
          << id << " n=" << n << " band=" << band << " query " << k << " entry " << e;
    }
  }
}

TEST(CpuSteps, MatchRecursiveDtw) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const char* id : {"dtw/seq_full", "dtw/seq_tworow", "dtw/openmp"})
    for (std::size_t n : {1, 2, 7, 12})
      for (std::size_t entries : {1, 3, 37}) check_cpu_step(id, n, entries, seed + n);
}

TEST(CpuSteps, BandAndMultiQuery) {
  const unsigned seed = std::random_device{}();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const char* id : {"dtw/seq_full", "dtw/seq_tworow", "dtw/openmp"})
    for (int band : {0, 1, 3})
      for (int queries : {1, 3}) check_cpu_step(id, 11, 17, seed + band, queries, band);
}

TEST(Study, BaselineAndSelfMatch) {
  const Study* study = registry().study("dtw");
  ASSERT_NE(study, nullptr);
  Params p;
  p.set("n", "29");
  p.set("entries", "10");
  p.set("query", "4");
  auto prob = study->make_problem(DataSource{"cbf", ""}, resolve(*study, nullptr, p));
  auto ref = study->reference(*prob, {0, 4, 9});
  EXPECT_EQ(ref[1], 0.0);  // the query against itself
  EXPECT_GT(ref[0], 0.0);
  EXPECT_EQ(study->output_size(*prob), 10u);
  auto tol = study->tolerance(*prob, *registry().variant("dtw/shared"));
  EXPECT_GT(tol.rel, 0);
  EXPECT_LT(tol.rel, 1e-4);
}

}  // namespace
}  // namespace ladder::dtw
