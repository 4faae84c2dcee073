// Step 8: a warp per pair, its rows in registers. For short strings a block per pair spends
// its time at barriers (a row of 1000 columns is a few cells per thread). Here one warp owns a
// pair: lane L holds columns L*W+1 .. L*W+W of the current row in registers (W = 1..32, so B
// up to 1024), rows go one at a time (row_scan.cuh) with the left-to-right carry passed by
// shuffles, and the linear-memory saved rows (one per symbol, plus a spare being filled and a
// row of zeros) sit in shared memory, as 16-bit values when every distance fits. The swap's
// look-back is one shared load; per column, a register keeps where its symbol's saved row
// starts and the cost terms of its row, updated only when the symbol recurs in A. No barrier
// but __syncwarp, no global memory but the strings.
#include <climits>

#include "row_scan.cuh"
#include "warp_setup.cuh"

namespace ladder::eed {
namespace {

// Shared memory per warp: alphabet + 2 rows of Store (saved rows, the spare, a zero row) and
// 32 x alphabet ints (where each symbol last occurs in B before each lane's columns) and
// alphabet ints (which row holds each symbol's saved row).
// Entry p of a saved row (p = column + 1; entry 0 stands for column -1 and stays 0) is stored
// at p + p / W: a gap after each lane's W columns, so the 32 lanes' stores of one step fall in
// different banks instead of W entries apart.
__host__ __device__ constexpr int row_stride(int W) { return 32 * W + 35; }

template <class Store>
__host__ __device__ std::size_t warp_bytes(int W, int S) {
  const std::size_t rows = std::size_t(S + 2) * std::size_t(row_stride(W)) * sizeof(Store);
  return ceil_div(rows, 16) * 16 + 4 * std::size_t(33 * S);
}

template <int W, class Store>
__global__ void warp_kernel(Pairs v, int warps_per_block) {
  extern __shared__ __align__(16) unsigned char smem[];
  const int S = v.alphabet, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int stride = row_stride(W);
  unsigned char* mine = smem + std::size_t(warp) * warp_bytes<Store>(W, S);
  Store* rows = reinterpret_cast<Store*>(mine);
  int* before =
      reinterpret_cast<int*>(mine + ceil_div(std::size_t(S + 2) * stride * sizeof(Store), 16) * 16);
  int* saved = before + 32 * S;
  const int zero_row = S + 1;
  const Costs c = v.costs;
  for (int e = lane; e < (S + 2) * stride; e += 32) rows[e] = 0;
  __syncwarp();
  const std::int64_t warps = std::int64_t(gridDim.x) * warps_per_block;
  for (std::int64_t k = std::int64_t(blockIdx.x) * warps_per_block + warp; k < v.pairs; k += warps) {
    const int n = int(v.n(k)), m = int(v.m(k)), base = lane * W;
    const std::uint8_t *a = v.a(k), *b = v.b(k);
    int sym[W], h[W], cost[W], at[W];
    for (int s = 0; s < S; ++s) before[lane * S + s] = 0;
#pragma unroll
    for (int q = 0; q < W; ++q) {
      const int j = base + q + 1;
      sym[q] = j <= m ? b[j - 1] : -1;
      h[q] = j * c.ins;                 // row 0
      cost[q] = kNoSwap;                // j w_ins - (k + 1) w_del once symbol j occurs in A
      at[q] = zero_row * stride;        // where the saved row of b_j starts
      if (j <= m) before[lane * S + sym[q]] = j;
    }
    for (int s = lane; s < S; s += 32) saved[s] = -1;
    __syncwarp();
    for (int s = lane; s < S; s += 32) {
      int seen = 0;
      for (int t = 0; t < 32; ++t) {
        const int here = before[t * S + s];
        before[t * S + s] = seen;
        seen = max(seen, here);
      }
    }
    __syncwarp();
    int spare = 0, fresh = 1;
    for (int i = 1; i <= n; ++i) {
      const int x = a[i - 1];
      const int l = before[lane * S + x];
      int lp = l + l / W;  // where column l - 1 is stored
      int tail = l > 0 ? i * c.del + c.swap - (l + 1) * c.ins : kNoSwap;  // the row's and l's terms
      Store* fill = rows + spare * stride + base + lane;  // receives row i - 1
      int diag = __shfl_up_sync(kFullWarp, h[W - 1], 1);
      if (lane == 0) diag = (i - 1) * c.del, rows[spare * stride + 1 + 1 / W] = Store((i - 1) * c.del);
      int run = kNoSwap;
#pragma unroll
      for (int q = 0; q < W; ++q) {
        const int j = base + q + 1, up = h[q];
        const bool same = sym[q] == x;
        const int swap = int(rows[at[q] + lp]) + cost[q] + tail;
        run = eed_cell(diag, up, run, same, swap, c);
        fill[q + 2 + (q + 2) / W] = Store(up);  // entry j + 1 = base + q + 2
        diag = up;
        h[q] = run;
        if (same) lp = j + j / W, tail = i * c.del + c.swap - (j + 1) * c.ins;
      }
      const int from_left = warp_exclusive_min(run - (base + W) * c.ins);
      const int carry = min(i * c.del, from_left);
#pragma unroll
      for (int q = 0; q < W; ++q) {
        h[q] = min(h[q], carry + (base + q + 1) * c.ins);
        if (sym[q] == x) cost[q] = (base + q + 1) * c.ins - (i + 1) * c.del, at[q] = spare * stride;
      }
      const int old = saved[x];
      __syncwarp();
      if (lane == 0) saved[x] = spare;
      spare = old >= 0 ? old : fresh++;
      __syncwarp();
    }
    int result = n * c.del;  // m == 0
#pragma unroll
    for (int q = 0; q < W; ++q)
      if (base + q + 1 == m) result = h[q];
    result = __shfl_sync(kFullWarp, result, m > 0 ? (m - 1) / W : 0);
    if (lane == 0) v.out[k] = result;
    __syncwarp();
  }
}

bool fits_16(const EedProblem& p) {
  return double(p.max_a) * p.costs.del + double(p.max_b) * p.costs.ins +
             std::max(p.costs.sub, p.costs.swap) < 32767.0;
}

std::size_t per_warp(const EedProblem& p) {
  const int W = lane_columns(p.max_b);
  return fits_16(p) ? warp_bytes<std::int16_t>(W, p.alphabet())
                    : warp_bytes<std::int32_t>(W, p.alphabet());
}

template <class Store>
struct Rows {
  template <int W>
  static WarpKernel kernel() {
    return warp_kernel<W, Store>;
  }
};

template <class Store>
EedSetup setup_for(const EedProblem& p, const DeviceCaps& d) {
  const int W = lane_columns(p.max_b);
  const std::size_t one = warp_bytes<Store>(W, p.alphabet());
  const int warps = int(std::clamp<std::size_t>(d.smem_per_block_optin / one, 1, 4));
  return warp_setup(warp_kernel_for<Rows<Store>>(W), W, warps, one * std::size_t(warps),
                    sizeof(Store), p, d);
}

EedSetup setup(const EedProblem& p, const Params&, const DeviceCaps& d) {
  return fits_16(p) ? setup_for<std::int16_t>(p, d) : setup_for<std::int32_t>(p, d);
}

std::string limit(const EedProblem& p, const Params&, const DeviceCaps& d) {
  if (std::string why = lane_columns_reason(p); !why.empty()) return why;
  return shared_memory_reason(per_warp(p), "a warp's saved rows (one per symbol)", d);
}

const Registrar registrar{gpu_step(
    {.name = "warp_rows",
     .step = 8,
     .label = "warp per pair, rows in registers",
     .change = "a warp per pair with the row in registers and the saved rows in shared memory: "
               "shuffles and __syncwarp instead of block barriers",
     .impl = setup,
     .limit = limit})};

}  // namespace
}  // namespace ladder::eed
