// Step 5: CUDA thread-local. The two DP rows become a per-thread array whose length is a
// template parameter, so the compiler knows no other thread can touch it: it lives in local
// memory (cached in L1) instead of behind an opaque global pointer. A point runs with the
// smallest compiled capacity >= n; longer series are unsupported. The notes measured ~11x
// over the naive step.
#include "gpu_instance.cuh"

namespace ladder::dtw {
namespace {

constexpr int kCapacities[] = {32, 64, 128, 256, 512, 1024};

template <int Capacity>
__global__ void dtw_thread_local_kernel(const float* query, const float* series, float* dist,
                                        std::int64_t entries, int n, int band) {
  const std::int64_t e = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= entries) return;
  float rows[2 * (Capacity + 1)];  // private to the thread: local memory, cached in L1
  dist[e] = dtw_two_rows(query, series + e * n, n, rows, band);
}

template <int Capacity>
bool try_launch(const DeviceData& d, int block) {
  if (d.n > Capacity) return false;
  dtw_thread_local_kernel<Capacity><<<grid_for(d.entries, block), block>>>(
      d.query, d.series, d.dist, d.entries, static_cast<int>(d.n), d.band);
  LADDER_CUDA_LAUNCH("dtw_thread_local_kernel");
  return true;
}

void launch(const DeviceData& d, const Params& p) {
  const int block = block_size(p);
  // Fold over the capacities, stopping at the first that holds n.
  const bool launched = try_launch<32>(d, block) || try_launch<64>(d, block) ||
                        try_launch<128>(d, block) || try_launch<256>(d, block) ||
                        try_launch<512>(d, block) || try_launch<1024>(d, block);
  if (!launched) throw CudaError("dtw/thread_local: n beyond the compiled capacities");
}

std::string limit(const DtwProblem& p, const Params&, const DeviceCaps&) {
  const int largest = kCapacities[std::size(kCapacities) - 1];
  if (p.n() <= largest) return "";
  return "series length " + std::to_string(p.n()) + " exceeds the largest compiled capacity (" +
         std::to_string(largest) + ")";
}

const Registrar registrar{gpu_variant(
    {"thread_local", 5, "DP rows in a per-thread array sized by a template parameter", launch,
     nullptr, limit})};

}  // namespace
}  // namespace ladder::dtw
