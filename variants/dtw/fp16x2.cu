// Step 12 (beyond the notes): FP16x2. The sub-warp kernel with packed half2 values: each
// group aligns two subjects at once, one per half, so every add, min and FMA updates two
// cells and the arithmetic limit doubles. Half precision keeps 11 significant bits, so this
// step has its own tolerance (see the study) and its error is recorded with each run. Inputs
// are scaled by a power of two so that no warping path can exceed fp16's range (65504):
// distances scale by its square, which is undone exactly on output. No band.
#include <algorithm>
#include <cmath>

#include "warp_wavefront.cuh"

namespace ladder::dtw {
namespace {

// Largest power of two s with 2n * (range * s)^2 <= 2^15: a path has at most 2n - 1 cells,
// each costing at most range^2 before scaling.
float fp16_scale(std::int64_t n, float range) {
  if (!(range > 0)) return 1.f;
  const double limit = std::sqrt(32768.0 / (2.0 * n)) / range;
  return static_cast<float>(std::exp2(std::floor(std::log2(limit))));
}

Setup setup(const DtwProblem& p, const Params& params, const DeviceCaps&) {
  const auto [lo, hi] = std::minmax_element(p.data.values.begin(), p.data.values.end());
  const float range = *hi - *lo;  // queries are series of the same set
  return warp_wavefront_setup<__half2, false>(p, lanes_for(p.n(), params),
                                              fp16_scale(p.n(), range));
}

std::string limit(const DtwProblem& p, const Params& params, const DeviceCaps& d) {
  const std::string why = no_band(p, params, d);
  return why.empty() ? warp_length_limit(p.n(), lanes_for(p.n(), params)) : why;
}

const Registrar registrar{gpu_step(
    {.name = "fp16x2",
     .step = 12,
     .label = "FP16x2",
     .change = "packed half2: two series per group, two cells per instruction",
     .precision = Precision::fp16x2,
     .params = {lanes_param()},
     .impl = setup,
     .limit = limit})};

}  // namespace
}  // namespace ladder::dtw
