// Step 12 (beyond the notes): FP16x2. The sub-warp kernel with packed half2 values: each
// group aligns two subjects at once, one per half, so every add, min and FMA updates two
// cells and the arithmetic limit doubles. Half precision keeps 11 significant bits, so this
// step has its own tolerance (see the study) and its error is recorded with each run. Inputs
// are scaled by a power of two so that no warping path can exceed fp16's range (65504):
// distances scale by its square, which is undone exactly on output. No band.
#include "warp_wavefront.cuh"

namespace ladder::dtw {
namespace {

Setup setup(const DtwProblem& p, const Params& params, const DeviceCaps&) {
  return half_setup<__half2>(p, lanes_for(p.n(), params));
}

const Registrar registrar{gpu_step(
    {.name = "fp16x2",
     .step = 12,
     .label = "FP16x2",
     .change = "packed half2: two series per group, two cells per instruction",
     .precision = Precision::fp16x2,
     .params = {lanes_param()},
     .impl = setup,
     .limit = half_limit})};

}  // namespace
}  // namespace ladder::dtw
