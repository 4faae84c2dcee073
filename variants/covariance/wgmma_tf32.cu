// Step 12: TF32 on Hopper's own tensor-core path. Step 9 reached a quarter of the TF32 limit,
// held by its shared-memory fragment loads (the MIO queue) and by L2: every warp read its
// operands into registers before each mma.sync. Here TMA copies each k-tile's two strips into
// shared memory in the 128-byte swizzle and wgmma reads them from there itself: a warpgroup
// issues one instruction per 64 x 128 x 8 products, and no thread loads an operand. wgmma's
// TF32 operands must have k contiguous, so the centring stage writes X^T (rounded to TF32, as
// for step 9). A block computes two neighbouring tiles (256 columns) that share their i strip,
// a quarter less L2 traffic; four stages in the ring (one block per SM). Blocks run in lockstep
// rounds so that the tiles sharing a strip read it from L2 together (wgmma_syrk.cuh). Built for
// sm_90a: compute capability 9.0 only.
#include "wgmma_syrk.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{gpu_step(
    {.name = "wgmma_tf32",
     .step = 12,
     .label = "TF32 wgmma + TMA",
     .change = "TF32 wgmma from shared memory fed by TMA (warp-specialised producer, mbarrier "
               "ring); the centring stage writes X^T",
     .precision = Precision::tf32,
     .params = wgmma::params(false, "4"),
     .impl = wgmma::setup<float, false>,
     .limit = wgmma::limit<false>,
     .needs = {Feature::wgmma_tma}},
    Layout::transposed)};

}  // namespace
}  // namespace ladder::covariance
