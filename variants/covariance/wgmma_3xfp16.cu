// Step 18: step 13 on FP16. The centring stage writes each scaled value's FP16 and the FP16 of
// its rounding error (scaled as step 17's), 22 bits of mantissa between them as 3xTF32 has, and
// every `chunk` k-tiles' three products lo*hi + hi*lo + hi*hi are summed on the tensor cores,
// then added in FP32: FP32-level accuracy, validated against the FP32 tolerance, from half of
// step 13's bytes at twice its tensor rate. (A value so small that its error falls under FP16's
// normal range keeps fewer bits; its share of a sum stays below FP32's rounding of the sum.)
// Built for sm_90a: compute capability 9.0 only.
#include "wgmma_syrk.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{gpu_step(
    {.name = "wgmma_3xfp16",
     .step = 18,
     .label = "3xFP16 wgmma + TMA",
     .change = "step 13 on FP16 hi and lo operands, each feature scaled by a power of two: "
               "FP32-level accuracy from half the bytes, at twice the tensor rate",
     .precision = Precision::fp16x3,
     .params = wgmma::params(true, "2"),
     .impl = wgmma::setup<__half, true>,
     .limit = wgmma::limit<true>,
     .needs = {Feature::wgmma_tma}},
    Layout::transposed_f16_split)};

}  // namespace
}  // namespace ladder::covariance
