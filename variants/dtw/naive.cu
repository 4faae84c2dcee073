// Step 4: CUDA naive. One thread per subject series, each with its two DP rows in one big
// global-memory cache (thread t owns Cache[t*2(n+1) .. (t+1)*2(n+1))). The arithmetic is the
// sequential code's; every cell now costs global loads and a store, and a warp's 32 threads
// touch 32 addresses 2(n+1) floats apart, so nothing coalesces. The notes measured this ~10x
// slower than 32-core OpenMP.
#include "gpu_step.cuh"

namespace ladder::dtw {
namespace {

__global__ void dtw_naive_kernel(const float* query, const float* series, float* dist,
                                 float* cache, std::int64_t entries, int n, int band) {
  const std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  float* rows = cache + e * 2 * (n + 1);  // this thread's slice of the global cache
  dist[e] = dtw_two_rows(query, series + e * n, n, rows, band);
}

Setup setup(const DtwProblem&, const Params& p, const DeviceCaps&) {
  const int block = int(p.integer("block_size"));
  return {[block](const DeviceData& d, cudaStream_t stream) {
    dtw_naive_kernel<<<unsigned(ceil_div(d.entries, block)), block, 0, stream>>>(
        d.query, d.series, d.dist, d.scratch, d.entries, static_cast<int>(d.n), d.args.band);
    LADDER_CUDA_LAUNCH("dtw_naive_kernel");
  }};
}

const Registrar registrar{gpu_step(
    {.name = "naive",
     .step = 4,
     .label = "CUDA naive",
     .change = "one thread per series, two DP rows per thread in a global-memory cache",
     .params = {block_size_param()},
     .impl = setup,
     .scratch_bytes = global_rows_bytes})};

}  // namespace
}  // namespace ladder::dtw
