// Peer: cuBLAS SSYRK with TF32 tensor-core math allowed (CUBLAS_TF32_TENSOR_OP_MATH), beside
// step 7's FP32 SSYRK and step 8's TF32 GEMM: the library's symmetric update where it may round
// the inputs to TF32, so that our TF32 steps meet its best symmetric form as well as its GEMM.
// The same call and mirror as step 7; only the handle's math mode differs. On Hopper (sm_90,
// cuBLAS 13.0) the library ignores the mode for SSYRK: the same kernel, time, pipes and
// FP32-sized error (5.7e-5 against TF32's 3e-3) as step 7. So the step records what ran, FP32:
// the report classes it with the FP32 peers, its limit is the FP32 one, and it is validated
// at the FP32 tolerance, which also checks the label: where a library did round to TF32 here,
// the error would fail it, and the label would have to change.
#include "cublas_check.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{
    gpu_step({.name = "cublas_ssyrk_tf32",
              .step = 14,
              .label = "cuBLAS SSYRK, TF32 asked (runs FP32)",
              .change = "peer: cuBLAS SSYRK in TF32 math mode (one triangle) plus a mirror kernel; "
                        "on Hopper the library runs it in FP32",
              .role = Role::peer,
              .precision = Precision::fp32,
              .impl = cublas_setup(CUBLAS_TF32_TENSOR_OP_MATH, ssyrk),
              .limit = cublas_dimensions_limit})};

}  // namespace
}  // namespace ladder::covariance
