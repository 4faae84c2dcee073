// Sets of series in R^dim with timestamps (TWED's data): generators, the MNIST IDX reader and
// the .npy form. Every generator seeds one stream per series from (seed, series), so a set is
// identical for any thread count.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ladder {

struct MultiSeries {
  std::size_t count = 0;   // series
  std::size_t length = 0;  // points per series (every series has the same length)
  std::size_t dim = 1;     // coordinates per point
  std::vector<double> values;        // count x length x dim, C order
  std::vector<double> times;         // count x length, or empty when the data carry none
  std::vector<std::int32_t> labels;  // count, or empty when the data carry none
  const double* series(std::size_t e) const { return values.data() + e * length * dim; }
  const double* time(std::size_t e) const { return times.data() + e * length; }
};

// Random walks (the cuTWED paper's scaling study): x_0 = N(0,1) per coordinate, then steps of
// N(0,1); timestamps strictly increasing, t_0 = 1 + U[0,1), each gap 0.5 + U[0,1) (irregular
// sampling). No labels.
MultiSeries generate_random_walks(std::size_t count, std::size_t length, std::size_t dim,
                                  std::uint64_t seed);

// UCI Synthetic Control (Alcock and Manolopoulos 1999): six classes in blocks of count / 6
// series (class k = e * 6 / count, labels 0..5: normal, cyclic, increasing trend, decreasing
// trend, upward shift, downward shift), y(t) = 30 + 2 * U(-3, 3) plus the class term, t = 1..length.
// No timestamps.
MultiSeries generate_synthetic_control(std::size_t count, std::size_t length, std::uint64_t seed);

// UCI Pseudo Periodic: y(t) = sum_{i=3..7} 2^-i sin(2 pi (2^(2+i) + rand(0..2^i)) t) over
// length points with 0 <= t <= 1, one rand per series and i. No timestamps, no labels.
MultiSeries generate_pseudo_periodic(std::size_t count, std::size_t length, std::uint64_t seed);

// MNIST-like: 28 x 28 images of digit-like strokes, values 0..255 (whole numbers), labels 0..9
// (the class decides the stroke shape); as series: rows are time, columns are R^28.
MultiSeries generate_mnist_like(std::size_t count, std::uint64_t seed);

// MNIST's image files (`*-images-idx3-ubyte`, big-endian IDX, magic 0x00000803): each image
// is a series whose rows are time and whose columns are coordinates (28 x 28 gives R^28),
// values 0..255. Errors are InputError naming the file: the wrong magic number (an idx1 label
// file, say), a truncated or oversized file, zero dimensions.
MultiSeries read_idx_images(const std::string& path);
MultiSeries parse_idx_images(const std::string& bytes, const std::string& name);

// .npy of shape (count, length) or (count, length, dim), float32 or float64. With
// `time_channel`, channel 0 of each point is its timestamp and the rest its coordinates
// (shape (count, length, 1 + dim)). Values must be finite and timestamps strictly increasing
// within each series; messages count series and points from 0 and give the numpy index.
MultiSeries read_multiseries_npy(const std::string& path, bool time_channel);
// The same on a whole file's bytes already in memory; name stands for the file in messages.
MultiSeries parse_multiseries_npy(const std::string& bytes, const std::string& name,
                                  bool time_channel);
// float64; (count, length) when dim == 1 and there are no timestamps, else (count, length,
// dim), with the timestamps first as channel 0 when there are some. Written atomically.
void write_multiseries_npy(const std::string& path, const MultiSeries& set);

}  // namespace ladder
