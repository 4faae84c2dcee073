// The CBF generator and the UCR reader/writer.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <fstream>

#include "datagen/series.hpp"
#include "datagen/base/errors.hpp"

namespace ladder {
namespace {

TEST(Cbf, DeterministicAndThreadCountIndependent) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  SeriesSet a = generate_cbf(301, 61, 5, CbfNoise::uniform);
  omp_set_num_threads(4);
  SeriesSet b = generate_cbf(301, 61, 5, CbfNoise::uniform);
  omp_set_num_threads(saved);
  EXPECT_EQ(a.values, b.values);
  EXPECT_EQ(a.labels, b.labels);
  SeriesSet c = generate_cbf(301, 61, 6, CbfNoise::uniform);
  EXPECT_NE(a.values, c.values);
  // a prefix of a larger set is the smaller set: entry e depends only on (seed, e)
  SeriesSet d = generate_cbf(100, 61, 5, CbfNoise::uniform);
  EXPECT_TRUE(std::equal(d.values.begin(), d.values.end(), a.values.begin()));
}

TEST(Cbf, LabelsAndRanges) {
  const std::size_t n = 128;
  SeriesSet s = generate_cbf(999, n, 11, CbfNoise::uniform);
  ASSERT_EQ(s.values.size(), 999 * n);
  for (std::size_t e = 0; e < s.entries; ++e) {
    EXPECT_EQ(s.labels[e], static_cast<int>(e % 3));
    const float* x = s.series(e);
    // before the earliest onset (n/8) only noise U[0,1) remains
    for (std::size_t t = 0; t < n / 8; ++t) ASSERT_TRUE(x[t] >= 0.f && x[t] < 1.f) << e;
    // amplitude 6 + U[0,1) plus noise: everything in [0, 8)
    float peak = 0;
    for (std::size_t t = 0; t < n; ++t) {
      ASSERT_TRUE(x[t] >= 0.f && x[t] < 8.f);
      peak = std::max(peak, x[t]);
    }
    // every shape carries an event with a value of at least amplitude * (w-1)/w + noise
    EXPECT_GT(peak, 5.5f) << "entry " << e;
  }
  // a cylinder holds its level from onset a <= n/4 to a + w >= n/8 + n/4
  for (std::size_t e = 0; e < s.entries; e += 3)
    for (std::size_t t = n / 4; t < 3 * n / 8; ++t) ASSERT_GE(s.series(e)[t], 6.f);
}

TEST(Cbf, GaussianNoiseHasZeroMean) {
  SeriesSet s = generate_cbf(3000, 64, 2, CbfNoise::gaussian);
  double sum = 0, sq = 0;
  std::size_t count = 0;
  for (std::size_t e = 0; e < s.entries; ++e)
    for (std::size_t t = 0; t < 64 / 8; ++t) {
      sum += s.series(e)[t];
      sq += s.series(e)[t] * s.series(e)[t];
      ++count;
    }
  const double mean = sum / count, var = sq / count - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.03);
  EXPECT_NEAR(var, 1.0, 0.05);
}

TEST(Cbf, LengthOne) {
  SeriesSet s = generate_cbf(3, 1, 1, CbfNoise::uniform);
  ASSERT_EQ(s.values.size(), 3u);
  for (float v : s.values) EXPECT_TRUE(std::isfinite(v));
}

std::string write_text(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

TEST(Ucr, RoundTrip) {
  SeriesSet s = generate_cbf(7, 13, 3, CbfNoise::gaussian);
  const std::string path = testing::TempDir() + "/rt.tsv";
  write_ucr(path, s);
  SeriesSet r = read_ucr(path);
  EXPECT_EQ(r.entries, 7u);
  EXPECT_EQ(r.length, 13u);
  EXPECT_EQ(r.labels, s.labels);
  EXPECT_EQ(r.values, s.values);  // %.9g round-trips float32 exactly
}

TEST(Ucr, AcceptsCommasAndBlankLines) {
  SeriesSet r = read_ucr(write_text("c.csv", "1,0.5,2\n\n-1,3,4e-1\n"));
  EXPECT_EQ(r.entries, 2u);
  EXPECT_EQ(r.labels[1], -1);
  EXPECT_FLOAT_EQ(r.values[3], 0.4f);
}

TEST(Ucr, RejectsBadFiles) {
  EXPECT_THROW(read_ucr("/nonexistent.tsv"), InputError);
  EXPECT_THROW(read_ucr(write_text("empty.tsv", "\n\n")), InputError);
  EXPECT_THROW(read_ucr(write_text("ragged.tsv", "1\t1\t2\n2\t1\n")), InputError);
  EXPECT_THROW(read_ucr(write_text("nan.tsv", "1\t1\tNaN\n")), InputError);
  EXPECT_THROW(read_ucr(write_text("inf.tsv", "1\tinf\t2\n")), InputError);
  EXPECT_THROW(read_ucr(write_text("word.tsv", "1\t1\tabc\n")), InputError);
  EXPECT_THROW(read_ucr(write_text("label.tsv", "1.5\t1\t2\n")), InputError);
  EXPECT_THROW(read_ucr(write_text("nolabel.tsv", "1\n")), InputError);
  try {
    read_ucr(write_text("ragged2.tsv", "1\t1\t2\n2\t1\t2\n3\t1\n"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("line 3"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ladder
