// Point sets (the skyline study's data): the Borzsonyi-Kossmann-Stocker generator and the
// readers and writers for .npy (n x d) and CSV files. Every point is generated from its own
// stream (seed, point), so a set is identical for any thread count.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ladder {

struct PointSet {
  std::int64_t n = 0;
  int d = 0;
  std::vector<float> values;  // n x d, row-major: point i is values[i * d, (i + 1) * d)
  const float* point(std::int64_t i) const { return values.data() + i * d; }
};

// Attribute counts the study accepts (files and generator alike).
constexpr int kMaxPointDims = 64;

enum class PointDistribution { independent, correlated, anticorrelated };
// "independent", "correlated", "anticorrelated"; anything else is an InputError.
PointDistribution point_distribution(const std::string& name);

struct PointGen {
  std::int64_t n = 1000;
  int d = 2;
  PointDistribution distribution = PointDistribution::independent;
  std::uint64_t seed = 1;
};

// The generator of Borzsonyi, Kossmann and Stocker (2001), in float32, values in [0, 1]:
//   independent: every attribute uniform in [0, 1];
//   correlated: v = peak(0, 1, d), l = min(v, 1 - v), every x_k = v, then for each k
//     h = normal(0, l), x_k += h, x_{(k+1) % d} -= h;
//   anticorrelated: the same with v = normal(0.5, 0.25) and h uniform in [-l, l];
// where peak(a, b, k) is the mean of k uniforms scaled to [a, b] and normal(m, s) =
// peak(m - s, m + s, 12). A correlated or anticorrelated vector with any attribute outside
// [0, 1] is drawn again whole (from the same point's stream), as in the original; that keeps
// exponentially fewer tries as d grows (anticorrelated: about 3% at d = 16, 3e-7 at d = 64),
// so anticorrelated points of 20 attributes or more are drawn by AnticorrelatedSampler
// (anticorrelated.hpp) instead: the same distribution, exactly, in about three tries of d
// steps whatever d is. Parallel over points (OpenMP); 10^6 points take seconds at any d.
// Counts its progress for a ProgressTicker (base/progress.hpp).
PointSet generate_points(const PointGen& g);

// Generation may take at most this many seconds on this machine's threads; beyond it a
// request is refused before anything is made.
constexpr double kMaxGenerationSeconds = 600;

struct GenerationEstimate {
  double seconds = 0;            // for all of g's points on `threads` threads
  int threads = 1;
  std::int64_t pilot_points = 0;  // points the pilot made ...
  double pilot_seconds = 0;       // ... in this time, on every thread
};
// Times the generator on g's own first points, on every thread (so shared cores and other
// load count), until the count of points made puts n points clearly below or above the limit
// (milliseconds to accept, at least half a second to refuse), or for at most a second; then
// scales to n points at the rate after the threads' first milliseconds. When
// the pilot makes no point at all, the estimate is a lower bound.
GenerationEstimate estimate_generation(const PointGen& g);
// Throws InputError, naming the estimate and the limit, when it exceeds kMaxGenerationSeconds.
void check_generation_time(const PointGen& g);

// A .npy file (float32 or float64, 2-D n x d; 1-D means d = 1) or a CSV file (anything not
// ending in .npy): one point per line, attributes separated by commas (spaces around them
// allowed), an optional header line of non-numbers, and an optional leading id column, taken as
// ids when every line's first field is an integer and those integers are 0..n-1 or 1..n in
// order (SkyBench's and randdataset's layouts) and there is more than one column. Every line of
// points may end in one comma (SkyBench's layout) if every one does. Every value must be a
// finite float32 (NaN and infinities are refused, with line and column), every line the same
// number of attributes, 1..kMaxPointDims of them. Errors are InputError naming the file (and
// the line: an empty field, a final comma on some lines only, numbers separated by semicolons
// or in quotes); a compressed file or a byte-order mark is named as such. An empty file (or
// header only) is a set of n = 0 points whose d is unknown: refused.
PointSet read_points(const std::string& path);
PointSet parse_points_csv(const std::string& bytes, const std::string& name);

// .npy (float32, n x d) when path ends in .npy, else CSV with a leading id column 0..n-1 and
// attributes printed so that they read back to the same float32. Written atomically.
void write_points(const std::string& path, const PointSet& points);

}  // namespace ladder
