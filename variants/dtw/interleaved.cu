// Step 7(a): CUDA interleaved. The naive step's global-memory cache of two DP rows per thread,
// but interleaved across threads: element k of thread e's rows lives at cache[k * entries + e]
// instead of cache[e * 2(n+1) + k]. All threads of a warp walk their tables in lockstep, so at
// every row access the warp touches 32 adjacent words (one coalesced transaction) instead of
// 32 words 2(n+1) floats apart (32 transactions). The subject is still read row-major.
#include "gpu_step.cuh"

namespace ladder::dtw {
namespace {

__global__ void dtw_interleaved_kernel(const float* query, const float* series, float* dist,
                                       float* cache, std::int64_t entries, int n, int band) {
  const std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  // Row cell k of this thread is cache[k * entries + e]: neighbours in a warp are adjacent.
  dist[e] = dtw_two_rows(query, series + e * n, n, cache + e, band,
                         /*row_stride=*/static_cast<std::size_t>(entries));
}

Setup setup(const DtwProblem&, const Params& p, const DeviceCaps&) {
  const int block = int(p.integer("block_size"));
  return {[block](const DeviceData& d, cudaStream_t stream) {
    dtw_interleaved_kernel<<<unsigned(ceil_div(d.entries, block)), block, 0, stream>>>(
        d.query, d.series, d.dist, d.scratch, d.entries, static_cast<int>(d.n), d.args.band);
    LADDER_CUDA_LAUNCH("dtw_interleaved_kernel");
  }};
}

const Registrar registrar{gpu_step(
    {.name = "interleaved",
     .step = 7,
     .label = "interleaved global cache",
     .change = "DP cache interleaved across threads so a warp's accesses coalesce",
     .params = {block_size_param()},
     .impl = setup,
     .scratch_bytes = global_rows_bytes})};

}  // namespace
}  // namespace ladder::dtw
