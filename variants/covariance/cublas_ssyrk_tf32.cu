// Peer: cuBLAS SSYRK with TF32 tensor-core math allowed (CUBLAS_TF32_TENSOR_OP_MATH), beside
// step 7's FP32 SSYRK and step 8's TF32 GEMM: the library's symmetric update where it may round
// the inputs to TF32, so that our TF32 steps meet its best symmetric form as well as its GEMM.
// The same call and mirror as step 7; only the handle's math mode differs. Validated against
// the study's TF32 tolerance, its error recorded with each run. On Hopper (sm_90, cuBLAS 13.0)
// the library ignores the mode for SSYRK: the same time, pipes and FP32-sized error (6.5e-5
// against TF32's 3e-3) as step 7, so the label says what was asked.
#include "cublas_check.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{
    gpu_step({.name = "cublas_ssyrk_tf32",
              .step = 14,
              .label = "cuBLAS SSYRK, TF32 asked",
              .change = "peer: cuBLAS SSYRK in TF32 math mode (one triangle) plus a mirror kernel",
              .role = Role::peer,
              .precision = Precision::tf32,
              .impl = cublas_setup(CUBLAS_TF32_TENSOR_OP_MATH, ssyrk),
              .limit = cublas_dimensions_limit})};

}  // namespace
}  // namespace ladder::covariance
