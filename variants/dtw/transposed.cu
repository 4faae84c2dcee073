// Step 7(b): CUDA transposed. The shared step's per-thread DP rows in dynamic shared memory,
// with the subjects stored time-major (n x entries, element (e, t) at t * entries + e; the
// harness transposes them once when the step is prepared, outside the timed work). Threads of
// a warp read s[t] of 32 consecutive series at the same time, which are now adjacent words:
// one coalesced transaction instead of 32 reads n floats apart. Points whose rows exceed a
// block's shared memory are unsupported, as in the shared step.
#include "gpu_step.cuh"

namespace ladder::dtw {
namespace {

__global__ void dtw_transposed_kernel(const float* query, const float* series, float* dist,
                                      std::int64_t entries, int n, int band) {
  extern __shared__ float cache[];
  const std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  float* rows = cache + threadIdx.x * 2 * (n + 1);  // this thread's slice of the block's buffer
  // Subject value t of series e is series[t * entries + e].
  dist[e] = dtw_two_rows(query, series + e, n, rows, band, 1,
                         /*s_stride=*/static_cast<std::size_t>(entries));
}

Setup setup(const DtwProblem& p, const Params& params, const DeviceCaps&) {
  return shared_rows_setup(dtw_transposed_kernel, p, params, /*time_major=*/true);
}

const Registrar registrar{gpu_step({.name = "transposed",
                                    .step = 7,
                                    .label = "time-major subjects",
                                    .change = "subjects stored time-major so a warp reads one "
                                              "time step of 32 series in one transaction",
                                    .params = {block_size_param()},
                                    .impl = setup,
                                    .limit = shared_rows_limit})};

}  // namespace
}  // namespace ladder::dtw
