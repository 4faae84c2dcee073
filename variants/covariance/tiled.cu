// Step 5: shared-memory tiling, the notes' kernel. A block of chunk x chunk threads owns a
// chunk x chunk tile of C (lower triangle, mirrored on store). It walks the m rows chunk rows
// at a time: the block loads the tile's two column strips (chunk rows x chunk columns each,
// coalesced) into shared memory once, then every thread takes its chunk products from shared
// memory. Each value loaded from global memory now serves chunk threads, so the compute to
// global memory access ratio (CGMA) grows with chunk, at the price of fewer resident blocks
// per SM for large tiles. chunk_size is a compile-time parameter; two early exits are
// switchable: `block_exit` returns whole tiles above the diagonal at once, `thread_exit`
// skips the arithmetic of threads above the diagonal inside diagonal tiles.
#include "gpu_step.cuh"

namespace ladder::covariance {
namespace {

template <int CH>
__global__ void cov_tiled_kernel(const float* x, float* cov, std::int64_t m, int n,
                                 bool block_exit, bool thread_exit) {
  __shared__ float strip_i[CH][CH];  // [row in chunk][column of the tile's i range]
  __shared__ float strip_j[CH][CH];  // [row in chunk][column of the tile's j range]
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i0 = blockIdx.y * CH, j0 = blockIdx.x * CH;
  if (block_exit && j0 > i0) return;  // the whole tile lies above the diagonal
  const int i = i0 + ty, j = j0 + tx;
  const bool owner = i < n && j <= i;  // writes C[i][j] and its mirror
  const bool active = owner || !thread_exit;
  float sum = 0.f;
  for (std::int64_t r0 = 0; r0 < m; r0 += CH) {
    const std::int64_t r = r0 + ty;  // every thread helps load, whatever it computes
    strip_i[ty][tx] = r < m && i0 + tx < n ? x[r * n + i0 + tx] : 0.f;
    strip_j[ty][tx] = r < m && j < n ? x[r * n + j] : 0.f;
    __syncthreads();
    if (active) {
#pragma unroll
      for (int k = 0; k < CH; ++k) sum += strip_i[k][ty] * strip_j[k][tx];
    }
    __syncthreads();  // the strips are reloaded next iteration
  }
  if (owner) {
    const float c = sum / static_cast<float>(m);
    cov[static_cast<std::int64_t>(i) * n + j] = c;
    if (j != i) cov[static_cast<std::int64_t>(j) * n + i] = c;
  }
}

using Chunks = CompiledSet<2, 4, 8, 16, 32>;

// The instantiation for chunk_size, its occupancy (resident blocks per SM, queried here so
// that nothing but the launch is timed) and the notes' CGMA of the tile (chunk / 8 flop per
// byte).
Setup setup(const CovProblem&, const Params& p, const DeviceCaps&) {
  const int chunk = int(p.integer("chunk_size"));
  const bool block_exit = p.text("block_exit") == "on", thread_exit = p.text("thread_exit") == "on";
  Setup out;
  out.facts = {{"chunk_size", chunk},
               {"cgma", chunk / 8.0},
               {"smem_bytes_per_block", 2.0 * chunk * chunk * sizeof(float)},
               {"threads_per_block", double(chunk * chunk)}};
  Chunks::exactly(chunk, [&](auto ch) {
    constexpr int CH = decltype(ch)::value;
    int blocks = 0;
    LADDER_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, cov_tiled_kernel<CH>,
                                                              CH * CH, 0));
    out.facts["blocks_per_sm"] = blocks;
    out.enqueue = [block_exit, thread_exit](const DeviceData& d, cudaStream_t stream) {
      const unsigned tiles = unsigned(ceil_div(d.n, CH));
      cov_tiled_kernel<CH><<<dim3(tiles, tiles), dim3(CH, CH), 0, stream>>>(
          d.x, d.cov, d.m, int(d.n), block_exit, thread_exit);
      LADDER_CUDA_LAUNCH("cov_tiled_kernel");
    };
  }, "covariance/tiled");
  return out;
}

std::string limit(const CovProblem& prob, const Params& p, const DeviceCaps&) {
  const std::int64_t chunk = p.integer("chunk_size");
  if (ceil_div(prob.n, chunk) > 65535) return "more than 65535 tiles per grid dimension";
  return "";
}

const Registrar registrar{gpu_step(
    {.name = "tiled",
     .step = 5,
     .label = "shared-memory tiles",
     .change = "shared-memory tiles of chunk_size x chunk_size, lower triangle, early exits",
     .params = {{"chunk_size", "16", "tile edge, compiled for " + Chunks::text(),
                 ParamSpec::Kind::integer, 1, 64, Chunks::choices()},
                {"block_exit", "on", "return whole tiles above the diagonal at once",
                 ParamSpec::Kind::text, 0, 0, {"on", "off"}},
                {"thread_exit", "on", "skip the arithmetic of threads above the diagonal",
                 ParamSpec::Kind::text, 0, 0, {"on", "off"}}},
     .impl = setup,
     .limit = limit})};

}  // namespace
}  // namespace ladder::covariance
