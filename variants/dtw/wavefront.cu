// Step 9: CUDA wavefront. Steps 4-8 give each thread a whole n x n table, walked serially.
// Here one block aligns one subject series, and its threads compute the cells of an
// anti-diagonal of the DP matrix in parallel: cell (i, j) lies on diagonal d = i + j and
// depends only on diagonals d - 1 and d - 2,
//   D[i][j] = dtw_cell(D_{d-2}[i-1], D_{d-1}[i-1], D_{d-1}[i], q[i-1], s[j-1]),
// where D_d[i] holds cell (i, d - i). The block keeps three diagonals of n + 1 cells (indexed
// by the row i) in shared memory, rotating them by d mod 3, with one barrier per diagonal.
// Thread t owns rows t, t + blockDim.x, ... and keeps their query values in registers; the
// subject values of a diagonal are adjacent (in reverse), so a warp's reads coalesce. A series
// costs 2n - 1 diagonal steps instead of n^2 serial cells, at the price of a barrier per step
// and of entries outside the matrix on the short diagonals.
#include <algorithm>

#include "gpu_step.cuh"

namespace ladder::dtw {
namespace {

constexpr int kMaxBlock = 1024;

// R: rows per thread (a compile-time bound so the query values stay in registers); the block
// covers rows 0..n with R * blockDim.x >= n + 1.
template <int R>
__global__ void __launch_bounds__(kMaxBlock)
    dtw_wavefront_kernel(const float* query, const float* series, float* dist,
                         std::int64_t entries, int n, int band) {
  extern __shared__ float diagonals[];  // 3 x (n + 1): diagonal d lives in slot d % 3
  const float inf = INFINITY;
  const int stride = n + 1;

  // This thread's rows i = threadIdx.x + r * blockDim.x and their query values q[i - 1].
  float q[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = threadIdx.x + r * blockDim.x;
    q[r] = i >= 1 && i <= n ? query[i - 1] : 0.f;
  }

  for (std::int64_t e = blockIdx.x; e < entries; e += gridDim.x) {
    const float* s = series + e * n;
    // Diagonal 0: D[0][0] = 0, no other cell; diagonal 1: the borders (0,1) and (1,0).
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int i = threadIdx.x + r * blockDim.x;
      if (i <= n) {
        diagonals[i] = i == 0 ? 0.f : inf;
        diagonals[stride + i] = inf;
      }
    }
    __syncthreads();
    for (int d = 2; d <= 2 * n; ++d) {
      // Slots of d - 2, d - 1 and d are distinct, so this step's reads (of d - 1, d - 2) never
      // meet its writes (to d's slot, which held d - 3 and was last read in step d - 1, before
      // the barrier that ended it).
      const float* two_back = diagonals + (d - 2) % 3 * stride;
      const float* one_back = diagonals + (d - 1) % 3 * stride;
      float* cur = diagonals + d % 3 * stride;
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int i = threadIdx.x + r * blockDim.x;
        if (i <= n) {
          const int j = d - i;
          float v = inf;  // borders, entries outside the matrix and outside the band
          if (i >= 1 && j >= 1 && j <= n && i - j <= band && j - i <= band)
            v = dtw_cell(two_back[i - 1], one_back[i - 1], one_back[i], q[r], s[j - 1]);
          cur[i] = v;
        }
      }
      __syncthreads();  // diagonal d complete before step d + 1 reads it and reuses d - 2's slot
    }
    if (threadIdx.x == 0) dist[e] = diagonals[2 * n % 3 * stride + n];  // D[n][n]
    __syncthreads();  // the read above precedes the next series' initialisation
  }
}

// Threads per block: one per row 0..n up to 1024, rounded up to whole warps.
int block_for(std::int64_t n) {
  const std::int64_t rows = std::min<std::int64_t>(n + 1, kMaxBlock);
  return static_cast<int>(ceil_div(rows, 32) * 32);
}

std::size_t shared_bytes(std::int64_t n) {
  return 3 * static_cast<std::size_t>(n + 1) * sizeof(float);
}

// 24 x 1024 rows cover every n whose three diagonals fit in a block's shared memory on current
// GPUs (n <= 19369 with 227 KiB); at 24 the kernel still needs no spills (32 would spill).
using RowsPerThread = CompiledSet<1, 2, 4, 8, 16, 24>;

Setup setup(const DtwProblem& prob, const Params&, const DeviceCaps&) {
  const int block = block_for(prob.n());
  const std::size_t bytes = shared_bytes(prob.n());
  Setup out;
  // The smallest compiled rows-per-thread bound that covers rows 0..n.
  RowsPerThread::first([&](int r) { return prob.n() + 1 <= std::int64_t(r) * block; },
                       [&](auto rows) {
                         constexpr int R = decltype(rows)::value;
                         allow_shared_memory(dtw_wavefront_kernel<R>, bytes);
                         out.enqueue = [block, bytes](const DeviceData& d, cudaStream_t stream) {
                           const int grid = int(std::min<std::int64_t>(d.entries, 0x7fffffff));
                           dtw_wavefront_kernel<R><<<grid, block, bytes, stream>>>(
                               d.query, d.series, d.dist, d.entries, static_cast<int>(d.n),
                               d.args.band);
                           LADDER_CUDA_LAUNCH("dtw_wavefront_kernel");
                         };
                       },
                       "dtw/wavefront");
  return out;
}

std::string limit(const DtwProblem& p, const Params&, const DeviceCaps& d) {
  const std::int64_t max_n = std::int64_t(RowsPerThread::largest()) * kMaxBlock - 1;
  if (p.n() > max_n)
    return "series length " + std::to_string(p.n()) + " exceeds " + std::to_string(max_n) +
           " (" + std::to_string(RowsPerThread::largest()) + " rows per thread of 1024)";
  return shared_memory_reason(shared_bytes(p.n()), "three diagonals", d);
}

const Registrar registrar{gpu_step(
    {.name = "wavefront",
     .step = 9,
     .label = "block wavefront",
     .change = "one block per series walks anti-diagonals; three diagonals in shared memory",
     .impl = setup,
     .limit = limit})};

}  // namespace
}  // namespace ladder::dtw
