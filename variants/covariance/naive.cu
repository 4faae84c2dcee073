// Step 3: naive covariance on the GPU: one thread per output C[i][j], the full n x n matrix,
// each thread reading its two columns of X straight from global memory (m loads each). Both
// operands of the dot product are columns of a row-major matrix, so a warp (32 consecutive j)
// reads 32 adjacent words of X[r][j] and the same X[r][i] (a broadcast) per row.
#include "gpu_step.cuh"

namespace ladder::covariance {
namespace {

__global__ void cov_naive_kernel(const float* x, float* cov, std::int64_t m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j >= n) return;
  float sum = 0.f;
  for (std::int64_t r = 0; r < m; ++r) sum += x[r * n + i] * x[r * n + j];
  cov[static_cast<std::int64_t>(i) * n + j] = sum / static_cast<float>(m);
}

void enqueue(const DeviceData& d, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid(unsigned(ceil_div(d.n, 32)), unsigned(ceil_div(d.n, 8)));
  cov_naive_kernel<<<grid, block, 0, stream>>>(d.x, d.cov, d.m, int(d.n));
  LADDER_CUDA_LAUNCH("cov_naive_kernel");
}

const Registrar registrar{gpu_step(
    {.name = "naive",
     .step = 3,
     .label = "CUDA naive",
     .change = "one thread per output, the full matrix, operands from global memory",
     .impl = [](const CovProblem&, const Params&, const DeviceCaps&) { return Setup{enqueue}; }})};

}  // namespace
}  // namespace ladder::covariance
