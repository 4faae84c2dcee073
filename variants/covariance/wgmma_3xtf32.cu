// Step 13: 3xTF32 on wgmma. Step 10 split every operand into TF32 hi + lo in registers, as it
// read each fragment, and was held by the tensor pipe's issue and its register file (64 x 64
// warp tiles spill). Here the centring stage writes the split once (X^T rounded to TF32 and
// X^T_lo, the TF32 of each rounding error), TMA copies four strips a k-tile, and every two
// k-tiles' products lo*hi + hi*lo + hi*hi are summed by wgmma into a fresh accumulator, then
// added into the running sum with a rounding FP32 add: FP32-level accuracy, validated against
// the FP32 tolerance. Waiting for the tensor cores after every k-tile (`chunk` 1) was the
// slowest setting in every H100 run (3-20%); chunks of 2, 4 and 8 ran within 3% of each other,
// 2 the fastest in three runs of four; every chunk's error stayed below the FP32 steps'. Built
// for sm_90a: compute capability 9.0 only.
#include "wgmma_syrk.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{gpu_step(
    {.name = "wgmma_3xtf32",
     .step = 13,
     .label = "3xTF32 wgmma + TMA",
     .change = "3xTF32 on wgmma + TMA: hi and lo written once by the centring stage, each "
               "k-tile's three products summed on the tensor cores, then added in FP32",
     .precision = Precision::tf32x3,
     .params = wgmma::params(true, "2"),
     .impl = wgmma::setup<float, true>,
     .limit = wgmma::limit<true>,
     .needs = {Feature::wgmma_tma}},
    Layout::transposed_split)};

}  // namespace
}  // namespace ladder::covariance
