// Step 9: TF32 tensor cores by hand. Step 6 is bound by the FP32 pipes (128 FMAs per clock per
// SM); mma.sync on TF32 inputs does 1024 per clock per SM. The operands are rounded to TF32
// (10-bit mantissa, round to nearest) once, by the centring stage as it writes the padded
// centred copy, and the products are accumulated in FP32, so the result carries TF32's error:
// validated against the study's "tf32" tolerance. The kernel (async_syrk.cuh) computes only
// lower-triangle tiles, half the work of the cuBLAS TF32 GEMM of step 8.
#include "async_syrk.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{gpu_step(
    {.name = "mma_tf32",
     .step = 9,
     .label = "TF32 mma.sync",
     .change = "TF32 tensor cores by hand (mma.sync m16n8k8), lower-triangle 128x128 tiles, "
               "operands rounded to TF32 once, by the centring stage",
     .precision = Precision::tf32,
     .params = async::mma_params("16", "32"),
     .impl = async::mma_setup<false>,
     .limit = async::limit},
    Layout::padded_tf32)};

}  // namespace
}  // namespace ladder::covariance
