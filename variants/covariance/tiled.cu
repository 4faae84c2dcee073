// Step 5: shared-memory tiling, the notes' kernel. A block of chunk x chunk threads owns a
// chunk x chunk tile of C (lower triangle, mirrored on store). It walks the m rows chunk rows
// at a time: the block loads the tile's two column strips (chunk rows x chunk columns each,
// coalesced) into shared memory once, then every thread takes its chunk products from shared
// memory. Each value loaded from global memory now serves chunk threads, so the compute to
// global memory access ratio (CGMA) grows with chunk, at the price of fewer resident blocks
// per SM for large tiles. chunk_size is a compile-time parameter; two early exits are
// switchable: `block_exit` returns whole tiles above the diagonal at once, `thread_exit`
// skips the arithmetic of threads above the diagonal inside diagonal tiles.
#include "gpu_pipeline.cuh"

namespace ladder::cov {
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

constexpr int kChunks[] = {2, 4, 8, 16, 32};

int chunk_of(const Params& p) { return static_cast<int>(p.integer_or("chunk_size", 16)); }
bool on(const Params& p, const char* name) { return p.text_or(name, "on") == "on"; }

template <int CH>
bool try_launch(const DeviceData& d, const Params& p) {
  if (chunk_of(p) != CH) return false;
  const unsigned tiles = unsigned((d.n + CH - 1) / CH);
  cov_tiled_kernel<CH><<<dim3(tiles, tiles), dim3(CH, CH)>>>(
      d.x, d.cov, d.m, int(d.n), on(p, "block_exit"), on(p, "thread_exit"));
  LADDER_CUDA_LAUNCH("cov_tiled_kernel");
  return true;
}

void launch(const DeviceData& d, const Params& p) {
  if (!(try_launch<2>(d, p) || try_launch<4>(d, p) || try_launch<8>(d, p) ||
        try_launch<16>(d, p) || try_launch<32>(d, p)))
    throw CudaError("covariance/tiled: chunk_size not compiled");
}

std::string limit(const CovProblem& prob, const Params& p, const DeviceCaps&) {
  for (int c : kChunks)
    if (c == chunk_of(p)) {
      if ((prob.n + c - 1) / c > 65535) return "more than 65535 tiles per grid dimension";
      return "";
    }
  return "chunk_size " + std::to_string(chunk_of(p)) + " is not compiled (2, 4, 8, 16, 32)";
}

template <int CH>
void occupancy(const Params& p, std::map<std::string, double>& f) {
  if (chunk_of(p) != CH) return;
  int blocks = 0;
  LADDER_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, cov_tiled_kernel<CH>,
                                                            CH * CH, 0));
  f["blocks_per_sm"] = blocks;
}

// The notes' CGMA of the tile (chunk / 8 flop per byte), its shared memory and the resident
// blocks per SM the occupancy calculator allows.
std::map<std::string, double> facts(const CovProblem&, const Params& p) {
  const int c = chunk_of(p);
  std::map<std::string, double> f{{"chunk_size", c},
                                  {"cgma", c / 8.0},
                                  {"smem_bytes_per_block", 2.0 * c * c * sizeof(float)},
                                  {"threads_per_block", double(c * c)}};
  occupancy<2>(p, f);
  occupancy<4>(p, f);
  occupancy<8>(p, f);
  occupancy<16>(p, f);
  occupancy<32>(p, f);
  return f;
}

GpuStep step() {
  using K = ParamSpec::Kind;
  GpuStep s{"tiled", 5, "shared-memory tiles of chunk_size x chunk_size, lower triangle, "
                        "early exits", launch};
  s.params = {{"chunk_size", "16", "tile edge, compiled for 2, 4, 8, 16, 32", K::integer, 1, 64},
              {"block_exit", "on", "return whole tiles above the diagonal at once", K::text, 0,
               0, {"on", "off"}},
              {"thread_exit", "on", "skip the arithmetic of threads above the diagonal", K::text,
               0, 0, {"on", "off"}}};
  s.limit = limit;
  s.facts = facts;
  return s;
}

const Registrar registrar{gpu_variant(step())};

}  // namespace
}  // namespace ladder::cov
