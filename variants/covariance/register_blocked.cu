// Step 6: register blocking, the SGEMM recipe applied to C = X^T X. Step 5 loads each value of
// X into shared memory once per tile, but every multiply-add still reads both operands from
// shared memory: shared-memory bandwidth, not arithmetic, bounds it. Here a block of 256
// threads owns a 128 x 128 tile of C and each thread an 8 x 8 block of it held in registers:
// per row of X a thread reads 8 + 8 operands from shared memory (four 16-byte loads) and does
// 64 multiply-adds with them, 4 FMAs per word read instead of 1/2 (the 8 x 8 outer product).
// X is row-major, so a k-tile of the tile's two column strips is 8 rows of 128 contiguous
// floats each: read with 16-byte loads when n % 4 == 0, else (the paper's n = 2475) with
// coalesced 4-byte loads, a warp still reading 128 contiguous bytes per load; zero-filled past
// m and n; double-buffered (the next k-tile is fetched into registers while this one is
// computed, then stored to the other shared buffer: one barrier per k-tile). Only tiles on or
// below the diagonal are launched (diagonal tiles computed whole) and mirrored on store. At the
// paper size there are only 210 such tiles for 132 SMs x 2 resident blocks, so the m rows are
// also split into slices (split-K) picked so the blocks fill whole waves; the slices add their
// partial sums into a zeroed C with atomics.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "gpu_step.cuh"
#include "outer_product.cuh"
#include "triangle_tiles.cuh"

namespace ladder::covariance {
namespace {

constexpr int kTile = 128;    // C tile edge
constexpr int kK = 8;         // rows of X per k-tile
constexpr int kThreads = 256; // 16 x 16 threads, each an 8 x 8 register tile
constexpr int kMinBlocks = 2; // asked of the register allocator: <= 128 registers a thread
constexpr int kMinSliceRows = 2048;  // below this split-K costs more (atomics) than it gains
constexpr int kMaxSplit = 32;

// A thread's share of one strip (128 columns from c0) of a k-tile (kK rows from r0), zero past
// the slice end and past n. kVec (n % 4 == 0, X 16-byte aligned): one float4, row tid / 32,
// columns 4 (tid % 32) .. +3; c < n then implies c + 3 < n and an aligned address. Otherwise
// four words, column tid % 128 of rows tid / 128 + {0, 2, 4, 6}: a warp still reads 128
// contiguous bytes per load, with no alignment needed.
struct Frag {
  float v[4];
};

template <bool kVec>
__device__ __forceinline__ Frag fetch(const float* __restrict__ x, std::int64_t r0,
                                      std::int64_t r_end, int c0, int n, int tid) {
  Frag f{{0.f, 0.f, 0.f, 0.f}};
  if (kVec) {
    const std::int64_t r = r0 + (tid >> 5);
    const int c = c0 + (tid & 31) * 4;
    if (r < r_end && c < n) {
      const float4 q = __ldg(reinterpret_cast<const float4*>(x + r * n + c));
      f.v[0] = q.x, f.v[1] = q.y, f.v[2] = q.z, f.v[3] = q.w;
    }
  } else {
    const std::int64_t r = r0 + (tid >> 7);
    const int c = c0 + (tid & 127);
    if (c < n) {
      const float* p = x + r * n + c;
#pragma unroll
      for (int q = 0; q < 4; ++q)
        if (r + 2 * q < r_end) f.v[q] = __ldg(p + std::int64_t(2 * q) * n);
    }
  }
  return f;
}

// Stores a Frag where fetch took it from: s is one stage, [row in k-tile][column].
template <bool kVec>
__device__ __forceinline__ void stash(float (*s)[kTile], const Frag& f, int tid) {
  if (kVec) {
    *reinterpret_cast<float4*>(&s[tid >> 5][(tid & 31) * 4]) =
        make_float4(f.v[0], f.v[1], f.v[2], f.v[3]);
  } else {
#pragma unroll
    for (int q = 0; q < 4; ++q) s[(tid >> 7) + 2 * q][tid & 127] = f.v[q];
  }
}

// Writes (or, with split-K, adds) 4 consecutive entries of row `row`, columns col..col+3.
// kVec here: n % 4 == 0 and C 16-byte aligned, so col + 3 < n and an aligned address.
template <bool kVec>
__device__ __forceinline__ void put4(float* __restrict__ cov, int n, int row, int col, float a,
                                     float b, float c, float d, bool accumulate) {
  if (row >= n || col >= n) return;
  float* p = cov + std::int64_t(row) * n + col;
  if (accumulate) {
    atomicAdd(p, a);
    if (col + 1 < n) atomicAdd(p + 1, b);
    if (col + 2 < n) atomicAdd(p + 2, c);
    if (col + 3 < n) atomicAdd(p + 3, d);
  } else if (kVec) {
    *reinterpret_cast<float4*>(p) = make_float4(a, b, c, d);
  } else {
    p[0] = a;
    if (col + 1 < n) p[1] = b;
    if (col + 2 < n) p[2] = c;
    if (col + 3 < n) p[3] = d;
  }
}

// blockIdx.x: a tile (ti, tj), tj <= ti, of the lower triangle, numbered row by row;
// blockIdx.y: a slice of rows_per_slice rows of X (a multiple of kK).
template <bool kVec>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    cov_register_blocked_kernel(const float* __restrict__ x, float* __restrict__ cov,
                                std::int64_t m, int n, std::int64_t rows_per_slice, float inv_m,
                                bool accumulate) {
  __shared__ __align__(16) float sa[2][kK][kTile];  // [stage][row in k-tile][column i0 + c]
  __shared__ __align__(16) float sb[2][kK][kTile];  // [stage][row in k-tile][column j0 + c]

  // Lower-triangle tile of this block: b = ti (ti + 1) / 2 + tj.
  int ti, tj;
  triangle_tile(blockIdx.x, ti, tj);
  const int i0 = ti * kTile, j0 = tj * kTile;

  const std::int64_t r_begin = std::int64_t(blockIdx.y) * rows_per_slice;
  const std::int64_t r_end = m < r_begin + rows_per_slice ? m : r_begin + rows_per_slice;

  const int tid = threadIdx.x;
  // Computing: thread (ty, tx) owns rows i0 + {4 ty .. 4 ty + 3, 64 + 4 ty .. 64 + 4 ty + 3}
  // and columns j0 + {4 tx .. +3, 64 + 4 tx .. +3}. A warp (two ty, sixteen tx) reads two
  // broadcast float4s of sa and sixteen consecutive float4s of sb: no bank conflicts.
  const int ty = tid >> 4, tx = tid & 15;

  float acc[8][8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < 8; ++j) acc[i][j] = 0.f;

  Frag pa = fetch<kVec>(x, r_begin, r_end, i0, n, tid);
  Frag pb = fetch<kVec>(x, r_begin, r_end, j0, n, tid);
  stash<kVec>(sa[0], pa, tid);
  stash<kVec>(sb[0], pb, tid);
  __syncthreads();

  int stage = 0;
  for (std::int64_t r0 = r_begin; r0 < r_end; r0 += kK) {
    const bool more = r0 + kK < r_end;
    if (more) {  // fetch the next k-tile while this one is computed
      pa = fetch<kVec>(x, r0 + kK, r_end, i0, n, tid);
      pb = fetch<kVec>(x, r0 + kK, r_end, j0, n, tid);
    }
#pragma unroll
    for (int k = 0; k < kK; ++k) outer_product_8x8(acc, sa[stage][k], sb[stage][k], ty, tx);
    if (more) {  // the other buffer: nobody reads it until after the barrier below
      stash<kVec>(sa[stage ^ 1], pa, tid);
      stash<kVec>(sb[stage ^ 1], pb, tid);
    }
    __syncthreads();  // this k-tile read by all, the next one stored by all
    stage ^= 1;
  }

  // Store, scaled by 1/m: C[i][j] for the tile, and C[j][i] as well off the diagonal.
  const bool mirror = ti != tj;
#pragma unroll
  for (int ih = 0; ih < 2; ++ih)
#pragma unroll
    for (int ii = 0; ii < 4; ++ii) {
      const int i = i0 + 64 * ih + 4 * ty + ii;
      const float* row = acc[4 * ih + ii];
#pragma unroll
      for (int jh = 0; jh < 2; ++jh) {
        const int j = j0 + 64 * jh + 4 * tx;
        put4<kVec>(cov, n, i, j, row[4 * jh] * inv_m, row[4 * jh + 1] * inv_m,
                   row[4 * jh + 2] * inv_m, row[4 * jh + 3] * inv_m, accumulate);
      }
    }
  if (mirror) {
#pragma unroll
    for (int jh = 0; jh < 2; ++jh)
#pragma unroll
      for (int jj = 0; jj < 4; ++jj) {
        const int j = j0 + 64 * jh + 4 * tx + jj;
        const int c = 4 * jh + jj;
#pragma unroll
        for (int ih = 0; ih < 2; ++ih) {
          const int i = i0 + 64 * ih + 4 * ty;
          put4<kVec>(cov, n, j, i, acc[4 * ih][c] * inv_m, acc[4 * ih + 1][c] * inv_m,
                     acc[4 * ih + 2][c] * inv_m, acc[4 * ih + 3][c] * inv_m, accumulate);
        }
      }
  }
}

// 16-byte loads and stores: rows of X and C start 16-byte aligned.
bool vectorisable(const float* x, const float* cov, std::int64_t n) {
  return n % 4 == 0 && reinterpret_cast<std::uintptr_t>(x) % 16 == 0 &&
         reinterpret_cast<std::uintptr_t>(cov) % 16 == 0;
}

std::int64_t tiles_of(std::int64_t n) { return triangle_tiles(n, kTile); }

int blocks_per_sm(bool vec) {
  int blocks = 0;
  if (vec)
    LADDER_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, cov_register_blocked_kernel<true>, kThreads, 0));
  else
    LADDER_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &blocks, cov_register_blocked_kernel<false>, kThreads, 0));
  return std::max(blocks, 1);
}

std::int64_t rows_per_slice(std::int64_t m, std::int64_t n, std::int64_t split, int resident) {
  return slice_rows(m, tiles_of(n), split, resident, kK, kMinSliceRows, kMaxSplit);
}

// The split and the occupancy are decided here, before anything is timed. The pipeline's
// buffers come from cudaMalloc (256-byte aligned), so the float4 path is taken iff
// n % 4 == 0; the launch still checks the pointers.
Setup setup(const CovProblem& prob, const Params& p, const DeviceCaps& caps) {
  const bool vec = prob.n % 4 == 0;
  const int bps = blocks_per_sm(vec);
  const std::int64_t m = std::max<std::int64_t>(prob.m, 1);  // m >= 1 by the study
  const std::int64_t rows = rows_per_slice(m, prob.n, p.integer("split"), caps.sm_count * bps);
  const std::int64_t slices = ceil_div(m, rows);
  Setup out;
  out.facts = {{"tile", kTile},
               {"thread_tile", 64},
               {"k_tile", kK},
               {"threads_per_block", kThreads},
               {"smem_bytes_per_block", 2.0 * 2 * kK * kTile * sizeof(float)},
               {"blocks_per_sm", bps},
               {"tiles", double(tiles_of(prob.n))},
               {"split", double(slices)},
               {"float4_loads", vec ? 1.0 : 0.0}};
  out.enqueue = [rows, slices](const DeviceData& d, cudaStream_t stream) {
    const bool accumulate = slices > 1;
    if (accumulate)
      LADDER_CUDA(cudaMemsetAsync(d.cov, 0, sizeof(float) * std::size_t(d.n * d.n), stream));
    const dim3 grid(unsigned(tiles_of(d.n)), unsigned(slices));
    const float inv_m = static_cast<float>(1.0 / double(d.m));
    if (vectorisable(d.x, d.cov, d.n))
      cov_register_blocked_kernel<true>
          <<<grid, kThreads, 0, stream>>>(d.x, d.cov, d.m, int(d.n), rows, inv_m, accumulate);
    else
      cov_register_blocked_kernel<false>
          <<<grid, kThreads, 0, stream>>>(d.x, d.cov, d.m, int(d.n), rows, inv_m, accumulate);
    LADDER_CUDA_LAUNCH("cov_register_blocked_kernel");
  };
  return out;
}

const Registrar registrar{gpu_step(
    {.name = "register_blocked",
     .step = 6,
     .label = "register blocking",
     .change = "register blocking (8x8 outputs per thread), float4 loads, double-buffered "
               "shared tiles, lower-triangle tiles only",
     .params = {{"split", "0",
                 "slices of the m rows (split-K, atomically summed); 0 = fill whole waves",
                 ParamSpec::Kind::integer, 0, 65535}},
     .impl = setup})};

}  // namespace
}  // namespace ladder::covariance
