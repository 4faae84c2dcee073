// Step 8: CUDA constant query. Step 7(b) (time-major subjects, per-thread DP rows in shared
// memory) with the query in __constant__ memory. Every thread of a warp reads the same query
// value q[i-1] at the same time, the access pattern the constant cache serves as a single
// broadcast, instead of a global load per warp through L1. The query is copied into the
// constant bank (device to device) before each launch. Queries longer than the constant bank
// (16384 floats, 64 KiB) and rows beyond a block's shared memory are unsupported.
#include "gpu_step.cuh"

namespace ladder::dtw {
namespace {

constexpr int kMaxConstQuery = 16384;  // 64 KiB of floats: all of the user constant bank
__constant__ float c_query[kMaxConstQuery];

__global__ void dtw_constant_query_kernel(const float* series, float* dist, std::int64_t entries,
                                          int n, int band) {
  extern __shared__ float cache[];
  const std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  float* rows = cache + threadIdx.x * 2 * (n + 1);  // this thread's slice of the block's buffer
  // Query from the constant bank; subject value t of series e is series[t * entries + e].
  dist[e] = dtw_two_rows(c_query, series + e, n, rows, band, 1,
                         /*s_stride=*/static_cast<std::size_t>(entries));
}

Setup setup(const DtwProblem& prob, const Params& p, const DeviceCaps&) {
  const int block = int(p.integer("block_size"));
  const std::size_t bytes = shared_rows_bytes(prob.n(), block);
  allow_shared_memory(dtw_constant_query_kernel, bytes);
  return {[block, bytes](const DeviceData& d, cudaStream_t stream) {
            // Ordered on the run's stream: the previous query's kernel has finished reading
            // the bank.
            LADDER_CUDA(cudaMemcpyToSymbolAsync(c_query, d.query, d.n * sizeof(float), 0,
                                                cudaMemcpyDeviceToDevice, stream));
            const unsigned grid = unsigned(ceil_div(d.entries, block));
            dtw_constant_query_kernel<<<grid, block, bytes, stream>>>(
                d.series, d.dist, d.entries, static_cast<int>(d.n), d.args.band);
            LADDER_CUDA_LAUNCH("dtw_constant_query_kernel");
          },
          /*time_major=*/true};
}

std::string limit(const DtwProblem& p, const Params& params, const DeviceCaps& d) {
  if (p.n() > kMaxConstQuery)
    return "series length " + std::to_string(p.n()) + " exceeds the " +
           std::to_string(kMaxConstQuery) + " floats (64 KiB) of constant memory for the query";
  return shared_rows_limit(p, params, d);
}

const Registrar registrar{gpu_step(
    {.name = "constant_query",
     .step = 8,
     .label = "query in constant memory",
     .change = "query in constant memory: a warp's common read of q[i-1] is one broadcast",
     .params = {block_size_param()},
     .impl = setup,
     .limit = limit})};

}  // namespace
}  // namespace ladder::dtw
