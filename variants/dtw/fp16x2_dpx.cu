// Step 16 (beyond the notes): FP16x2 with the DPX minimum. Step 12 spends four half2
// instructions on two cells (sub, min, min, FMA), two of them on the min/max pipe. DTW cells
// are non-negative (sums of squares, or +inf), and non-negative halves order as their bit
// patterns do as unsigned 16-bit integers, so Hopper's `__vimin3_u16x2` gives the minimum of
// the three neighbours of both cells in one instruction, bit-identically: three instructions
// for two cells. The kernel, the scaling against fp16's range and the tolerance are step 12's;
// only the minimum changes. No band.
#include "warp_wavefront.cuh"

namespace ladder::dtw {
namespace {

const Registrar registrar{gpu_step(
    {.name = "fp16x2_dpx",
     .step = 16,
     .label = "FP16x2 + DPX min",
     .change = "the two half2 mins of step 12 as one 16-bit DPX min3 on the halves' bits",
     .precision = Precision::fp16x2,
     .params = {lanes_param()},
     .impl = [](const DtwProblem& p, const Params& params,
                const DeviceCaps&) { return half_setup<Half2Bits>(p, lanes_for(p.n(), params)); },
     .limit = half_limit,
     .needs = {Feature::dpx}})};

}  // namespace
}  // namespace ladder::dtw
