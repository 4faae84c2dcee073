// TWED's data layer (datagen/multiseries): the generators (thread-count independence, shapes,
// labels, value ranges, timestamps), the .npy form of a set, and the MNIST IDX image reader on
// valid and hostile files.
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

#include "datagen/base/errors.hpp"
#include "tests/reader_checks.hpp"
#include "datagen/multiseries.hpp"
#include "datagen/npy.hpp"

namespace ladder {
namespace {

using namespace std::string_literals;

using testing_support::temp_path;
using testing_support::write_bytes;

template <class T>
bool same_bytes(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

void expect_same(const MultiSeries& a, const MultiSeries& b) {
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.length, b.length);
  EXPECT_EQ(a.dim, b.dim);
  EXPECT_TRUE(same_bytes(a.values, b.values));
  EXPECT_TRUE(same_bytes(a.times, b.times));
  EXPECT_EQ(a.labels, b.labels);
}

// The generator's output with 1 thread and with 4.
void expect_thread_count_independent(const std::function<MultiSeries()>& generate) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const MultiSeries one = generate();
  omp_set_num_threads(4);
  const MultiSeries four = generate();
  omp_set_num_threads(saved);
  expect_same(one, four);
}

// --- generators ------------------------------------------------------------------------------

TEST(TwedGenerators, ThreadCountIndependent) {
  expect_thread_count_independent([] { return generate_random_walks(37, 50, 3, 9); });
  expect_thread_count_independent([] { return generate_synthetic_control(61, 60, 9); });
  expect_thread_count_independent([] { return generate_pseudo_periodic(41, 100, 9); });
  expect_thread_count_independent([] { return generate_mnist_like(53, 9); });
}

TEST(TwedGenerators, SeriesDependOnlyOnSeedAndIndex) {
  // A prefix of a larger set is the smaller set; another seed gives other data.
  const MultiSeries big = generate_random_walks(20, 16, 2, 3);
  const MultiSeries small = generate_random_walks(7, 16, 2, 3);
  EXPECT_TRUE(std::equal(small.values.begin(), small.values.end(), big.values.begin()));
  EXPECT_TRUE(std::equal(small.times.begin(), small.times.end(), big.times.begin()));
  EXPECT_NE(generate_random_walks(7, 16, 2, 4).values, small.values);
  const MultiSeries digits = generate_mnist_like(30, 3);
  const MultiSeries fewer = generate_mnist_like(12, 3);
  EXPECT_TRUE(std::equal(fewer.values.begin(), fewer.values.end(), digits.values.begin()));
  EXPECT_NE(generate_mnist_like(12, 4).values, fewer.values);
  EXPECT_NE(generate_pseudo_periodic(5, 64, 1).values, generate_pseudo_periodic(5, 64, 2).values);
}

TEST(TwedGenerators, RefuseEmptyShapes) {
  EXPECT_INPUT_ERROR(generate_random_walks(0, 10, 1, 1), "random walks", "at least 1");
  EXPECT_INPUT_ERROR(generate_random_walks(10, 0, 1, 1), "random walks");
  EXPECT_INPUT_ERROR(generate_random_walks(10, 10, 0, 1), "random walks");
  EXPECT_INPUT_ERROR(generate_synthetic_control(0, 60, 1), "synthetic control");
  EXPECT_INPUT_ERROR(generate_synthetic_control(6, 0, 1), "synthetic control");
  EXPECT_INPUT_ERROR(generate_pseudo_periodic(0, 10, 1), "pseudo periodic");
  EXPECT_INPUT_ERROR(generate_pseudo_periodic(3, 0, 1), "pseudo periodic");
  EXPECT_INPUT_ERROR(generate_mnist_like(0, 1), "MNIST-like");
  // A shape whose size overflows is refused before anything is allocated.
  EXPECT_INPUT_ERROR(generate_random_walks(std::size_t{1} << 40, std::size_t{1} << 30, 16, 1),
                     "random walks", "more than can be addressed");
}

TEST(RandomWalks, ShapeAndIrregularIncreasingTimes) {
  const MultiSeries s = generate_random_walks(40, 200, 3, 17);
  EXPECT_EQ(s.count, 40u);
  EXPECT_EQ(s.length, 200u);
  EXPECT_EQ(s.dim, 3u);
  ASSERT_EQ(s.values.size(), 40u * 200 * 3);
  ASSERT_EQ(s.times.size(), 40u * 200);
  EXPECT_TRUE(s.labels.empty());
  for (std::size_t e = 0; e < s.count; ++e) {
    const double* t = s.time(e);
    EXPECT_GE(t[0], 1.0);
    EXPECT_LT(t[0], 2.0);
    for (std::size_t i = 1; i < s.length; ++i) {
      ASSERT_GE(t[i] - t[i - 1], 0.5) << e << " " << i;
      ASSERT_LT(t[i] - t[i - 1], 1.5) << e << " " << i;
    }
  }
}

TEST(RandomWalks, StepsAreStandardNormal) {
  const MultiSeries s = generate_random_walks(200, 101, 2, 5);
  double sum = 0, sq = 0;
  std::size_t n = 0;
  for (std::size_t e = 0; e < s.count; ++e)
    for (std::size_t i = 1; i < s.length; ++i)
      for (std::size_t c = 0; c < s.dim; ++c) {
        const double step = s.series(e)[i * s.dim + c] - s.series(e)[(i - 1) * s.dim + c];
        sum += step;
        sq += step * step;
        ++n;
      }
  EXPECT_NEAR(sum / n, 0.0, 0.03);
  EXPECT_NEAR(sq / n, 1.0, 0.05);
}

TEST(RandomWalks, LengthOne) {
  const MultiSeries s = generate_random_walks(3, 1, 2, 1);
  ASSERT_EQ(s.values.size(), 6u);
  ASSERT_EQ(s.times.size(), 3u);
  for (double v : s.values) EXPECT_TRUE(std::isfinite(v));
}

// Mean over a class's series of (mean of the last 10 points - mean of the first 10).
double mean_rise(const MultiSeries& s, int label) {
  double sum = 0;
  int n = 0;
  for (std::size_t e = 0; e < s.count; ++e) {
    if (s.labels[e] != label) continue;
    const double* y = s.series(e);
    double first = 0, last = 0;
    for (std::size_t i = 0; i < 10; ++i) {
      first += y[i] / 10;
      last += y[s.length - 10 + i] / 10;
    }
    sum += last - first;
    ++n;
  }
  return sum / n;
}

// Standard deviation of series e (of dimension 1).
double spread(const MultiSeries& s, std::size_t e) {
  double sum = 0, sq = 0;
  for (std::size_t i = 0; i < s.length; ++i) {
    sum += s.series(e)[i];
    sq += s.series(e)[i] * s.series(e)[i];
  }
  const double mean = sum / s.length;
  return std::sqrt(sq / s.length - mean * mean);
}

TEST(SyntheticControl, ClassesInBlocksAndTheirShapes) {
  const MultiSeries s = generate_synthetic_control(600, 60, 2);
  EXPECT_EQ(s.dim, 1u);
  EXPECT_TRUE(s.times.empty());
  ASSERT_EQ(s.labels.size(), 600u);
  for (std::size_t e = 0; e < s.count; ++e) ASSERT_EQ(s.labels[e], static_cast<int>(e / 100));
  for (std::size_t e = 0; e < s.count; ++e) {
    const double* y = s.series(e);
    for (std::size_t i = 0; i < s.length; ++i) {
      const double t = static_cast<double>(i + 1);
      // The noise is 2 * U(-3, 3); the class terms are bounded by their parameters' ranges.
      const double lo = s.labels[e] == 1 ? -15 : s.labels[e] == 3 ? -0.5 * t
                        : s.labels[e] == 5 ? -20 : 0;
      const double hi = s.labels[e] == 1 ? 15 : s.labels[e] == 2 ? 0.5 * t
                        : s.labels[e] == 4 ? 20 : 0;
      ASSERT_GE(y[i], 24 + lo) << "series " << e << " point " << i;
      ASSERT_LE(y[i], 36 + hi) << "series " << e << " point " << i;
    }
  }
  EXPECT_NEAR(mean_rise(s, 0), 0.0, 0.5);   // normal
  // cyclic: a swing of amplitude a >= 10 over at least 4 periods, beside the noise's 3.5
  for (std::size_t e = 0; e < 100; ++e) EXPECT_LT(spread(s, e), 5) << "normal " << e;
  for (std::size_t e = 100; e < 200; ++e) EXPECT_GT(spread(s, e), 6) << "cyclic " << e;
  EXPECT_GT(mean_rise(s, 2), 10.0);         // increasing: g * 50 >= 10
  EXPECT_LT(mean_rise(s, 3), -10.0);        // decreasing
  EXPECT_GT(mean_rise(s, 4), 7.5);          // upward shift: x >= 7.5 after t3 <= 40
  EXPECT_LT(mean_rise(s, 5), -7.5);         // downward shift
}

TEST(SyntheticControl, FewerSeriesThanClasses) {
  const MultiSeries s = generate_synthetic_control(4, 30, 1);
  EXPECT_EQ(s.labels, (std::vector<std::int32_t>{0, 1, 3, 4}));
  EXPECT_EQ(generate_synthetic_control(1, 30, 1).labels, std::vector<std::int32_t>{0});
}

TEST(PseudoPeriodic, BoundedAndTimeRunsFromZeroToOne) {
  const MultiSeries s = generate_pseudo_periodic(50, 1000, 8);
  EXPECT_TRUE(s.times.empty());
  EXPECT_TRUE(s.labels.empty());
  const double bound = 1.0 / 8 + 1.0 / 16 + 1.0 / 32 + 1.0 / 64 + 1.0 / 128;
  double peak = 0;
  for (std::size_t e = 0; e < s.count; ++e) {
    EXPECT_EQ(s.series(e)[0], 0.0);  // t = 0: every sine is 0
    for (std::size_t k = 0; k < s.length; ++k) {
      ASSERT_LE(std::abs(s.series(e)[k]), bound + 1e-12);
      peak = std::max(peak, std::abs(s.series(e)[k]));
    }
    // t = 1 at the last point: every frequency is an integer, so the sum is 0 again.
    EXPECT_NEAR(s.series(e)[s.length - 1], 0.0, 1e-9);
  }
  EXPECT_GT(peak, 0.5 * bound);
  const MultiSeries one = generate_pseudo_periodic(2, 1, 8);
  EXPECT_EQ(one.values, (std::vector<double>{0.0, 0.0}));
}

TEST(MnistLike, WholeNumberImagesWithInk) {
  const MultiSeries s = generate_mnist_like(200, 4);
  EXPECT_EQ(s.length, 28u);
  EXPECT_EQ(s.dim, 28u);
  EXPECT_TRUE(s.times.empty());
  ASSERT_EQ(s.values.size(), 200u * 784);
  for (std::size_t e = 0; e < s.count; ++e) {
    EXPECT_EQ(s.labels[e], static_cast<int>(e % 10));
    std::size_t inked = 0;
    double peak = 0;
    for (std::size_t i = 0; i < 784; ++i) {
      const double v = s.series(e)[i];
      ASSERT_TRUE(v >= 0 && v <= 255 && v == std::floor(v)) << v;
      inked += v > 0;
      peak = std::max(peak, v);
    }
    EXPECT_EQ(peak, 255) << "image " << e;
    EXPECT_GT(inked, 784 / 20) << "image " << e;
    EXPECT_LT(inked, 784 / 2) << "image " << e;
  }
}

// The class decides the shape: the nearest class mean of one half classifies the other.
TEST(MnistLike, ClassesAreDistinguishable) {
  const MultiSeries s = generate_mnist_like(2000, 6);
  std::vector<double> mean(10 * 784, 0.0);
  for (std::size_t e = 0; e < 1000; ++e)
    for (std::size_t i = 0; i < 784; ++i) mean[s.labels[e] * 784 + i] += s.series(e)[i] / 100;
  int right = 0;
  for (std::size_t e = 1000; e < 2000; ++e) {
    int best = -1;
    double best_d = 0;
    for (int k = 0; k < 10; ++k) {
      double d = 0;
      for (std::size_t i = 0; i < 784; ++i) {
        const double diff = s.series(e)[i] - mean[k * 784 + i];
        d += diff * diff;
      }
      if (best < 0 || d < best_d) best = k, best_d = d;
    }
    right += best == s.labels[e];
  }
  EXPECT_GT(right, 700) << "of 1000";
}

// --- .npy ------------------------------------------------------------------------------------

TEST(MultiSeriesNpy, RoundTripWithoutTimestamps) {
  const MultiSeries one = generate_synthetic_control(12, 20, 1);
  const std::string p1 = temp_path("control.npy");
  write_multiseries_npy(p1, one);
  EXPECT_EQ(read_npy(p1).shape, (std::vector<std::size_t>{12, 20}));
  const MultiSeries back = read_multiseries_npy(p1, false);
  EXPECT_EQ(back.count, 12u);
  EXPECT_EQ(back.length, 20u);
  EXPECT_EQ(back.dim, 1u);
  EXPECT_TRUE(same_bytes(back.values, one.values));
  EXPECT_TRUE(back.times.empty());
  EXPECT_TRUE(back.labels.empty());  // .npy carries no labels

  MultiSeries digits = generate_mnist_like(5, 1);
  digits.labels.clear();
  const std::string p2 = temp_path("digits.npy");
  write_multiseries_npy(p2, digits);
  EXPECT_EQ(read_npy(p2).shape, (std::vector<std::size_t>{5, 28, 28}));
  expect_same(read_multiseries_npy(p2, false), digits);
}

TEST(MultiSeriesNpy, RoundTripWithTimestamps) {
  for (std::size_t dim : {1, 3}) {
    const MultiSeries walks = generate_random_walks(6, 9, dim, 2);
    const std::string path = temp_path("walks" + std::to_string(dim) + ".npy");
    write_multiseries_npy(path, walks);
    const NpyArray raw = read_npy(path);
    EXPECT_EQ(raw.shape, (std::vector<std::size_t>{6, 9, dim + 1}));
    EXPECT_EQ(raw.values[0], walks.times[0]);  // channel 0 is the time
    EXPECT_EQ(raw.values[1], walks.values[0]);
    expect_same(read_multiseries_npy(path, true), walks);
    // Read without the time channel, the timestamps are one more coordinate.
    const MultiSeries plain = read_multiseries_npy(path, false);
    EXPECT_EQ(plain.dim, dim + 1);
    EXPECT_TRUE(plain.times.empty());
  }
}

TEST(MultiSeriesNpy, WriterRefusesAnInconsistentSet) {
  MultiSeries s = generate_random_walks(2, 3, 1, 1);
  s.times.pop_back();
  EXPECT_THROW(write_multiseries_npy(temp_path("bad.npy"), s), std::invalid_argument);
}

// A named pipe with no writer, made afresh: opening it to read would wait forever.
std::string fifo(const std::string& name) {
  const std::string path = temp_path(name);
  std::filesystem::remove(path);
  if (::mkfifo(path.c_str(), 0600) != 0) ADD_FAILURE() << "mkfifo " << path;
  return path;
}

// A float64 .npy file of the given shape and values, written through write_npy.
std::string npy_file(const std::string& name, std::vector<std::size_t> shape,
                     std::vector<double> values) {
  const std::string path = temp_path(name);
  write_npy(path, Output{std::move(values), std::move(shape)});
  return path;
}

TEST(MultiSeriesNpy, RefusesOtherShapes) {
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("r1.npy", {3}, {1, 2, 3}), false),
                     "r1.npy' has shape (3,)", "(count, length)");
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("r4.npy", {1, 1, 1, 1}, {1}), false),
                     "(1, 1, 1, 1)");
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("empty.npy", {0, 4}, {}), false),
                     "(0, 4)", "at least 1");
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("r2.npy", {2, 2}, {1, 2, 3, 4}), true),
                     "(2, 2)", "1 + dim", "channel 0");
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("c1.npy", {2, 2, 1}, {1, 2, 3, 4}), true),
                     "(2, 2, 1)", "at least 2 channels");
}

TEST(MultiSeriesNpy, RefusesNonFiniteValuesNamingSeriesAndPoint) {
  std::vector<double> v(2 * 3 * 2, 1.0);
  v[(1 * 3 + 2) * 2 + 1] = std::nan("");
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("nan.npy", {2, 3, 2}, v), false),
                     "nan.npy'", "series 1 point 2", "[1, 2, 1]", "nan", "finite");
  v[(1 * 3 + 2) * 2 + 1] = 1.0;
  v[(0 * 3 + 1) * 2 + 0] = INFINITY;
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("inf.npy", {2, 3, 2}, v), true),
                     "timestamp of series 0 point 1", "inf");
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("inf2.npy", {2, 3}, {1, 2, 3, 4, -INFINITY, 6}),
                                          false),
                     "series 1 point 1", "[1, 1]", "-inf");
}

TEST(MultiSeriesNpy, RefusesTimestampsThatDoNotIncrease) {
  // Two series of three points in R^1: (time, value) pairs.
  const std::vector<double> ok{0, 5, 1, 5, 2, 5, 10, 0, 11, 0, 12.5, 0};
  EXPECT_NO_THROW(read_multiseries_npy(npy_file("ok.npy", {2, 3, 2}, ok), true));
  std::vector<double> equal = ok;
  equal[2 * 5] = 11;  // series 1 point 2 repeats point 1's time
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("eq.npy", {2, 3, 2}, equal), true),
                     "eq.npy'", "series 1 point 2", "increase strictly");
  std::vector<double> back = ok;
  back[2 * 1] = -1;  // series 0 point 1 goes back in time
  EXPECT_INPUT_ERROR(read_multiseries_npy(npy_file("back.npy", {2, 3, 2}, back), true),
                     "series 0 point 1", "-1");
}

TEST(MultiSeriesNpy, FileErrorsComeFromTheNpyReader) {
  EXPECT_INPUT_ERROR(read_multiseries_npy(temp_path("none.npy"), false), "no such file");
  std::filesystem::create_directories(temp_path("dir.npy"));
  EXPECT_INPUT_ERROR(read_multiseries_npy(temp_path("dir.npy"), true), "is a directory");
  EXPECT_INPUT_ERROR(read_multiseries_npy(fifo("fifo.npy"), true), "fifo.npy' is not a regular");
  EXPECT_INPUT_ERROR(read_multiseries_npy(write_bytes("gz.npy", "\x1f\x8b\x08\x00rest"), false),
                     "gz.npy' is gzip-compressed: gunzip it first");
}

// The in-memory entry point (the fuzz target's) reads what the file reader reads.
TEST(MultiSeriesNpy, ParseMatchesRead) {
  const std::vector<double> timed{0, 5, 1, 5, 2, 5, 10, 0, 11, 0, 12.5, 0};
  const std::string path = npy_file("parse.npy", {2, 3, 2}, timed);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (bool times : {false, true}) {
    SCOPED_TRACE(times);
    expect_same(parse_multiseries_npy(bytes, "parse.npy", times),
                read_multiseries_npy(path, times));
  }
  std::vector<double> back = timed;
  back[2] = -1;
  write_npy(path, Output{back, {2, 3, 2}});
  std::ifstream again(path, std::ios::binary);
  const std::string bad((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>());
  EXPECT_INPUT_ERROR(parse_multiseries_npy(bad, "p.npy", true), "'p.npy'", "series 0 point 1");
  EXPECT_NO_THROW(parse_multiseries_npy(bad, "p.npy", false));
  EXPECT_INPUT_ERROR(parse_multiseries_npy("\x93NUMPY", "t.npy", false), "'t.npy' is truncated");
}

// --- IDX -------------------------------------------------------------------------------------

std::string be32(std::uint32_t v) {
  return {char(v >> 24), char(v >> 16 & 0xff), char(v >> 8 & 0xff), char(v & 0xff)};
}

// An IDX file: the magic number, three dimensions and the data bytes.
std::string idx(std::uint32_t magic, std::uint32_t n, std::uint32_t rows, std::uint32_t cols,
                const std::string& data) {
  return be32(magic) + be32(n) + be32(rows) + be32(cols) + data;
}

std::string bytes_0_to(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += char(i * 11 % 256);
  return s;
}

TEST(IdxImages, ParsesATinyFile) {
  const std::string data = bytes_0_to(2 * 3 * 4);
  const MultiSeries s = parse_idx_images(idx(0x803, 2, 3, 4, data), "tiny");
  EXPECT_EQ(s.count, 2u);
  EXPECT_EQ(s.length, 3u);  // rows are time
  EXPECT_EQ(s.dim, 4u);     // columns are coordinates
  EXPECT_TRUE(s.times.empty());
  EXPECT_TRUE(s.labels.empty());
  ASSERT_EQ(s.values.size(), 24u);
  for (std::size_t i = 0; i < 24; ++i)
    EXPECT_EQ(s.values[i], static_cast<unsigned char>(data[i]));
  EXPECT_EQ(s.series(1)[0], static_cast<unsigned char>(data[12]));
  // The same from a file.
  expect_same(read_idx_images(write_bytes("tiny-idx3-ubyte", idx(0x803, 2, 3, 4, data))), s);
}

TEST(IdxImages, ReadsAFileLargerThanOneChunk) {
  const std::string data = bytes_0_to(3000 * 28 * 28);
  const MultiSeries s = read_idx_images(write_bytes("big-idx3", idx(0x803, 3000, 28, 28, data)));
  ASSERT_EQ(s.values.size(), data.size());
  EXPECT_EQ(s.values.back(), static_cast<unsigned char>(data.back()));
  EXPECT_EQ(s.values[1 << 20], static_cast<unsigned char>(data[1 << 20]));
}

TEST(IdxImages, WrongMagicNumbersAreExplained) {
  const std::string data = bytes_0_to(4);
  const std::string labels = be32(0x801) + be32(4) + data;
  EXPECT_INPUT_ERROR(parse_idx_images(labels, "train-labels-idx1-ubyte"),
                     "'train-labels-idx1-ubyte'", "0x00000803", "0x00000801", "labels file");
  EXPECT_INPUT_ERROR(parse_idx_images(idx(0xD03, 1, 1, 1, "\0\0\0\0"s), "f"), "0x00000D03",
                     "float32 in 3 dimensions");
  EXPECT_INPUT_ERROR(parse_idx_images(be32(0x802) + be32(1) + be32(1) + "x", "f"), "0x00000802",
                     "unsigned bytes in 2 dimensions");
  EXPECT_INPUT_ERROR(parse_idx_images("\x1f\x8b\x08\x08rest of a gzip file", "f.gz"),
                     "'f.gz' is gzip-compressed: gunzip it first");
  EXPECT_INPUT_ERROR(parse_idx_images("P5 28 28 255\n", "f.pgm"), "not an IDX file");
}

TEST(IdxImages, TruncatedHeaders) {
  EXPECT_INPUT_ERROR(parse_idx_images("", "empty"), "'empty' is truncated", "0 bytes");
  EXPECT_INPUT_ERROR(parse_idx_images("\0\0\x08"s, "three"), "truncated", "3 bytes");
  EXPECT_INPUT_ERROR(parse_idx_images(be32(0x803) + be32(1) + "\0\0"s, "ten"),
                     "'ten' is truncated inside its IDX header", "10");
}

TEST(IdxImages, ZeroDimensions) {
  EXPECT_INPUT_ERROR(parse_idx_images(idx(0x803, 0, 28, 28, ""), "f"), "0 images of 28 x 28",
                     "at least 1");
  EXPECT_INPUT_ERROR(parse_idx_images(idx(0x803, 5, 28, 0, ""), "f"), "5 images of 28 x 0");
}

TEST(IdxImages, DataSizeMustMatchTheHeader) {
  EXPECT_INPUT_ERROR(parse_idx_images(idx(0x803, 2, 2, 2, bytes_0_to(7)), "short"),
                     "'short' holds fewer data bytes (7)", "need (8)");
  EXPECT_INPUT_ERROR(parse_idx_images(idx(0x803, 2, 2, 2, bytes_0_to(9)), "long"),
                     "more data bytes (9)");
  // Sizes far beyond the file are refused from the header alone, overflowing ones too.
  EXPECT_INPUT_ERROR(parse_idx_images(idx(0x803, 60000, 60000, 60000, "x"), "huge"),
                     "fewer data bytes (1)", "need (216000000000000)");
  EXPECT_INPUT_ERROR(
      parse_idx_images(idx(0x803, 0xFFFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, "x"), "overflow"),
      "4294967295 images", "64 bits");
  const std::string path = write_bytes("huge-idx3", idx(0x803, 60000, 60000, 60000, "x"));
  EXPECT_INPUT_ERROR(read_idx_images(path), "huge-idx3'", "fewer data bytes (1)");
}

TEST(IdxImages, FileErrors) {
  EXPECT_INPUT_ERROR(read_idx_images(temp_path("missing-idx3")), "missing-idx3'", "no such file");
  std::filesystem::create_directories(temp_path("dir-idx3"));
  EXPECT_INPUT_ERROR(read_idx_images(temp_path("dir-idx3")), "dir-idx3' is a directory",
                     "IDX images file");
  EXPECT_INPUT_ERROR(read_idx_images("/dev/zero"), "'/dev/zero' is not a regular file");
  EXPECT_INPUT_ERROR(read_idx_images(fifo("fifo-idx3-ubyte")), "fifo-idx3-ubyte' is not a regular");
  EXPECT_INPUT_ERROR(read_idx_images(write_bytes("train-images-idx3-ubyte.gz",
                                                 "\x1f\x8b\x08\x08train-images-idx3-ubyte")),
                     "train-images-idx3-ubyte.gz' is gzip-compressed: gunzip it first");
  EXPECT_INPUT_ERROR(read_idx_images(write_bytes("labels-idx1", be32(0x801) + be32(0))),
                     "labels-idx1'", "0x00000803");
}

TEST(IdxImages, RefusesUnreadableFile) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads any file";
  const std::string path = write_bytes("locked-idx3", idx(0x803, 1, 1, 1, "x"));
  std::filesystem::permissions(path, std::filesystem::perms::none);
  EXPECT_INPUT_ERROR(read_idx_images(path), "cannot open", "locked-idx3'");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

}  // namespace
}  // namespace ladder
