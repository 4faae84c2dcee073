// Step 17: step 12 on FP16. Step 12 is held by moving its operands: 2 GB of TF32 X^T written
// by the centring stage, and read again from L2 by every tile sharing a strip (its profile: a
// third of the TF32 limit, with the L2 path busy). FP16 keeps TF32's 10-bit mantissa in half
// the bytes, and the tensor cores multiply it at twice TF32's rate; what it lacks is range
// (largest 65504, normal from 2^-14), so the centring stage scales each feature by the power of
// two that puts its largest value just under 2^14, found from a bound the mean stage collects
// as it sums, and the stored sums are scaled back exactly. Values so far below a feature's
// largest that they fall under FP16's normal range lose relative precision, never absolute
// precision that matters against the largest variance: validated with step 12's tolerance.
// Built for sm_90a: compute capability 9.0 only.
#include "wgmma_syrk.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{gpu_step(
    {.name = "wgmma_fp16",
     .step = 17,
     .label = "FP16 wgmma + TMA",
     .change = "step 12 on FP16 operands, each feature scaled by a power of two into FP16's "
               "range: TF32's mantissa in half the bytes, at twice the tensor rate",
     .precision = Precision::fp16,
     .params = wgmma::params(false, "4"),
     .impl = wgmma::setup<__half, false>,
     .limit = wgmma::limit<false>,
     .needs = {Feature::wgmma_tma}},
    Layout::transposed_f16)};

}  // namespace
}  // namespace ladder::covariance
