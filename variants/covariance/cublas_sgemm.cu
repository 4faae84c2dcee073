// Step 7 (peer): cuBLAS SGEMM, a yardstick rather than a step of ours. The general matrix
// product ignores the symmetry and computes the full n x n matrix, twice SYRK's arithmetic, but
// it is the library's most tuned FP32 routine; beside cublas_ssyrk it shows what the symmetry
// is worth to the library. X (row-major m x n) is the column-major n x m matrix A = X^T with
// lda = n, so C = A A^T / m is SGEMM with transa N, transb T, n x n x m, alpha = 1/m, beta = 0.
// C is symmetric, so the column-major result is also the row-major one, every entry written.
#include "cublas_check.cuh"

namespace ladder::covariance {
namespace {

void sgemm(cublasHandle_t h, const DeviceData& d, cudaStream_t) {
  const int n = int(d.n), k = int(d.m);
  const float alpha = static_cast<float>(1.0 / double(d.m)), beta = 0.f;
  LADDER_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, k, &alpha, d.x, n, d.x, n, &beta,
                            d.cov, n));
}

const Registrar registrar{
    gpu_step({.name = "cublas_sgemm",
              .step = 7,
              .label = "cuBLAS SGEMM",
              .change = "peer: cuBLAS SGEMM (FP32), the full matrix, symmetry ignored",
              .role = Role::peer,
              .impl = cublas_setup(CUBLAS_DEFAULT_MATH, sgemm),
              .limit = cublas_dimensions_limit})};

}  // namespace
}  // namespace ladder::covariance
