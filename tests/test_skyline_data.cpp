// The skyline study's data layer (datagen/points): the Borzsonyi-Kossmann-Stocker generator
// (determinism, thread-count independence, range, the three distributions' shapes), the CSV
// reader's layouts and refusals, the .npy reader's refusals, and the writer's round trips.
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "datagen/anticorrelated.hpp"
#include "datagen/base/errors.hpp"
#include "datagen/npy.hpp"
#include "datagen/points.hpp"
#include "datagen/rng.hpp"
#include "tests/reader_checks.hpp"

namespace ladder {
namespace {

using namespace std::string_literals;

using testing_support::temp_path;
using testing_support::write_bytes;

constexpr PointDistribution kAll[] = {PointDistribution::independent,
                                      PointDistribution::correlated,
                                      PointDistribution::anticorrelated};

PointGen gen(std::int64_t n, int d, PointDistribution dist, std::uint64_t seed = 7) {
  PointGen g;
  g.n = n;
  g.d = d;
  g.distribution = dist;
  g.seed = seed;
  return g;
}

// Float equality bit for bit (-0 and 0 differ; no NaN is ever expected).
bool same_bits(const std::vector<float>& x, const std::vector<float>& y) {
  return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0;
}

void expect_same(const PointSet& x, const PointSet& y) {
  EXPECT_EQ(x.n, y.n);
  EXPECT_EQ(x.d, y.d);
  EXPECT_TRUE(same_bits(x.values, y.values));
}

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

double mean_of(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / double(v.size());
}

double variance_of(const std::vector<double>& v) {
  const double m = mean_of(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return s / double(v.size());
}

std::vector<double> attribute(const PointSet& s, int k) {
  std::vector<double> out;
  for (std::int64_t i = 0; i < s.n; ++i) out.push_back(s.point(i)[k]);
  return out;
}

std::vector<double> sums(const PointSet& s) {
  std::vector<double> out;
  for (std::int64_t i = 0; i < s.n; ++i) {
    double t = 0;
    for (int k = 0; k < s.d; ++k) t += s.point(i)[k];
    out.push_back(t);
  }
  return out;
}

double correlation(const std::vector<double>& x, const std::vector<double>& y) {
  const double mx = mean_of(x), my = mean_of(y);
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxy / std::sqrt(sxx * syy);
}

PointSet csv(const std::string& text) { return parse_points_csv(text, "f.csv"); }

std::string write_npy_file(const std::string& name, Output::Data data,
                           std::vector<std::size_t> shape) {
  Output out;
  out.data = std::move(data);
  out.shape = std::move(shape);
  const std::string path = temp_path(name);
  write_npy(path, out);
  return path;
}

// --- generator ------------------------------------------------------------------------------

TEST(SkylineGenerator, DistributionNames) {
  EXPECT_EQ(point_distribution("independent"), PointDistribution::independent);
  EXPECT_EQ(point_distribution("correlated"), PointDistribution::correlated);
  EXPECT_EQ(point_distribution("anticorrelated"), PointDistribution::anticorrelated);
  EXPECT_INPUT_ERROR(point_distribution("uniform"), "unknown distribution 'uniform'",
                     "(independent, correlated, anticorrelated)");
  EXPECT_INPUT_ERROR(point_distribution("anti\ncorrelated"), "'anti\\x0acorrelated'");
  EXPECT_INPUT_ERROR(point_distribution(""), "unknown distribution ''");
}

TEST(SkylineGenerator, DeterministicAndSeeded) {
  for (PointDistribution dist : kAll) {
    const PointGen g = gen(300, 5, dist);
    expect_same(generate_points(g), generate_points(g));
    PointGen other = g;
    other.seed = 8;
    EXPECT_FALSE(same_bits(generate_points(other).values, generate_points(g).values));
  }
}

TEST(SkylineGenerator, ThreadCountIndependent) {
  const int saved = omp_get_max_threads();
  for (PointDistribution dist : kAll)
    for (int d : {1, 3, 16, 40}) {
      const PointGen g = gen(1001, d, dist);
      omp_set_num_threads(1);
      const PointSet one = generate_points(g);
      omp_set_num_threads(3);
      const PointSet three = generate_points(g);
      SCOPED_TRACE(d);
      expect_same(one, three);
    }
  omp_set_num_threads(saved);
}

TEST(SkylineGenerator, PointsDependOnlyOnSeedAndIndex) {
  for (PointDistribution dist : kAll) {
    const PointSet big = generate_points(gen(40, 6, dist));
    const PointSet small = generate_points(gen(9, 6, dist));
    ASSERT_EQ(small.values.size(), 54u);
    EXPECT_TRUE(same_bits(small.values, {big.values.begin(), big.values.begin() + 54}));
  }
}

TEST(SkylineGenerator, LayoutAndUnitRange) {
  for (PointDistribution dist : kAll)
    for (int d : {1, 2, 7, 16, 64}) {
      const PointSet s = generate_points(gen(5000, d, dist, 11));
      EXPECT_EQ(s.n, 5000);
      EXPECT_EQ(s.d, d);
      ASSERT_EQ(s.values.size(), 5000u * d);
      for (float v : s.values) ASSERT_TRUE(v >= 0.f && v <= 1.f) << v << " at d " << d;
      // Means near 0.5: every distribution is symmetric about the middle of the cube.
      for (int k = 0; k < d; ++k) EXPECT_NEAR(mean_of(attribute(s, k)), 0.5, 0.03);
    }
}

TEST(SkylineGenerator, IndependentIsUniform) {
  const PointSet s = generate_points(gen(20000, 3, PointDistribution::independent));
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(variance_of(attribute(s, k)), 1.0 / 12, 0.005);
  EXPECT_NEAR(correlation(attribute(s, 0), attribute(s, 1)), 0.0, 0.05);
  std::vector<int> bins(10, 0);
  for (float v : s.values) ++bins[std::min(9, int(v * 10))];
  for (int b : bins) EXPECT_NEAR(b, 6000, 400);
}

// The paper's v = peak(0, 1, d) narrows as d grows while the shifts h do not, so neighbours are
// clearly correlated only at small d (about 0.7 at d = 2, 0.27 at d = 8, none at d = 16).
TEST(SkylineGenerator, CorrelatedAttributesRiseTogether) {
  for (int d : {2, 3, 4}) {
    const PointSet s = generate_points(gen(20000, d, PointDistribution::correlated));
    SCOPED_TRACE(d);
    EXPECT_GT(correlation(attribute(s, 0), attribute(s, 1)), 0.4);
    EXPECT_GT(correlation(attribute(s, 0), attribute(s, d - 1)), 0.4);
  }
}

// The shifts cancel: a point's sum is d v, v peaked at 0.5 with a small spread (its variance
// relative to independent attributes' grows with d: 0.04 at d = 2, 0.2 at d = 8).
TEST(SkylineGenerator, AnticorrelatedSumsBarelyVary) {
  for (int d : {2, 4, 8}) {
    const PointSet anti = generate_points(gen(20000, d, PointDistribution::anticorrelated));
    const PointSet indep = generate_points(gen(20000, d, PointDistribution::independent));
    SCOPED_TRACE(d);
    EXPECT_LT(variance_of(sums(anti)), 0.3 * variance_of(sums(indep)));
    EXPECT_NEAR(mean_of(sums(anti)), 0.5 * d, 0.02 * d);
    EXPECT_LT(correlation(attribute(anti, 0), attribute(anti, 1)), -0.2);
  }
}

// --- anticorrelated points of many attributes (datagen/anticorrelated.hpp) ----------------

// The two-sample Kolmogorov-Smirnov distance: the largest gap between the empirical CDFs.
double ks_distance(std::vector<double> x, std::vector<double> y) {
  std::sort(x.begin(), x.end());
  std::sort(y.begin(), y.end());
  double gap = 0;
  for (std::size_t i = 0, j = 0; i < x.size() && j < y.size();) {
    (x[i] <= y[j] ? i : j) += 1;
    gap = std::max(gap, std::abs(double(i) / double(x.size()) - double(j) / double(y.size())));
  }
  return gap;
}

// What the comparison looks at of a point: an attribute, the mean, the largest and smallest
// attribute, and the difference of two far apart.
std::vector<std::vector<double>> features(const std::vector<std::vector<double>>& points) {
  std::vector<std::vector<double>> f(5);
  for (const std::vector<double>& x : points) {
    const int d = int(x.size());
    f[0].push_back(x[0]);
    f[1].push_back(std::accumulate(x.begin(), x.end(), 0.0) / d);
    f[2].push_back(*std::max_element(x.begin(), x.end()));
    f[3].push_back(*std::min_element(x.begin(), x.end()));
    f[4].push_back(x[0] - x[static_cast<std::size_t>(d / 2)]);
  }
  return f;
}

// Where whole vectors drawn again are quick (the generator draws them up to d = 19), the
// sampler's points have their distribution: every feature within the Kolmogorov-Smirnov bound
// of the 0.1% level (1.95 sqrt(2 / n)).
TEST(SkylineAnticorrelatedSampler, DrawsTheDistributionOfWholeVectorsDrawnAgain) {
  constexpr std::int64_t n = 40000;
  for (int d : {2, 8, 19}) {
    const PointSet whole = generate_points(gen(n, d, PointDistribution::anticorrelated));
    std::vector<std::vector<double>> drawn(n, std::vector<double>(static_cast<std::size_t>(d)));
    std::vector<std::vector<double>> kept(n);
    const AnticorrelatedSampler sampler(d);
    for (std::int64_t i = 0; i < n; ++i) {
      Rng rng(99, std::uint64_t(i));
      ASSERT_TRUE(sampler.draw(rng, drawn[static_cast<std::size_t>(i)].data(), [] { return true; }));
      kept[static_cast<std::size_t>(i)].assign(whole.point(i), whole.point(i) + d);
    }
    const auto a = features(drawn), b = features(kept);
    SCOPED_TRACE(d);
    for (std::size_t k = 0; k < a.size(); ++k)
      EXPECT_LT(ks_distance(a[k], b[k]), 1.95 * std::sqrt(2.0 / n)) << "feature " << k;
  }
}

// At 64 attributes (where a whole vector falls in [0, 1]^d once in some 3 million tries) the
// points come in seconds, in [0, 1], with sums d v and neighbours anticorrelated.
TEST(SkylineAnticorrelatedSampler, SixtyFourAttributesInSeconds) {
  const auto t0 = std::chrono::steady_clock::now();
  const PointSet s = generate_points(gen(20000, 64, PointDistribution::anticorrelated));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 30);
  for (float v : s.values) ASSERT_TRUE(v >= 0.f && v <= 1.f) << v;
  EXPECT_NEAR(mean_of(sums(s)), 32, 0.5);
  EXPECT_LT(correlation(attribute(s, 0), attribute(s, 1)), -0.1);  // -0.22
}

TEST(SkylineGenerator, OneAttribute) {
  // d = 1: x_0 += h, then x_0 -= h, so the point is v itself.
  const PointSet corr = generate_points(gen(20000, 1, PointDistribution::correlated));
  EXPECT_NEAR(variance_of(attribute(corr, 0)), 1.0 / 12, 0.005);  // peak(0, 1, 1): uniform
  const PointSet anti = generate_points(gen(20000, 1, PointDistribution::anticorrelated));
  for (float v : anti.values) ASSERT_TRUE(v >= 0.25f && v <= 0.75f) << v;
  EXPECT_NEAR(mean_of(attribute(anti, 0)), 0.5, 0.005);
  const PointSet indep = generate_points(gen(3, 1, PointDistribution::independent));
  EXPECT_EQ(indep.values.size(), 3u);
}

TEST(SkylineGenerator, NoPointsKeepsD) {
  for (PointDistribution dist : kAll) {
    const PointSet s = generate_points(gen(0, 9, dist));
    EXPECT_EQ(s.n, 0);
    EXPECT_EQ(s.d, 9);
    EXPECT_TRUE(s.values.empty());
  }
}

TEST(SkylineGenerator, RefusesBadRequests) {
  EXPECT_INPUT_ERROR(generate_points(gen(10, 0, PointDistribution::independent)), "points",
                     "d must be 1 to 64", "got 0");
  EXPECT_INPUT_ERROR(generate_points(gen(10, 65, PointDistribution::correlated)), "got 65");
  EXPECT_INPUT_ERROR(generate_points(gen(10, -1, PointDistribution::correlated)), "got -1");
  EXPECT_INPUT_ERROR(generate_points(gen(-1, 2, PointDistribution::independent)),
                     "n must be at least 0", "got -1");
  EXPECT_INPUT_ERROR(generate_points(gen(std::numeric_limits<std::int64_t>::max(), 64,
                                         PointDistribution::independent)),
                     "more values than can be addressed");
}

// --- generation time ---------------------------------------------------------------------

// What the skyline paper configs generate (10^6 points up to d = 16 anticorrelated, 10^7 at
// d = 8) is well within the limit; so are sets of every distribution at d = 64.
TEST(SkylineGenerationTime, FeasibleSetsPass) {
  EXPECT_NO_THROW(check_generation_time(gen(1000000, 16, PointDistribution::anticorrelated)));
  EXPECT_NO_THROW(check_generation_time(gen(10000000, 8, PointDistribution::anticorrelated)));
  EXPECT_NO_THROW(check_generation_time(gen(1000000, 64, PointDistribution::correlated)));
  EXPECT_NO_THROW(check_generation_time(gen(1000000, 64, PointDistribution::anticorrelated)));
  EXPECT_NO_THROW(check_generation_time(gen(10000000, 64, PointDistribution::independent)));
}

// Beyond the limit a request is refused from the pilot's estimate, before anything is made:
// 10^12 points would take weeks whatever the distribution (the estimate alone never allocates
// them).
TEST(SkylineGenerationTime, RefusesBeyondTheLimit) {
  EXPECT_INPUT_ERROR(check_generation_time(gen(1000000000000, 64, PointDistribution::anticorrelated)),
                     "generating 1000000000000 anticorrelated points of 64 attributes", "would take",
                     "limit of 10 min");
  EXPECT_INPUT_ERROR(check_generation_time(gen(1000000000000, 2, PointDistribution::independent)),
                     "would take", "limit of 10 min");
}

// A small set is settled by a pilot of at most its own points, and judged quick.
TEST(SkylineGenerationTime, SmallSetsAreQuick) {
  const GenerationEstimate e = estimate_generation(gen(500, 12, PointDistribution::anticorrelated));
  EXPECT_GT(e.pilot_points, 0);
  EXPECT_LE(e.pilot_points, 500);
  EXPECT_LT(e.seconds, 1.0);
  EXPECT_EQ(estimate_generation(gen(0, 3, PointDistribution::correlated)).pilot_points, 0);
}

// The estimate is within a small factor of the generator's own time (both see the same
// machine; the factor leaves room for other load, which may change between the two).
TEST(SkylineGenerationTime, EstimateMatchesTheGenerator) {
  const PointGen g = gen(40000, 24, PointDistribution::anticorrelated);
  const GenerationEstimate e = estimate_generation(g);
  const auto t0 = std::chrono::steady_clock::now();
  generate_points(g);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GT(e.seconds, took / 4) << e.pilot_points << " points in " << e.pilot_seconds << " s";
  EXPECT_LT(e.seconds, took * 4) << e.pilot_points << " points in " << e.pilot_seconds << " s";
}

// --- CSV reader ----------------------------------------------------------------------------

TEST(SkylineCsv, PlainRows) {
  const PointSet s = csv("0.5,0.25,1\n0.125,0,0.1\n");
  EXPECT_EQ(s.n, 2);
  EXPECT_EQ(s.d, 3);
  EXPECT_TRUE(same_bits(s.values, {0.5f, 0.25f, 1.f, 0.125f, 0.f, 0.1f}));
  // The last line may lack its '\n'; trailing blank lines are nothing.
  expect_same(csv("0.5,0.25,1\n0.125,0,0.1"), s);
  expect_same(csv("0.5,0.25,1\n0.125,0,0.1\n\n \n\t\n"), s);
  // Signs, exponents and a leading '+' as parse_float32 takes them.
  EXPECT_TRUE(same_bits(csv("-1.5e-3,+2,.5,-0\n").values, {-1.5e-3f, 2.f, .5f, -0.f}));
}

TEST(SkylineCsv, IdColumns) {
  const std::vector<float> want = {0.5f, 0.25f, 0.75f, 0.125f, 1.f, 0.f};
  for (const std::string& text : {"0,0.5,0.25\n1,0.75,0.125\n2,1,0\n"s,  // SkyBench, pandas
                                  "1,0.5,0.25\n2,0.75,0.125\n3,1,0\n"s,  // 1-based
                                  "00,0.5,0.25\n01,0.75,0.125\n2,1,0\n"s}) {
    const PointSet s = csv(text);
    SCOPED_TRACE(text);
    EXPECT_EQ(s.n, 3);
    EXPECT_EQ(s.d, 2);
    EXPECT_TRUE(same_bits(s.values, want));
  }
  // Two columns with ids leave one attribute.
  const PointSet one = csv("0,7\n1,8\n");
  EXPECT_EQ(one.d, 1);
  EXPECT_TRUE(same_bits(one.values, {7.f, 8.f}));
}

TEST(SkylineCsv, FirstColumnsThatAreNotIdsStay) {
  for (const std::string& text : {"0,0.5\n2,0.25\n"s,    // not in order
                                  "1,0.5\n1,0.25\n"s,    // repeated
                                  "0,0.5\n1,0.25\n3,1\n"s,  // breaks on the last line
                                  "1,0.5\n0,0.25\n"s,    // descending
                                  "0.0,0.5\n1.0,0.25\n"s,  // not written as integers
                                  "-0,0.5\n1,0.25\n"s}) {
    const PointSet s = csv(text);
    SCOPED_TRACE(text);
    EXPECT_EQ(s.d, 2);
    EXPECT_EQ(s.values.size(), 2u * std::size_t(s.n));
  }
  EXPECT_TRUE(same_bits(csv("1,0.5\n1,0.25\n").values, {1.f, 0.5f, 1.f, 0.25f}));
  // A mix of 0-based and 1-based is neither.
  EXPECT_EQ(csv("0,0.5\n2,0.25\n").d, 2);
}

TEST(SkylineCsv, SingleColumnIsNeverIds) {
  const PointSet s = csv("0\n1\n2\n");
  EXPECT_EQ(s.n, 3);
  EXPECT_EQ(s.d, 1);
  EXPECT_TRUE(same_bits(s.values, {0.f, 1.f, 2.f}));
  EXPECT_EQ(csv("x\n1\n2\n").d, 1);
}

TEST(SkylineCsv, HeaderLine) {
  const PointSet s = csv("x,y\n0.5,0.25\n");
  EXPECT_EQ(s.n, 1);
  EXPECT_EQ(s.d, 2);
  EXPECT_TRUE(same_bits(s.values, {0.5f, 0.25f}));
  const PointSet ids = csv("id, price , distance\n1,3,4\n2,5,6\n");
  EXPECT_EQ(ids.d, 2);
  EXPECT_TRUE(same_bits(ids.values, {3.f, 4.f, 5.f, 6.f}));
  // pandas' to_csv: an unnamed index column.
  const PointSet pandas = csv(",a,b\n0,0.5,0.25\n1,1,2\n");
  EXPECT_EQ(pandas.d, 2);
  EXPECT_TRUE(same_bits(pandas.values, {0.5f, 0.25f, 1.f, 2.f}));
  // Names that are almost numbers, and any bytes a name may hold.
  EXPECT_EQ(csv("1st,x1,\"2\",0x10\n1,2,3,4\n").n, 1);
  EXPECT_EQ(csv("pr\xc3\xa9sent,b\n1,2\n").n, 1);
}

TEST(SkylineCsv, CrlfAndSpaces) {
  const PointSet s = csv("0.5,0.25\n0.125,1\n");
  expect_same(csv("0.5,0.25\r\n0.125,1\r\n"), s);
  expect_same(csv("0.5,0.25\r\n0.125,1"), s);
  expect_same(csv("x,y\r\n0.5,0.25\r\n0.125,1\r\n\r\n"), s);
  expect_same(csv(" 0.5 ,\t0.25\t\n  0.125,1   \n"), s);
  expect_same(csv("0.5,0.25\n0.125,1\r\n"), s);  // each line ends as it likes
}

TEST(SkylineCsv, WideRows) {
  std::string wide_ids, wide;
  for (int i = 0; i < 2; ++i) {
    wide_ids += std::to_string(i);
    for (int k = 0; k < 64; ++k) wide_ids += ",0.5";
    wide_ids += "\n";
  }
  const PointSet s = csv(wide_ids);
  EXPECT_EQ(s.d, 64);  // 65 fields: ids and 64 attributes
  for (int k = 0; k < 65; ++k) wide += k ? ",0.5" : "7";
  wide += "\n";
  EXPECT_INPUT_ERROR(csv(wide), "'f.csv' has 65 attributes", "at most 64");
  EXPECT_INPUT_ERROR(csv("0.5," + wide), "'f.csv' line 1 has 66 fields", "at most 64");
}

TEST(SkylineCsv, RefusesRaggedRowsAndEmptyFields) {
  EXPECT_INPUT_ERROR(csv("1,2\n3\n"), "'f.csv' line 2 has 1 field, line 1 has 2");
  EXPECT_INPUT_ERROR(csv("1,2\n3,4\n5,6,7\n"), "'f.csv' line 3 has 3 fields, line 1 has 2");
  EXPECT_INPUT_ERROR(csv("a,b,c\n1,2\n"), "line 2 has 2 fields, line 1 (the header) has 3");
  EXPECT_INPUT_ERROR(csv("1,,2\n"), "'f.csv' line 1 column 2 is empty");
  EXPECT_INPUT_ERROR(csv("1,2\n3,4,\n"), "'f.csv' line 2 ends in a comma",
                     "line 1 (the first point) does not");
  EXPECT_INPUT_ERROR(csv("1,2,3\n3,4,\n"), "'f.csv' line 2 column 3 is empty");
  EXPECT_INPUT_ERROR(csv(",1\n"), "'f.csv' line 1 column 1 is empty");
  EXPECT_INPUT_ERROR(csv("1, \t,2\n"), "line 1 column 2 is empty");
  EXPECT_INPUT_ERROR(csv("x,,y\n1,2,3\n"), "'f.csv' line 1 column 2 is empty");
  EXPECT_INPUT_ERROR(csv(",\n1,2\n"), "'f.csv' line 1 column 2 is empty");
}

TEST(SkylineCsv, RefusesTextThatIsNotANumber) {
  EXPECT_INPUT_ERROR(csv("0.5,0.25\n0.1,abc\n"), "'f.csv' line 2 column 2 must be a number",
                     "got 'abc'");
  EXPECT_INPUT_ERROR(csv("1,abc\n"), "'f.csv' line 1 column 2 must be a number",
                     "header only when none of its fields is a number");
  EXPECT_INPUT_ERROR(csv("0.5 0.25\n"), "'f.csv' line 1 column 1 must be a number",
                     "separated by commas");
  EXPECT_INPUT_ERROR(csv("1,2\n0x1p3,2\n"), "line 2 column 1 must be a number");
  EXPECT_INPUT_ERROR(csv("1,2\n1e39,2\n"), "line 2 column 1 must be a float32 number");
  EXPECT_INPUT_ERROR(csv("1,2\n\"1\",2\n"), "'f.csv' line 2 holds quoted numbers");
  EXPECT_INPUT_ERROR(csv("1,2\nx,y\n"), "'f.csv' line 2 holds no number",
                     "header is only allowed as line 1");
  EXPECT_INPUT_ERROR(csv("x,y\na,b\n1,2\n"), "line 2 holds no number");
}

// SkyBench's layout: every line ends in one comma ("0.12, 0.55, 0.97,").
TEST(SkylineCsv, SkyBenchTrailingCommas) {
  const PointSet s = csv("0.5,0.25\n0.125,1\n");
  expect_same(csv("0.5,0.25,\n0.125,1,\n"), s);
  expect_same(csv("0.5, 0.25, \r\n0.125, 1 ,\t\r\n"), s);
  expect_same(csv("0,0.5,0.25,\n1,0.125,1,\n"), s);  // with ids
  expect_same(csv("x,y\n0.5,0.25,\n0.125,1,\n"), s);  // a header with or without one
  expect_same(csv("x,y,\n0.5,0.25,\n0.125,1,\n"), s);
  expect_same(csv("x,y,\n0.5,0.25\n0.125,1\n"), s);
  EXPECT_EQ(csv("7,\n8,\n").d, 1);
  // Every line or none; one comma only; an empty field elsewhere is still refused.
  EXPECT_INPUT_ERROR(csv("0.5,0.25,\n0.125,1,\n2,3\n"), "'f.csv' line 3 does not end in a comma",
                     "line 1 (the first point) does", "SkyBench");
  EXPECT_INPUT_ERROR(csv("x,y\n0.5,0.25\n2,3,\n"), "'f.csv' line 3 ends in a comma",
                     "line 2 (the first point) does not");
  EXPECT_INPUT_ERROR(csv("0.5,0.25,,\n"), "'f.csv' line 1 column 3 is empty");
  EXPECT_INPUT_ERROR(csv("0.5,0.25,\n0.125,1,,\n"), "'f.csv' line 2 column 3 is empty");
  EXPECT_INPUT_ERROR(csv("0.5,,0.25,\n"), "'f.csv' line 1 column 2 is empty");
  EXPECT_INPUT_ERROR(csv("0.5,0.25,\n0.125,,1,\n"), "line 2 has 3 fields");
}

// Layouts no reader takes are named, not taken for a header or a bad field.
TEST(SkylineCsv, NamesForeignLayouts) {
  EXPECT_INPUT_ERROR(csv("1;2;3\n4;5;6\n"), "'f.csv' line 1 uses ';' as separator",
                     "separated by commas");
  EXPECT_INPUT_ERROR(csv("0.5;0.25\n"), "line 1 uses ';' as separator");
  EXPECT_INPUT_ERROR(csv("a;b\n0,5;0,25\n"), "line 2 uses ';' as separator and ',' as decimal");
  EXPECT_INPUT_ERROR(csv("1;2;\n"), "uses ';' as separator");
  EXPECT_INPUT_ERROR(csv("\"1\",\"2\"\n\"3\",\"4\"\n"), "'f.csv' line 1 holds quoted numbers",
                     "unquoted");
  EXPECT_INPUT_ERROR(csv("'1','2'\n"), "line 1 holds quoted numbers");
  // R's write.csv: quoted names, quoted row names.
  EXPECT_INPUT_ERROR(csv("\"\",\"x\",\"y\"\n\"1\",0.5,0.25\n"), "line 2 holds quoted numbers");
  // Quoted names in a header are names.
  EXPECT_EQ(csv("\"x\",\"y\"\n1,2\n").n, 1);
  EXPECT_INPUT_ERROR(csv("x;y\n"), "holds no points (only a header line)");
}

TEST(SkylineCsv, RefusesNanAndInfinity) {
  EXPECT_INPUT_ERROR(csv("0.5,0.25\n0.1,0.2\n0.3,nan\n"),
                     "'f.csv' line 3 column 2: 'nan' is not a finite number",
                     "skyline data must be finite");
  EXPECT_INPUT_ERROR(csv("NaN,1\n"), "line 1 column 1: 'NaN' is not a finite number");
  EXPECT_INPUT_ERROR(csv("1,inf\n"), "line 1 column 2: 'inf' is not a finite number");
  EXPECT_INPUT_ERROR(csv("1,2\n1,-Infinity\n"), "line 2 column 2: '-Infinity' is not a finite");
  EXPECT_INPUT_ERROR(csv("1,2\n1, +inf \n"), "line 2 column 2: '+inf' is not a finite");
  // A line of NaNs is data, not a header.
  EXPECT_INPUT_ERROR(csv("nan,nan\n1,2\n"), "line 1 column 1: 'nan' is not a finite number");
  EXPECT_INPUT_ERROR(csv("1e999,x\n"), "line 1 column 1 must be a float32 number");
}

TEST(SkylineCsv, RefusesBinaryAndEncodings) {
  EXPECT_INPUT_ERROR(csv("1,2\n3,\0\n"s), "'f.csv' is not a text file",
                     "byte \\x00 at line 2 column 2");
  EXPECT_INPUT_ERROR(csv("\x01\x02\x03"), "not a text file", "line 1 column 1");
  EXPECT_INPUT_ERROR(csv("1,2\x7f\n"), "not a text file", "\\x7f");
  EXPECT_INPUT_ERROR(csv("\xEF\xBB\xBF" "1,2\n"), "'f.csv' starts with a UTF-8 byte-order mark");
  EXPECT_INPUT_ERROR(csv("\xFF\xFE" "1\0,\0"s), "UTF-16");
  EXPECT_INPUT_ERROR(csv("\x93NUMPY\x01\x00"s), "is a NumPy .npy file", "ending in .npy");
  EXPECT_INPUT_ERROR(csv("\x1f\x8b\x08\x00rest"), "'f.csv' is gzip-compressed: gunzip it first");
  EXPECT_INPUT_ERROR(csv("PK\x03\x04rest"), "'f.csv' is a zip archive");
  EXPECT_INPUT_ERROR(csv("1,2\r3,4\r"), "'f.csv' line 1 column 2 holds a carriage return",
                     "LF or CRLF");
  EXPECT_INPUT_ERROR(csv("1,2\r"), "line 1 column 2 holds a carriage return");
  EXPECT_INPUT_ERROR(csv("1,2\r\r\n"), "carriage return");
}

TEST(SkylineCsv, RefusesBlankLinesAndEmptyFiles) {
  EXPECT_INPUT_ERROR(csv("1,2\n\n3,4\n"), "'f.csv' line 2 is blank",
                     "blank lines may only end the file", "line 3 holds data");
  EXPECT_INPUT_ERROR(csv("\n1,2\n"), "'f.csv' line 1 is blank");
  EXPECT_INPUT_ERROR(csv("x,y\n  \n1,2\n"), "line 2 is blank");
  EXPECT_INPUT_ERROR(csv(""), "'f.csv' holds no points");
  EXPECT_INPUT_ERROR(csv("\n\r\n  \n"), "'f.csv' holds no points");
  EXPECT_INPUT_ERROR(csv("x,y\n"), "'f.csv' holds no points (only a header line)");
  EXPECT_INPUT_ERROR(csv("x,y\n\n"), "holds no points");
}

TEST(SkylineCsv, NamesTheFilePrintably) {
  EXPECT_INPUT_ERROR(parse_points_csv("1,x\n", "odd\nname.csv"), "'odd\\x0aname.csv' line 1");
}

// --- files -----------------------------------------------------------------------------------

TEST(SkylineFiles, ReadsCsvFiles) {
  const PointSet s = read_points(write_bytes("points.csv", "id,x,y\r\n0,0.5,0.25\r\n"));
  EXPECT_EQ(s.n, 1);
  EXPECT_EQ(s.d, 2);
  EXPECT_TRUE(same_bits(s.values, {0.5f, 0.25f}));
  // Anything not ending in .npy is CSV.
  EXPECT_EQ(read_points(write_bytes("points.NPY", "0.5,2\n")).d, 2);
}

TEST(SkylineFiles, RefusesFilesItCannotRead) {
  EXPECT_INPUT_ERROR(read_points(temp_path("absent.csv")), "absent.csv'", "no such file");
  EXPECT_INPUT_ERROR(read_points(temp_path("absent.npy")), "absent.npy'", "no such file");
  std::filesystem::create_directories(temp_path("points_dir"));
  EXPECT_INPUT_ERROR(read_points(temp_path("points_dir")), "is a directory");
  EXPECT_INPUT_ERROR(read_points(write_bytes("empty.csv", "")), "empty.csv' holds no points");
  EXPECT_INPUT_ERROR(read_points(write_bytes("npy_as.csv", read_whole(write_npy_file(
                         "small.npy", std::vector<float>{1.f}, {1, 1})))),
                     "npy_as.csv' is a NumPy .npy file");
  // A sparse file: its size is refused before a byte is read.
  const std::string big = write_bytes("big.csv", "1,2\n");
  std::filesystem::resize_file(big, (std::uintmax_t{1} << 31) + 1);
  EXPECT_INPUT_ERROR(read_points(big), "big.csv' holds 2147483649 bytes", "2^31");
  std::filesystem::remove(big);
}

TEST(SkylineFiles, RefusesFifosAndCompressedFiles) {
  for (const char* name : {"points_fifo.csv", "points_fifo.npy"}) {
    const std::string fifo = temp_path(name);
    std::filesystem::remove(fifo);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_INPUT_ERROR(read_points(fifo), name, "is not a regular file");
    std::filesystem::remove(fifo);
  }
  const std::string npy =
      read_whole(write_npy_file("plain.npy", std::vector<float>{1.f}, {1, 1}));
  EXPECT_INPUT_ERROR(read_points(write_bytes("gz.npy", "\x1f\x8b\x08\x00" + npy)),
                     "gz.npy' is gzip-compressed");
  EXPECT_INPUT_ERROR(read_points(write_bytes("pts.csv.gz", "\x1f\x8b\x08\x00" "abc")),
                     "pts.csv.gz' is gzip-compressed");
}

TEST(SkylineFiles, ReadsNpyFiles) {
  const PointSet f4 = read_points(
      write_npy_file("f4.npy", std::vector<float>{0.5f, 0.25f, 1.f, 0.f, 0.1f, 0.2f}, {3, 2}));
  EXPECT_EQ(f4.n, 3);
  EXPECT_EQ(f4.d, 2);
  EXPECT_TRUE(same_bits(f4.values, {0.5f, 0.25f, 1.f, 0.f, 0.1f, 0.2f}));
  const PointSet f8 = read_points(
      write_npy_file("f8.npy", std::vector<double>{0.1, -2.5, 3.4028234663852886e38}, {3}));
  EXPECT_EQ(f8.n, 3);
  EXPECT_EQ(f8.d, 1);  // 1-D: one attribute
  EXPECT_TRUE(same_bits(f8.values, {0.1f, -2.5f, std::numeric_limits<float>::max()}));
  const PointSet empty = read_points(write_npy_file("empty.npy", std::vector<float>{}, {0, 5}));
  EXPECT_EQ(empty.n, 0);
  EXPECT_EQ(empty.d, 5);
  EXPECT_TRUE(empty.values.empty());
  EXPECT_EQ(read_points(write_npy_file("empty1.npy", std::vector<float>{}, {0})).d, 1);
}

TEST(SkylineFiles, RefusesNpyFilesThatAreNotPoints) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v(18 * 4, 0.5f);
  v[17 * 4 + 3] = nan;
  EXPECT_INPUT_ERROR(read_points(write_npy_file("nan.npy", v, {18, 4})),
                     "nan.npy' point 17 attribute 3", "is NaN; skyline data must be finite");
  v[17 * 4 + 3] = 0;
  v[2 * 4 + 1] = -inf;
  EXPECT_INPUT_ERROR(read_points(write_npy_file("inf.npy", v, {18, 4})),
                     "inf.npy' point 2 attribute 1", "-infinity", "must be finite");
  EXPECT_INPUT_ERROR(read_points(write_npy_file("big.npy", std::vector<double>{1, 1e300}, {1, 2})),
                     "big.npy' point 0 attribute 1", "1.0000000000000001e+300",
                     "beyond float32's range");
  EXPECT_INPUT_ERROR(read_points(write_npy_file("d3.npy", std::vector<float>(24, 0.f), {2, 3, 4})),
                     "d3.npy' has shape (2, 3, 4)", "2-D array (n, d)");
  EXPECT_INPUT_ERROR(read_points(write_npy_file("d0.npy", std::vector<float>{}, {3, 0})),
                     "d0.npy' has shape (3, 0)", "at least one attribute");
  EXPECT_INPUT_ERROR(read_points(write_npy_file("d65.npy", std::vector<float>(65, 0.f), {1, 65})),
                     "d65.npy' has shape (1, 65)", "at most 64 attributes");
  EXPECT_INPUT_ERROR(read_points(write_npy_file("d00.npy", std::vector<float>{}, {0, 0})),
                     "d00.npy' has shape (0, 0)", "at least one attribute");
  // A 0-D array: the header of a (1, 1) file with its shape replaced, padding kept.
  std::string scalar = read_whole(write_npy_file("one.npy", std::vector<float>{1.f}, {1, 1}));
  const std::size_t at = scalar.find("(1,1)");
  ASSERT_NE(at, std::string::npos);
  scalar.replace(at, 5, "()   ");
  EXPECT_INPUT_ERROR(read_points(write_bytes("scalar.npy", scalar)), "scalar.npy' has shape ()");
  EXPECT_INPUT_ERROR(read_points(write_npy_file("ints.npy", std::vector<std::int32_t>{1}, {1, 1})),
                     "ints.npy'", "not float32 or float64");
}

// --- writer ---------------------------------------------------------------------------------

TEST(SkylineWriter, RoundTripBitExact) {
  for (PointDistribution dist : kAll)
    for (int d : {1, 3, 16}) {
      const PointSet s = generate_points(gen(500, d, dist, std::uint64_t(d)));
      for (const char* ext : {".csv", ".npy", ".txt"}) {
        const std::string path = temp_path("round" + std::to_string(d) + ext);
        write_points(path, s);
        SCOPED_TRACE(path);
        expect_same(read_points(path), s);
      }
    }
  // Values no generator makes: negatives, -0, extremes, subnormals.
  PointSet odd;
  odd.n = 2;
  odd.d = 4;
  odd.values = {-0.f, std::numeric_limits<float>::max(), std::numeric_limits<float>::denorm_min(),
                -1.1754942e-38f, 0.1f, -3.f, 1e-30f, 16777217.f};
  for (const char* name : {"odd.csv", "odd.npy"}) {
    write_points(temp_path(name), odd);
    expect_same(read_points(temp_path(name)), odd);
  }
}

TEST(SkylineWriter, CsvLayout) {
  PointSet s;
  s.n = 2;
  s.d = 2;
  s.values = {0.5f, 0.1f, 1.f, 0.f};
  const std::string path = temp_path("layout.csv");
  write_points(path, s);
  EXPECT_EQ(read_whole(path), "0,0.5,0.1\n1,1,0\n");
  // d = 1 written with ids reads back as d = 1: two fields, the first the ids.
  PointSet one;
  one.n = 3;
  one.d = 1;
  one.values = {2.f, 0.f, 1.f};
  write_points(path, one);
  EXPECT_EQ(read_whole(path), "0,2\n1,0\n2,1\n");
  expect_same(read_points(path), one);
}

TEST(SkylineWriter, EmptySets) {
  PointSet empty;
  empty.d = 3;
  EXPECT_INPUT_ERROR(write_points(temp_path("empty_set.csv"), empty), "empty_set.csv'",
                     "holds no points", ".npy can hold one");
  EXPECT_FALSE(std::filesystem::exists(temp_path("empty_set.csv")));
  write_points(temp_path("empty_set.npy"), empty);
  const PointSet back = read_points(temp_path("empty_set.npy"));
  EXPECT_EQ(back.n, 0);
  EXPECT_EQ(back.d, 3);
}

TEST(SkylineWriter, RefusesWhatCannotBeReadBack) {
  PointSet s;
  s.n = 2;
  s.d = 2;
  s.values = {0.5f, 0.1f, std::numeric_limits<float>::quiet_NaN(), 0.f};
  for (const char* name : {"nan.csv", "nan_w.npy"})
    EXPECT_INPUT_ERROR(write_points(temp_path(name), s), "point 1 attribute 0 is NaN");
  s.values[2] = std::numeric_limits<float>::infinity();
  EXPECT_INPUT_ERROR(write_points(temp_path("inf.csv"), s), "point 1 attribute 0 is infinite");
}

TEST(SkylineWriter, RefusesAnInconsistentSet) {
  PointSet s;
  s.n = 2;
  s.d = 2;
  s.values = {0.5f, 0.1f, 1.f};
  EXPECT_THROW(write_points(temp_path("bad.csv"), s), std::invalid_argument);
  s.values.push_back(0.f);
  s.d = 0;
  EXPECT_THROW(write_points(temp_path("bad.csv"), s), std::invalid_argument);
  s.d = 65;
  EXPECT_THROW(write_points(temp_path("bad.npy"), s), std::invalid_argument);
  s.d = 2;
  s.n = -1;
  EXPECT_THROW(write_points(temp_path("bad.npy"), s), std::invalid_argument);
}

}  // namespace
}  // namespace ladder
