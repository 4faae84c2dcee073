#include <algorithm>

#include "rng.hpp"
#include "series.hpp"

namespace ladder {
namespace {

void cbf_entry(float* out, std::size_t n, std::size_t e, std::uint64_t seed, CbfNoise noise) {
  Rng rng(seed, e);
  const auto len = static_cast<std::int64_t>(n);
  const std::int64_t a = rng.integer(len / 8, len / 4);
  const std::int64_t w = std::max<std::int64_t>(1, rng.integer(len / 4, 3 * len / 4));
  const double amp = 6.0 + rng.uniform();
  const int shape = static_cast<int>(e % 3);  // 0 cylinder, 1 bell, 2 funnel
  for (std::int64_t t = 0; t < len; ++t) {
    double v = 0.0;
    if (t >= a && t < a + w) {
      if (shape == 0) v = amp;
      else if (shape == 1) v = amp * static_cast<double>(t - a) / static_cast<double>(w);
      else v = amp * static_cast<double>(a + w - t) / static_cast<double>(w);
    }
    v += noise == CbfNoise::uniform ? rng.uniform() : rng.normal();
    out[t] = static_cast<float>(v);
  }
}

}  // namespace

SeriesSet generate_cbf(std::size_t entries, std::size_t length, std::uint64_t seed,
                       CbfNoise noise) {
  SeriesSet set;
  set.entries = entries;
  set.length = length;
  set.values.resize(entries * length);
  set.labels.resize(entries);
  const auto count = static_cast<std::int64_t>(entries);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < count; ++e) {
    cbf_entry(set.values.data() + e * length, length, static_cast<std::size_t>(e), seed, noise);
    set.labels[e] = static_cast<std::int32_t>(e % 3);
  }
  return set;
}

}  // namespace ladder
