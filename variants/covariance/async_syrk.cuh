// The lower-triangle product that steps 9 (TF32), 10 (3xTF32) and 11 (FP32) instantiate: one
// pipeline that feeds 128 x 128 tiles of C from shared memory, and a core per step that
// multiplies a k-tile there: mma.sync tensor cores (m16n8k8, TF32 inputs, FP32 accumulators;
// MmaCore) or FP32 FMAs on an 8 x 8 register tile per thread (FfmaCore). C = X^T X / m: the
// "A" operand is X^T (rows = features i, k = rows r of X) and the "B" operand is X (k = r,
// columns = features j), so both come from the same row-major X.
//
// A block owns a 128 x 128 tile of C on or below the diagonal. MmaCore: a warp owns 64 rows
// by 32 or 64 columns of it (4 x 4 or 4 x 8 mma tiles of 16 x 8; 8 or 4 warps a block).
// FfmaCore (256 threads): thread (ty, tx) of 16 x 16 owns rows 4 ty .. +3 and 64 + 4 ty .. +3
// by the same columns in tx, four 16-byte shared loads per row of X for 64 FMAs (step 6's).
// Only entries with i >= j are written (C[i][j], and C[j][i] too when i > j), so in a
// diagonal tile the MmaCore warps wholly above the diagonal skip their products, and the
// tile's two strips being the same, only one is copied. (A 256 x 128 tile of 16 warps, a
// quarter less L2 traffic, ran 15% slower: one block per SM, a 16-warp barrier per k-tile.)
// Each k-tile is 16 or 32 rows of X (`k_tile`): the tile's two column strips are copied into
// shared memory with cp.async, 16 bytes a copy (the pipeline pads X's rows to a multiple of 4
// floats for this, so every row starts 16-byte aligned whatever n is; zero-filled past the
// slice and past the padded row), 4 or 3 k-tiles in flight, so the copies of later k-tiles
// overlap the products of this one and one barrier per k-tile suffices. Shared rows are 136
// floats: the fragment reads (lane 4 g + t reads row t, column g) fall in 32 different banks.
// Step 9's X is rounded to TF32 (round to nearest) by the centring stage as it is written, so
// fragments go to the tensor cores as they are read. Step 10's X stays FP32 and each value is
// split as it is read: hi = x with its low 13 bits cleared, lo = x - hi (exact), a product
// taken as lo*hi + hi*lo + hi*hi; the dropped lo*lo and lo's own truncation are about 2^-21
// of it. The tensor cores' own FP32 additions are not rounded to nearest (they truncate),
// which over the ~25,000 k-steps of a long slice biases the sum by about 1e-3 of it,
// TF32-sized; so step 10 sums each k-step's three products on the tensor cores and adds them
// into the running sum with an ordinary FP32 add, which rounds.
//
// The m rows are split into slices (split-K) to fill whole waves; slices add their partial
// sums into a zeroed C with atomics.
#pragma once
#include <algorithm>
#include <cstdint>

#include "../../harness/shared_memory.cuh"
#include "gpu_step.cuh"
#include "outer_product.cuh"
#include "triangle_tiles.cuh"

namespace ladder::covariance::async {

constexpr int kTile = 128;        // C tile edge
constexpr int kLd = kTile + 8;    // shared row length: conflict-free fragment reads
constexpr int kMinSliceRows = 2048;
constexpr int kMaxSplit = 32;

// The k-tile depths compiled (rows of X per k-tile, the `k_tile` parameter) and what follows
// from one: k-tiles in flight (as many as two blocks per SM leave shared memory for), 16-byte
// copies of a strip a thread of a kThreads block issues per k-tile, and a block's shared
// memory.
using KTiles = CompiledSet<16, 32>;
template <int kK, int kThreads>
struct Depth {
  static constexpr int stages = kK == 16 ? 4 : 3;
  static constexpr int copies = kK * kTile / 4 / kThreads;
  static constexpr int stage_floats = 2 * kK * kLd;  // the i strip, then the j strip
  static constexpr std::size_t smem_bytes = std::size_t(stages) * stage_floats * sizeof(float);
};

// D = A B + D for one 16 x 8 tile, k = 8.
__device__ __forceinline__ void mma_tf32(float (&d)[4], const std::uint32_t (&a)[4],
                                         const std::uint32_t (&b)[2]) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
      "{%8,%9}, {%0,%1,%2,%3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// 16 bytes global -> shared (L2 only), or 16 zero bytes when !valid (nothing is read then).
__device__ __forceinline__ void copy16(float* dst, const float* src, bool valid) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
               "r"(valid ? 16 : 0));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int kPending>
__device__ __forceinline__ void wait_pending() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending));
}

// Where a thread's copies come from: float4 column tid % 32 of rows tid / 32 + h kThreads / 32
// of both strips; a warp copies one 512-byte row segment per copy. Pointers move kK rows a
// k-tile.
template <int kK, int kThreads>
struct Copier {
  static constexpr int kRows = kThreads / 32;  // rows a pass of the block covers
  const float* src_i;  // row r0 + tid / 32 of the i strip (X itself when the column is out)
  const float* src_j;
  std::int64_t step;   // kK rows
  std::int64_t left;   // rows of the slice from this thread's first row on
  int ld_pass;         // kRows rows
  bool ci, cj;         // the columns lie inside the padded row
  bool diagonal;
  int dst;             // offset in a stage

  __device__ Copier(const float* x, std::int64_t r0, std::int64_t r_end, int i0, int j0,
                    std::int64_t ld, int tid) {
    const int row = tid >> 5, col = 4 * (tid & 31);
    ci = i0 + col < ld;
    cj = j0 + col < ld;
    diagonal = i0 == j0;  // its one strip is copied once
    src_i = ci ? x + (r0 + row) * ld + i0 + col : x;
    src_j = cj ? x + (r0 + row) * ld + j0 + col : x;
    step = kK * ld;
    ld_pass = int(kRows * ld);
    left = r_end - r0 - row;
    dst = row * kLd + col;
  }
  // The next k-tile into `to`.
  __device__ __forceinline__ void copy(float* to) {
#pragma unroll
    for (int h = 0; h < Depth<kK, kThreads>::copies; ++h) {
      const bool in = left > kRows * h;
      copy16(to + dst + kRows * h * kLd, src_i + (ci ? h * ld_pass : 0), in && ci);
      if (!diagonal)
        copy16(to + kK * kLd + dst + kRows * h * kLd, src_j + (cj ? h * ld_pass : 0), in && cj);
    }
    if (ci) src_i += step;
    if (cj) src_j += step;
    left -= kK;
  }
};

// The operand halves of one fragment value: as it is (TF32 already), or hi and lo.
template <bool kSplit>
__device__ __forceinline__ void operand(float v, std::uint32_t& hi, std::uint32_t& lo) {
  hi = __float_as_uint(v);
  if (kSplit) {
    hi &= 0xffffe000u;
    lo = __float_as_uint(v - __uint_as_float(hi));
  }
}

// The tensor-core core: a warp owns 64 rows by 8 kNT columns, 4 x kNT mma tiles (kNT = 4:
// eight warps, 2 x 4, a block of 256 threads; kNT = 8: four warps, 2 x 2, 128 threads, which
// read 32 shared words per 32 mma instead of 48 at twice the registers). Fragments are read
// from shared memory as the PTX m16n8k8 .tf32 layout has them (A row g / g + 8, column
// t / t + 4; B row t / t + 4, column g; here A[i][k] = sa[k][i] and B[k][j] = sb[k][j]).
template <bool kSplit, int kNT>
struct MmaCore {
  static constexpr bool split = kSplit;
  static constexpr int warps_j = kTile / (8 * kNT), threads = 64 * warps_j;
  static constexpr int min_blocks = 2;
  float acc[4][kNT][4];
  int g, t, wi, wj;
  bool active;  // false: every row of the warp lies above its columns' diagonal

  __device__ MmaCore(int tid, int i0, int j0) {
    const int lane = tid & 31, warp = tid >> 5;
    g = lane >> 2, t = lane & 3;
    wi = (warp / warps_j) * 64, wj = (warp % warps_j) * 8 * kNT;
    active = i0 + wi + 63 >= j0 + wj;
#pragma unroll
    for (int a = 0; a < 4; ++a)
#pragma unroll
      for (int b = 0; b < kNT; ++b)
#pragma unroll
        for (int c = 0; c < 4; ++c) acc[a][b][c] = 0.f;
  }

  template <int kK>
  __device__ __forceinline__ void k_tile(const float* sa, const float* sb) {
#pragma unroll
    for (int kk = 0; kk < kK; kk += 8) {
      const float* ra = sa + (kk + t) * kLd + wi + g;
      const float* rb = sb + (kk + t) * kLd + wj + g;
      std::uint32_t bh[kNT][2], bl[kNT][2];
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt) {
        operand<kSplit>(rb[8 * nt], bh[nt][0], bl[nt][0]);
        operand<kSplit>(rb[4 * kLd + 8 * nt], bh[nt][1], bl[nt][1]);
      }
#pragma unroll
      for (int mt = 0; mt < 4; ++mt) {
        std::uint32_t ah[4], al[4];
        operand<kSplit>(ra[16 * mt], ah[0], al[0]);
        operand<kSplit>(ra[16 * mt + 8], ah[1], al[1]);
        operand<kSplit>(ra[4 * kLd + 16 * mt], ah[2], al[2]);
        operand<kSplit>(ra[4 * kLd + 16 * mt + 8], ah[3], al[3]);
#pragma unroll
        for (int nt = 0; nt < kNT; ++nt) {
          if (kSplit) {  // small terms first, then one rounded add into the running sum
            float part[4] = {0.f, 0.f, 0.f, 0.f};
            mma_tf32(part, al, bh[nt]);
            mma_tf32(part, ah, bl[nt]);
            mma_tf32(part, ah, bh[nt]);
#pragma unroll
            for (int c = 0; c < 4; ++c) acc[mt][nt][c] += part[c];
          } else {
            mma_tf32(acc[mt][nt], ah, bh[nt]);
          }
        }
      }
    }
  }

  // Accumulator c of tile (mt, nt): row g (c < 2) or g + 8, column 2 t + c % 2.
  __device__ void store(float* cov, int n, int i0, int j0, float inv_m, bool accumulate) {
#pragma unroll
    for (int mt = 0; mt < 4; ++mt)
#pragma unroll
      for (int nt = 0; nt < kNT; ++nt)
#pragma unroll
        for (int c = 0; c < 4; ++c) {
          const int i = i0 + wi + 16 * mt + g + (c >= 2 ? 8 : 0);
          const int j = j0 + wj + 8 * nt + 2 * t + (c & 1);
          put(cov, n, i, j, acc[mt][nt][c] * inv_m, accumulate);
        }
  }
};

// The FP32 core: step 6's 8 x 8 outer product per row of X (outer_product.cuh).
struct FfmaCore {
  static constexpr bool split = false;
  static constexpr int threads = 256, min_blocks = 2;
  float acc[8][8];
  int ty, tx;
  bool active = true;

  __device__ FfmaCore(int tid, int, int) : ty(tid >> 4), tx(tid & 15) {
#pragma unroll
    for (int a = 0; a < 8; ++a)
#pragma unroll
      for (int b = 0; b < 8; ++b) acc[a][b] = 0.f;
  }

  template <int kK>
  __device__ __forceinline__ void k_tile(const float* sa, const float* sb) {
#pragma unroll
    for (int k = 0; k < kK; ++k) outer_product_8x8(acc, sa + k * kLd, sb + k * kLd, ty, tx);
  }

  // acc[r][c]: row 64 (r / 4) + 4 ty + r % 4, column 64 (c / 4) + 4 tx + c % 4.
  __device__ void store(float* cov, int n, int i0, int j0, float inv_m, bool accumulate) {
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int c = 0; c < 8; ++c)
        put(cov, n, i0 + 64 * (r / 4) + 4 * ty + r % 4, j0 + 64 * (c / 4) + 4 * tx + c % 4,
            acc[r][c] * inv_m, accumulate);
  }
};

// blockIdx.x: a lower-triangle tile; blockIdx.y: a slice of rows_per_slice rows of X.
template <class Core, int kK>
__global__ void __launch_bounds__(Core::threads, Core::min_blocks)
    syrk_async_kernel(const float* __restrict__ x, float* __restrict__ cov, std::int64_t m, int n,
                      std::int64_t ld, std::int64_t rows_per_slice, float inv_m, bool accumulate) {
  extern __shared__ __align__(16) float smem[];
  using D = Depth<kK, Core::threads>;
  constexpr int kStages = D::stages, kStageFloats = D::stage_floats;
  int ti, tj;
  triangle_tile(blockIdx.x, ti, tj);
  const int i0 = ti * kTile, j0 = tj * kTile;
  const std::int64_t r_begin = std::int64_t(blockIdx.y) * rows_per_slice;
  const std::int64_t r_end = m < r_begin + rows_per_slice ? m : r_begin + rows_per_slice;
  const int k_tiles = int(ceil_div(r_end - r_begin, kK));
  const int tid = threadIdx.x;
  Core core(tid, i0, j0);

  // Prologue: k-tiles 0 .. kStages - 2 in flight (a group per k-tile, empty past the end).
  Copier<kK, Core::threads> copier(x, r_begin, r_end, i0, j0, ld, tid);
#pragma unroll
  for (int s = 0; s < kStages - 1; ++s) {
    if (s < k_tiles) copier.copy(smem + s * kStageFloats);
    commit();
  }

  for (int kt = 0; kt < k_tiles; ++kt) {
    wait_pending<kStages - 2>();  // this thread's copies of k-tile kt have landed
    __syncthreads();  // everyone's have, and everyone is done with k-tile kt - 1's stage
    const int next = kt + kStages - 1;  // into the stage k-tile kt - 1 used
    if (next < k_tiles) copier.copy(smem + (next % kStages) * kStageFloats);
    commit();
    const float* sa = smem + (kt % kStages) * kStageFloats;
    const float* sb = ti == tj ? sa : sa + kK * kLd;
    if (core.active) core.template k_tile<kK>(sa, sb);
  }
  wait_pending<0>();  // no copy outlives the block (the trailing groups are empty)
  if (core.active) core.store(cov, n, i0, j0, inv_m, accumulate);
}

template <class Core, int kK>
int blocks_per_sm() {
  int blocks = 0;
  LADDER_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &blocks, syrk_async_kernel<Core, kK>, Core::threads, Depth<kK, Core::threads>::smem_bytes));
  return std::max(blocks, 1);
}

// The step's set-up: shared-memory opt-in, occupancy and split decided before anything is timed.
template <class Core, int kK>
Setup setup_for(const CovProblem& prob, const Params& p, const DeviceCaps& caps) {
  using D = Depth<kK, Core::threads>;
  constexpr std::size_t smem = D::smem_bytes;
  allow_shared_memory(syrk_async_kernel<Core, kK>, smem);
  const int bps = blocks_per_sm<Core, kK>();
  const std::int64_t m = std::max<std::int64_t>(prob.m, 1);  // m >= 1 by the study
  const std::int64_t tiles = triangle_tiles(prob.n, kTile);
  const std::int64_t rows = slice_rows(m, tiles, p.integer("split"), caps.sm_count * bps, kK,
                                       kMinSliceRows, kMaxSplit);
  const std::int64_t slices = ceil_div(m, rows);
  Setup out;
  out.facts = {{"tile", kTile},
               {"k_tile", kK},
               {"stages", D::stages},
               {"threads_per_block", Core::threads},
               {"smem_bytes_per_block", double(smem)},
               {"blocks_per_sm", bps},
               {"tiles", double(tiles)},
               {"split", double(slices)},
               {"products_per_term", Core::split ? 3.0 : 1.0}};
  out.enqueue = [rows, slices, tiles](const DeviceData& d, cudaStream_t stream) {
    const bool accumulate = slices > 1;
    if (accumulate)
      LADDER_CUDA(cudaMemsetAsync(d.cov, 0, sizeof(float) * std::size_t(d.n * d.n), stream));
    const float inv_m = static_cast<float>(1.0 / double(d.m));
    const dim3 grid{unsigned(tiles), unsigned(slices)};
    syrk_async_kernel<Core, kK><<<grid, Core::threads, smem, stream>>>(
        d.x, d.cov, d.m, int(d.n), d.ld, rows, inv_m, accumulate);
    LADDER_CUDA_LAUNCH("syrk_async_kernel");
  };
  return out;
}

template <class Core>
Setup setup(const CovProblem& prob, const Params& p, const DeviceCaps& caps) {
  Setup out;
  KTiles::exactly(p.integer("k_tile"),
                  [&](auto k) { out = setup_for<Core, decltype(k)::value>(prob, p, caps); },
                  "k_tile");
  return out;
}

// The tensor-core steps also choose the warp tile's width (the `warp_columns` parameter).
using WarpColumns = CompiledSet<32, 64>;
template <bool kSplit>
Setup mma_setup(const CovProblem& prob, const Params& p, const DeviceCaps& caps) {
  Setup out;
  WarpColumns::exactly(p.integer("warp_columns"), [&](auto w) {
    out = setup<MmaCore<kSplit, decltype(w)::value / 8>>(prob, p, caps);
  }, "warp_columns");
  return out;
}

// Shared memory and the tile count per grid dimension.
inline std::string limit(const CovProblem& prob, const Params& p, const DeviceCaps& caps) {
  std::string why;
  KTiles::exactly(p.integer("k_tile"), [&](auto k) {
    why = shared_memory_reason(Depth<decltype(k)::value, 256>::smem_bytes, "the k-tile stages",
                               caps);
  }, "k_tile");
  if (why.empty() && triangle_tiles(prob.n, kTile) > 2147483647)
    why = "more than 2^31 - 1 tiles of the triangle";
  return why;
}

inline std::vector<ParamSpec> params(const char* k_tile) {
  return {{"split", "0", "slices of the m rows (split-K, atomically summed); 0 = fill whole waves",
           ParamSpec::Kind::integer, 0, 65535},
          {"k_tile", k_tile, "rows of X per k-tile (" + KTiles::text() + ")",
           ParamSpec::Kind::integer, 16, 32, KTiles::choices()}};
}

inline std::vector<ParamSpec> mma_params(const char* k_tile, const char* warp_columns) {
  auto out = params(k_tile);
  out.push_back({"warp_columns", warp_columns,
                 "columns of C per warp (" + WarpColumns::text() + "; 64: 4 warps a block)",
                 ParamSpec::Kind::integer, 32, 64, WarpColumns::choices()});
  return out;
}

}  // namespace ladder::covariance::async
