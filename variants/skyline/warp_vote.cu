// Step 8, warp vote: each warp runs its own nested loop and leaves it as soon as every lane's
// point is dominated (__all_sync), instead of waiting for the whole block at every tile. The
// thread's point lives in registers (no shared-memory reads, so no banks to conflict), the
// tile of 32 points in the warp's own shared memory is read by broadcast, and the test costs
// one compare per attribute (the exact check runs only when a point is not worse anywhere).
#include "padded.cuh"
#include "../../harness/shared_memory.cuh"

namespace ladder::skyline {
namespace {

constexpr int kWarps = 8;  // per block

template <int D>
__global__ void __launch_bounds__(kWarps * 32) warp_vote_kernel(Points pts) {
  extern __shared__ float smem[];
  const int lane = threadIdx.x % 32;
  float* tile = smem + (threadIdx.x / 32) * 32 * D;
  const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float q[D];
  load_column_point(pts, i, q);
  bool dominated = i >= pts.n;
  if (__all_sync(kFullWarp, dominated)) return;
  for (std::int64_t base = 0; base < pts.n; base += 32) {
    float p[D];
    load_column_point(pts, base + lane, p);
#pragma unroll
    for (int k = 0; k < D; ++k) tile[lane * D + k] = p[k];
    __syncwarp();
#pragma unroll 4
    for (int j = 0; j < 32; ++j) {
      float o[D];
      load_row(tile + j * D, o);
      dominated = dominated || dominates_padded(o, q);
    }
    if (__all_sync(kFullWarp, dominated)) break;
    __syncwarp();  // the tile is read before the next one is written
  }
  if (i < pts.n) pts.member[i] = !dominated;
}

GpuSetup<Points> setup(const SkylineProblem& p, const Params&, const DeviceCaps&) {
  GpuSetup<Points> out;
  with_width(p.d(), [&](auto width) {
    constexpr int D = decltype(width)::value;
    const std::size_t smem = kWarps * 32 * D * sizeof(float);
    allow_shared_memory(warp_vote_kernel<D>, smem);
    const auto blocks = ceil_div(p.n(), kWarps * 32);
    out.enqueue = [=](const Points& pts, cudaStream_t stream) {
      warp_vote_kernel<D><<<unsigned(blocks), kWarps * 32, smem, stream>>>(pts);
      LADDER_CUDA_LAUNCH("warp_vote_kernel");
    };
    out.facts = {{"width", double(D)}, {"shared_bytes_per_block", double(smem)}};
  }, "warp_vote");
  return out;
}

const Registrar registrar{gpu_step({.name = "warp_vote",
                                    .step = 8,
                                    .label = "warp vote",
                                    .change = "per-warp loop left by __all_sync once every lane "
                                              "is dominated; own point in registers",
                                    .impl = setup},
                                   true)};

}  // namespace
}  // namespace ladder::skyline
