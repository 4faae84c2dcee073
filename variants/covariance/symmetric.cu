// Step 4: symmetric. C is symmetric, so only the threads of the lower triangle (j <= i)
// compute, and each writes its value to both C[i][j] and C[j][i]: half the work of step 3.
#include "gpu_step.cuh"

namespace ladder::covariance {
namespace {

__global__ void cov_symmetric_kernel(const float* x, float* cov, std::int64_t m, int n) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= n || j > i) return;
  float sum = 0.f;
  for (std::int64_t r = 0; r < m; ++r) sum += x[r * n + i] * x[r * n + j];
  const float c = sum / static_cast<float>(m);
  cov[static_cast<std::int64_t>(i) * n + j] = c;
  if (j != i) cov[static_cast<std::int64_t>(j) * n + i] = c;
}

void enqueue(const DeviceData& d, cudaStream_t stream) {
  const dim3 block(32, 8);
  const dim3 grid(unsigned(ceil_div(d.n, 32)), unsigned(ceil_div(d.n, 8)));
  cov_symmetric_kernel<<<grid, block, 0, stream>>>(d.x, d.cov, d.m, int(d.n));
  LADDER_CUDA_LAUNCH("cov_symmetric_kernel");
}

const Registrar registrar{gpu_step(
    {.name = "symmetric",
     .step = 4,
     .label = "lower triangle",
     .change = "lower triangle only, mirrored: half the work",
     .impl = [](const CovProblem&, const Params&, const DeviceCaps&) { return Setup{enqueue}; }})};

}  // namespace
}  // namespace ladder::covariance
