// Step 5: CUDA thread-local. The two DP rows become a per-thread array whose length is a
// template parameter, so the compiler knows no other thread can touch it: it lives in local
// memory (cached in L1) instead of behind an opaque global pointer. A point runs with the
// smallest compiled capacity >= n; longer series are unsupported. The notes measured ~11x
// over the naive step.
#include "gpu_step.cuh"

namespace ladder::dtw {
namespace {

using Capacities = CompiledSet<32, 64, 128, 256, 512, 1024>;

template <int Capacity>
__global__ void dtw_thread_local_kernel(const float* query, const float* series, float* dist,
                                        std::int64_t entries, int n, int band) {
  const std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  float rows[2 * (Capacity + 1)];  // private to the thread: local memory, cached in L1
  dist[e] = dtw_two_rows(query, series + e * n, n, rows, band);
}

Setup setup(const DtwProblem& prob, const Params& p, const DeviceCaps&) {
  const int block = int(p.integer("block_size"));
  Setup out;
  // The smallest compiled capacity that holds n.
  Capacities::first([&](int c) { return prob.n() <= c; }, [&](auto capacity) {
    out.enqueue = [block](const DeviceData& d, cudaStream_t stream) {
      const unsigned grid = unsigned(ceil_div(d.entries, block));
      dtw_thread_local_kernel<decltype(capacity)::value><<<grid, block, 0, stream>>>(
          d.query, d.series, d.dist, d.entries, static_cast<int>(d.n), d.args.band);
      LADDER_CUDA_LAUNCH("dtw_thread_local_kernel");
    };
  }, "dtw/thread_local");
  return out;
}

std::string limit(const DtwProblem& p, const Params&, const DeviceCaps&) {
  if (p.n() <= Capacities::largest()) return "";
  return "series length " + std::to_string(p.n()) + " exceeds the largest compiled capacity (" +
         std::to_string(Capacities::largest()) + ")";
}

const Registrar registrar{
    gpu_step({.name = "thread_local",
              .step = 5,
              .label = "thread-local rows",
              .change = "DP rows in a per-thread array sized by a template parameter",
              .params = {block_size_param()},
              .impl = setup,
              .limit = limit})};

}  // namespace
}  // namespace ladder::dtw
