// Step 6: CUDA shared. Each thread's two DP rows move to dynamic shared memory (the block
// holds block_size * 2(n+1) floats). Rows no longer travel through the L1/L2 hierarchy at all;
// the subject and query are still read from global memory as before. The notes measured
// ~4.3x over the thread-local step. Points whose rows exceed a block's shared memory are
// unsupported.
#include "gpu_step.cuh"

namespace ladder::dtw {
namespace {

__global__ void dtw_shared_kernel(const float* query, const float* series, float* dist,
                                  std::int64_t entries, int n, int band) {
  extern __shared__ float cache[];
  const std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  float* rows = cache + threadIdx.x * 2 * (n + 1);  // this thread's slice of the block's buffer
  dist[e] = dtw_two_rows(query, series + e * n, n, rows, band);
}

Setup setup(const DtwProblem& p, const Params& params, const DeviceCaps&) {
  return shared_rows_setup(dtw_shared_kernel, p, params, /*time_major=*/false);
}

const Registrar registrar{gpu_step({.name = "shared",
                                    .step = 6,
                                    .label = "shared-memory rows",
                                    .change = "per-thread DP rows in dynamic shared memory",
                                    .params = {block_size_param()},
                                    .impl = setup,
                                    .limit = shared_rows_limit})};

}  // namespace
}  // namespace ladder::dtw
