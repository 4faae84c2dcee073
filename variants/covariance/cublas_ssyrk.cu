// Step 7 (peer): cuBLAS SSYRK, a yardstick rather than a step of ours. The library's symmetric
// rank-k update is the reference for what a tuned FP32 kernel (no tensor cores) reaches on
// this device, so the hand-written step 6 is measured against it. X (row-major m x n) is the
// column-major n x m matrix A = X^T with lda = n, and C = A A^T / m is exactly SYRK with
// trans N, k = m, alpha = 1/m, beta = 0: the same half of the work as our lower-triangle steps.
// SYRK writes one triangle only: column-major "lower" is the row-major upper triangle, so a
// small transpose-copy kernel mirrors it onto the row-major lower triangle afterwards; both run
// inside the timed covariance stage.
#include "cublas_check.cuh"

namespace ladder::covariance {
namespace {

const Registrar registrar{
    gpu_step({.name = "cublas_ssyrk",
              .step = 7,
              .label = "cuBLAS SSYRK",
              .change = "peer: cuBLAS SSYRK (FP32, one triangle) plus a mirror kernel",
              .role = Role::peer,
              .impl = cublas_setup(CUBLAS_DEFAULT_MATH, ssyrk),
              .limit = cublas_dimensions_limit})};

}  // namespace
}  // namespace ladder::covariance
