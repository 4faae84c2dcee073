// Labelled time series stored row-major: series e occupies values[e*length, (e+1)*length).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ladder {

struct SeriesSet {
  std::size_t entries = 0;
  std::size_t length = 0;
  std::vector<float> values;
  std::vector<std::int32_t> labels;
  const float* series(std::size_t e) const { return values.data() + e * length; }
};

enum class CbfNoise { uniform, gaussian };

// Cylinder-Bell-Funnel (Saito 1994) as in the DTW notes: label e % 3; onset a in [n/8, n/4],
// width w in [n/4, 3n/4], amplitude 6 + U[0,1); noise U[0,1) (the notes' choice, default) or
// N(0,1) (the classic definition). Entry e draws from its own stream (seed, e).
SeriesSet generate_cbf(std::size_t entries, std::size_t length, std::uint64_t seed,
                       CbfNoise noise);

// UCR archive text format: one series per line, `label<TAB>v1<TAB>v2...` (commas are accepted
// too, as in the archive's older releases). Every line must have the same length and only
// finite values; errors name the line and column.
SeriesSet read_ucr(const std::string& path);
void write_ucr(const std::string& path, const SeriesSet& set);

}  // namespace ladder
