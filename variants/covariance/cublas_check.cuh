// cuBLAS plumbing for the covariance peers: a status check in the style of LADDER_CUDA, the
// lazily created handles, SYRK and the mirror kernel that completes its result.
//
// Layout, once for all the peers. X is row-major m x n; cuBLAS is column-major, so the same
// memory with leading dimension n is the n x m column-major matrix A = X^T, and
// C = X^T X / m = A A^T / m. C is symmetric, so its row-major and column-major readings agree;
// only the half a SYRK fills needs care: cuBLAS "lower" means column-major C(i, j) with i >= j,
// stored at cov[j * n + i], i.e. the row-major UPPER triangle (row j, column i >= j).
#pragma once
#include <cublas_v2.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

#include "gpu_step.cuh"

namespace ladder::covariance {
namespace detail {

[[noreturn]] inline void throw_cublas(cublasStatus_t status, const char* call, const char* file,
                                      int line) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                  cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")");
}

}  // namespace detail
}  // namespace ladder::covariance

// Wrap a cuBLAS call: LADDER_CUBLAS(cublasSgemm(...));
#define LADDER_CUBLAS(call)                                                      \
  do {                                                                           \
    cublasStatus_t ladder_status_ = (call);                                      \
    if (ladder_status_ != CUBLAS_STATUS_SUCCESS)                                 \
      ::ladder::covariance::detail::throw_cublas(ladder_status_, #call, __FILE__, __LINE__); \
  } while (0)

namespace ladder::covariance {
// Internal linkage: each step's translation unit gets its own handle and mirror kernel, so
// nothing here can clash (ODR) with another file's helpers of the same name.
namespace {

// One handle per step (translation unit), math mode (CUBLAS_DEFAULT_MATH: FP32 stays FP32, no
// TF32; CUBLAS_TF32_TENSOR_OP_MATH for the TF32 peers) and emulation strategy (eager: cuBLAS
// emulates FP32 through BF16x9 wherever it can, not only where it judges it faster), created by
// the step's set-up (never inside the timed window) and bound to the run's stream by each
// enqueue (cublas_setup), so the pipeline's CUDA events bracket the library's kernels. Never
// destroyed: the process ends first and destroying after the CUDA context is torn down at exit
// would fail.
[[maybe_unused]] cublasHandle_t cublas_handle(cublasMath_t mode, bool eager_emulation) {
  static std::map<std::pair<int, bool>, cublasHandle_t> handles;
  cublasHandle_t& h = handles[{int(mode), eager_emulation}];
  if (!h) {
    cublasHandle_t created = nullptr;
    LADDER_CUBLAS(cublasCreate(&created));
    LADDER_CUBLAS(cublasSetMathMode(created, mode));
    LADDER_CUBLAS(cublasSetPointerMode(created, CUBLAS_POINTER_MODE_HOST));
    if (eager_emulation) LADDER_CUBLAS(cublasSetEmulationStrategy(created, CUBLAS_EMULATION_STRATEGY_EAGER));
    h = created;
  }
  return h;
}

// Copies the row-major upper triangle (what a column-major "lower" SYRK writes, see above) onto
// the row-major lower triangle: cov[i * n + j] = cov[j * n + i] for j < i. 32 x 32 tiles through
// shared memory so both the reads and the writes are coalesced; tiles wholly above the diagonal
// return at once.
__global__ void mirror_upper_to_lower_kernel(float* cov, int n) {
  __shared__ float tile[32][33];
  const int bi = blockIdx.y * 32, bj = blockIdx.x * 32;  // destination tile: rows bi.., cols bj..
  if (bj > bi) return;
  const int tx = threadIdx.x;
  // Read the source tile (rows bj.., columns bi..), row-major, coalesced along columns.
  for (int ty = threadIdx.y; ty < 32; ty += blockDim.y) {
    const int r = bj + ty, c = bi + tx;
    if (r < n && c < n && r <= c) tile[ty][tx] = cov[std::int64_t(r) * n + c];
  }
  __syncthreads();
  for (int ty = threadIdx.y; ty < 32; ty += blockDim.y) {
    const int i = bi + ty, j = bj + tx;  // destination (i, j), j < i, from source (j, i)
    if (i < n && j < i) cov[std::int64_t(i) * n + j] = tile[tx][ty];
  }
}

// Completes a SYRK result so every entry of the n x n matrix is written.
[[maybe_unused]] void mirror_upper_to_lower(float* cov, std::int64_t n, cudaStream_t stream) {
  const unsigned tiles = unsigned(ceil_div(n, 32));
  mirror_upper_to_lower_kernel<<<dim3(tiles, tiles), dim3(32, 8), 0, stream>>>(cov, int(n));
  LADDER_CUDA_LAUNCH("mirror_upper_to_lower_kernel");
}

// C = A A^T / m as SYRK (trans N, k = m, alpha = 1/m, beta = 0): the same half of the work as
// our lower-triangle steps, then mirrored so that every entry is written.
[[maybe_unused]] void ssyrk(cublasHandle_t h, const DeviceData& d, cudaStream_t stream) {
  const int n = int(d.n), k = int(d.m);
  const float alpha = static_cast<float>(1.0 / double(d.m)), beta = 0.f;
  LADDER_CUBLAS(cublasSsyrk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &alpha, d.x, n, &beta,
                            d.cov, n));
  mirror_upper_to_lower(d.cov, d.n, stream);
}

// C = A A^T / m as one cublasGemmEx with compute type `Compute`, FP32 in and out (transa N,
// transb T, lda = n): the full symmetric matrix, every entry written.
template <cublasComputeType_t Compute>
void gemm_ex(cublasHandle_t h, const DeviceData& d, cudaStream_t) {
  const int n = int(d.n), k = int(d.m);
  const float alpha = static_cast<float>(1.0 / double(d.m)), beta = 0.f;
  LADDER_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, k, &alpha, d.x, CUDA_R_32F, n, d.x, CUDA_R_32F, n,
                             &beta, d.cov, CUDA_R_32F, n, Compute, CUBLAS_GEMM_DEFAULT));
}

}  // namespace
// cuBLAS takes its dimensions as 32-bit ints.
inline std::string cublas_dimensions_limit(const CovProblem& p, const Params&, const DeviceCaps&) {
  if (p.m > 2147483647 || p.n > 2147483647) return "cuBLAS dimensions are 32-bit ints";
  return "";
}

// A peer's set-up: the handle is made now; `call` enqueues the library's work with it, the
// handle bound to the run's stream (given too, for work of ours around the library's).
using CublasCall = void (*)(cublasHandle_t, const DeviceData&, cudaStream_t);
inline SetupFn cublas_setup(cublasMath_t mode, CublasCall call, bool eager_emulation = false) {
  return [mode, call, eager_emulation](const CovProblem&, const Params&, const DeviceCaps&) {
    cublasHandle_t h = cublas_handle(mode, eager_emulation);
    return Setup{[h, call](const DeviceData& d, cudaStream_t stream) {
      LADDER_CUBLAS(cublasSetStream(h, stream));
      call(h, d, stream);
    }};
  };
}

}  // namespace ladder::covariance
