// Step 8 (peer): TF32 tensor cores through cuBLAS, a yardstick rather than a step of ours. The
// FP32 steps are bound by the FP32 pipes (step 7 is the library's best there); tensor cores
// run the same product several times faster if the inputs are rounded to TF32 (10-bit
// mantissa, 8-bit exponent) while the products are accumulated in FP32. The result loses
// accuracy accordingly, so this step is validated against the study's "tf32" tolerance.
// cublasGemmEx with compute type CUBLAS_COMPUTE_32F_FAST_TF32, FP32 in and out: the same
// product as cublas_sgemm (X row-major m x n is the column-major n x m A = X^T, lda = n;
// C = A A^T / m with transa N, transb T), the full symmetric matrix, every entry written.
#include "cublas_check.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{gpu_step(
    {.name = "tf32",
     .step = 8,
     .label = "cuBLAS TF32",
     .change = "TF32 tensor cores through cuBLAS (10-bit mantissa inputs, FP32 accumulation)",
     .role = Role::peer,
     .precision = Precision::tf32,
     .impl = cublas_setup(CUBLAS_TF32_TENSOR_OP_MATH, gemm_ex<CUBLAS_COMPUTE_32F_FAST_TF32>),
     .limit = cublas_dimensions_limit})};

}  // namespace
}  // namespace ladder::covariance
