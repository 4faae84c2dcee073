// Step 6: CUDA shared. Each thread's two DP rows move to dynamic shared memory (the block
// holds block_size * 2(n+1) floats). Rows no longer travel through the L1/L2 hierarchy at all;
// the subject and query are still read from global memory as before. The notes measured
// ~4.3x over the thread-local step. Points whose rows exceed a block's shared memory are
// unsupported.
#include "gpu_instance.cuh"

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

std::size_t shared_bytes(std::int64_t n, int block) {
  return static_cast<std::size_t>(block) * 2 * (n + 1) * sizeof(float);
}

void launch(const DeviceData& d, const Params& p) {
  const int block = static_cast<int>(p.integer_or("block_size", 32));
  const std::size_t bytes = shared_bytes(d.n, block);
  // Above 48 KiB a kernel must opt in to the larger dynamic shared memory carve-out.
  LADDER_CUDA(cudaFuncSetAttribute(dtw_shared_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(bytes)));
  dtw_shared_kernel<<<grid_for(d.entries, block), block, bytes>>>(d.query, d.series, d.dist,
                                                                  d.entries, static_cast<int>(d.n), d.band);
  LADDER_CUDA_LAUNCH("dtw_shared_kernel");
}

std::string limit(const DtwProblem& p, const Params& params, const DeviceCaps& d) {
  const int block = static_cast<int>(params.integer_or("block_size", 32));
  const std::size_t bytes = shared_bytes(p.n(), block);
  if (bytes <= d.smem_per_block_optin) return "";
  return "needs " + std::to_string(bytes / 1024) + " KiB of shared memory per block of " +
         std::to_string(block) + " threads; the device allows " +
         std::to_string(d.smem_per_block_optin / 1024) + " KiB";
}

const Registrar registrar{gpu_variant({"shared", 6,
                                       "per-thread DP rows in dynamic shared memory", launch,
                                       nullptr, limit})};

}  // namespace
}  // namespace ladder::dtw
