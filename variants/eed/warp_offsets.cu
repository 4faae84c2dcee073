// Step 9: step 8 in offset form. A warp still owns a pair and a lane W columns of the row, but
// the row is kept as G[i][j] = H[i][j] - i w_del - j w_ins. In that form the deletion and the
// insertion add nothing (G[i-1][j] and G[i][j-1] as they are), the diagonal adds one of two
// per-row constants, the swap's look-back adds one constant for the whole run
// (w_swap - 2 w_del - 2 w_ins, whatever the distance looked back), and the left-to-right carry
// is a plain minimum, since G never grows along a row. The first row and column are zeros, and
// "no swap" is a row entry that is large, so the per-column cost terms of step 8 disappear.
// Which columns hold the row's symbol comes from a per-lane bit mask, and the selects that
// follow a match are logic ops on a sign-filled copy of it (selects on compares would keep 32
// predicates live). The saved rows are laid out so that every lane reads and writes its own
// bank, and the row's symbol is loaded two rows ahead. Each lane's columns go as four
// independent chains of eight, joined by the carry, so no cell waits on the one to its left.
// The rows no symbol has saved yet are one read-only row for the whole block.
#include <climits>

#include "row_scan.cuh"
#include "warp_setup.cuh"

namespace ladder::eed {
namespace {

constexpr int kChain = 8;  // columns per independent chain within a lane

template <class Store>
struct Big;  // the entry that means "no swap": above any G (all are <= 0) less the constant
template <>
struct Big<std::int16_t> {
  static constexpr int value = 32767;
};
template <>
struct Big<std::int32_t> {
  static constexpr int value = kNoSwap;
};

// A saved row, laid out so that the 32 lanes touching their own columns always hit 32
// different banks, whichever symbol's row each reads: column base + t + 1 of lane L is at
// byte (t / P) * 128 + 4 L + (t % P) * sizeof(Store), P = 4 / sizeof(Store) columns per word,
// and rows start on 128-byte boundaries. After the 32 W columns, a 128-byte tail holds
// column 0 (G = 0) and the entry for "no earlier column holds the symbol" (Big).
template <class Store>
struct Layout {
  static constexpr int kPer = 4 / int(sizeof(Store));
  __host__ __device__ static constexpr int row_bytes(int W) {
    return ceil_div(W, kPer) * 128 + 128;
  }
  __host__ __device__ static constexpr int column_zero(int W) { return row_bytes(W) - 128; }
  __host__ __device__ static constexpr int none(int W) { return row_bytes(W) - 124; }
  // Lane `owner`'s column t, from the start of the row.
  __host__ __device__ static constexpr int at(int owner, int t) {
    return t / kPer * 128 + 4 * owner + t % kPer * int(sizeof(Store));
  }
  // Column c (-1 .. 32 W) with columns of W per lane.
  __device__ static int column(int c, int W) {
    if (c < 0) return none(W);
    if (c == 0) return column_zero(W);
    return at((c - 1) / W, (c - 1) % W);
  }
};

// Per warp: alphabet + 1 rows (the saved ones and the spare being filled), where each symbol's
// saved row starts (alphabet ints), for each symbol and lane the bit mask of the lane's columns
// that hold the symbol (alphabet x 32 words), and for each symbol and lane where the symbol
// last occurs in B before the lane's columns (alphabet x 32 shorts). Lane-minor, so a row's
// look-ups by the 32 lanes fall in different banks.
template <class Store>
__host__ __device__ int warp_bytes(int W, int S) {
  return ceil_div((S + 1) * Layout<Store>::row_bytes(W) + 4 * S + 4 * 32 * S + 2 * 32 * S, 128) *
         128;
}
// The block's one "never saved" row (Big throughout), then its warps.
template <class Store>
std::size_t block_bytes(int W, int S, int warps) {
  return std::size_t(Layout<Store>::row_bytes(W)) +
         std::size_t(warps) * std::size_t(warp_bytes<Store>(W, S));
}

template <class Store>
__device__ __forceinline__ int look(const unsigned char* smem, int byte) {
  return int(*reinterpret_cast<const Store*>(smem + byte));
}

// `yes` where `all` is all ones, else `no`: one three-input logic op. Selects on a compare
// would keep 32 predicates live across the row, more than the hardware has.
__device__ __forceinline__ int pick(int all, int yes, int no) { return (all & yes) | (~all & no); }

template <int W, class Store>
__global__ void offset_kernel(Pairs v, int warps_per_block) {
  extern __shared__ __align__(128) unsigned char smem[];
  using L = Layout<Store>;
  constexpr int kSize = int(sizeof(Store)), kBig = Big<Store>::value, kRow = L::row_bytes(W);
  constexpr int kC = W < kChain ? W : kChain;
  const int S = v.alphabet, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int mine = kRow + warp * warp_bytes<Store>(W, S);  // this warp's first row
  int* saved = reinterpret_cast<int*>(smem + mine + (S + 1) * kRow);
  unsigned* masks = reinterpret_cast<unsigned*>(saved + S);
  std::int16_t* before = reinterpret_cast<std::int16_t*>(masks + 32 * S);
  const Costs c = v.costs;
  const int match = -(c.del + c.ins), mismatch = c.sub - c.del - c.ins;
  const int swap_cost = c.swap - 2 * c.del - 2 * c.ins;
  // Where the look-back goes after a match in this lane's first column: column base, the last
  // of the lane to the left (column 0 for lane 0); from this lane's offset 4 lane.
  const int first_back =
      lane == 0 ? L::column_zero(W) : L::at(lane - 1, W - 1) - 4 * lane;

  // The block's "never saved" row is Big throughout; every warp row holds 0 for column 0 and
  // Big for "none"; their columns are written before they are read.
  Store* big = reinterpret_cast<Store*>(smem);
  for (int e = threadIdx.x; e < kRow / kSize; e += blockDim.x) big[e] = Store(kBig);
  for (int r = lane; r < S + 1; r += 32) {
    *reinterpret_cast<Store*>(smem + mine + r * kRow + L::column_zero(W)) = 0;
    *reinterpret_cast<Store*>(smem + mine + r * kRow + L::none(W)) = Store(kBig);
  }
  __syncthreads();

  const std::int64_t warps = std::int64_t(gridDim.x) * warps_per_block;
  for (std::int64_t k = std::int64_t(blockIdx.x) * warps_per_block + warp; k < v.pairs; k += warps) {
    const int n = int(v.n(k)), m = int(v.m(k)), base = lane * W;
    const std::uint8_t *a = v.a(k), *b = v.b(k);
    int h[W], at[W];
    for (int s = 0; s < S; ++s) before[s * 32 + lane] = 0, masks[s * 32 + lane] = 0;
#pragma unroll
    for (int q = 0; q < W; ++q) {
      const int j = base + q + 1;
      h[q] = 0;          // G[0][j]
      at[q] = 4 * lane;  // the never-saved row
      if (j <= m) {
        const int s = b[j - 1];
        before[s * 32 + lane] = std::int16_t(j);
        masks[s * 32 + lane] |= 0x80000000u >> q;
      }
    }
    for (int s = lane; s < S; s += 32) saved[s] = 0;
    __syncwarp();
    for (int s = lane; s < S; s += 32) {
      int seen = 0;
      for (int t = 0; t < 32; ++t) {
        const int here = before[s * 32 + t];
        before[s * 32 + t] = std::int16_t(seen);
        seen = max(seen, here);
      }
    }
    __syncwarp();
    int spare = mine, fresh = 1;
    // The row's symbol, the next one and the one after are loaded ahead of their rows.
    int x = n > 0 ? a[0] : 0, x_next = n > 1 ? a[1] : 0;
    for (int i = 1; i <= n; ++i) {
      const int x_after = i + 1 < n ? a[i + 1] : 0;
      const int l = before[x * 32 + lane];
      const unsigned mask = masks[x * 32 + lane];  // bit 31 - q: column base + q + 1 holds x
      int lp = L::column(l - 1, W) - 4 * lane;     // column l - 1, from this lane's offset
      const int to = spare + 4 * lane;             // this lane's part of the spare row
      Store* fill = reinterpret_cast<Store*>(smem + to);
      int diag = __shfl_up_sync(kFullWarp, h[W - 1], 1);
      if (lane == 0) diag = 0;  // G[i-1][0]
      int run = 0;
#pragma unroll
      for (int q = 0; q < W; ++q) {
        const int up = h[q];
        const int same = int(mask << q) >> 31;  // all ones where column j holds x
        const int swap = look<Store>(smem, at[q] + lp) + swap_cost;
        const int cell = min(min(diag + pick(same, match, mismatch), up), swap);
        run = q % kC == 0 ? cell : min(cell, run);
        fill[L::at(0, q) / kSize] = Store(up);  // row i - 1
        diag = up;
        h[q] = run;
        // From here on l = j: the look-back reads column j - 1.
        lp = pick(same, q == 0 ? first_back : L::at(0, q - 1), lp);
        at[q] = pick(same, to, at[q]);
      }
      // Each chain's last value is its minimum; the carry into a chain is the minimum of every
      // chain before it, this lane's and the lanes' to the left.
      int local = INT_MAX;
#pragma unroll
      for (int q = kC - 1; q < W; q += kC) local = min(local, h[q]);
      int carry = warp_exclusive_min(local);
#pragma unroll
      for (int q = 0; q < W; ++q) {
        if (q % kC == 0 && q > 0) carry = min(carry, h[q - 1]);
        h[q] = min(h[q], carry);
      }
      const int old = saved[x];
      __syncwarp();
      if (lane == 0) saved[x] = spare;
      spare = old != 0 ? old : mine + kRow * fresh++;
      __syncwarp();
      x = x_next, x_next = x_after;
    }
    int result = 0;  // G[n][0] when m == 0
#pragma unroll
    for (int q = 0; q < W; ++q)
      if (base + q + 1 == m) result = h[q];
    result = __shfl_sync(kFullWarp, result, m > 0 ? (m - 1) / W : 0);
    if (lane == 0) v.out[k] = result + n * c.del + m * c.ins;
    __syncwarp();
  }
}

// 16-bit rows hold every G (>= -(n w_del + m w_ins)) and Big less the swap's constant.
bool fits_16(const EedProblem& p) {
  return double(p.max_a + 2) * p.costs.del + double(p.max_b + 2) * p.costs.ins < 32767.0;
}

template <class Store>
struct Offsets {
  template <int W>
  static WarpKernel kernel() {
    return offset_kernel<W, Store>;
  }
};

// As many warps per block as fit the shared memory (up to 16), so the block's one Big row is
// shared the most, but no more than spreads the pairs over every multiprocessor.
template <class Store>
int warps_for(const EedProblem& p, const DeviceCaps& d) {
  const int W = lane_columns(p.max_b);
  int warps = int(std::clamp<std::int64_t>(ceil_div(p.pairs(), d.sm_count), 1, 16));
  while (warps > 1 && block_bytes<Store>(W, p.alphabet(), warps) > d.smem_per_block_optin) --warps;
  return warps;
}

template <class Store>
EedSetup setup_for(const EedProblem& p, const DeviceCaps& d) {
  const int W = lane_columns(p.max_b), warps = warps_for<Store>(p, d);
  return warp_setup(warp_kernel_for<Offsets<Store>>(W), W, warps,
                    block_bytes<Store>(W, p.alphabet(), warps), sizeof(Store), p, d);
}

EedSetup setup(const EedProblem& p, const Params&, const DeviceCaps& d) {
  return fits_16(p) ? setup_for<std::int16_t>(p, d) : setup_for<std::int32_t>(p, d);
}

std::string limit(const EedProblem& p, const Params&, const DeviceCaps& d) {
  if (std::string why = lane_columns_reason(p); !why.empty()) return why;
  const int W = lane_columns(p.max_b);
  const std::size_t one = fits_16(p) ? block_bytes<std::int16_t>(W, p.alphabet(), 1)
                                     : block_bytes<std::int32_t>(W, p.alphabet(), 1);
  return shared_memory_reason(one, "a warp's saved rows (one per symbol)", d);
}

const Registrar registrar{gpu_step(
    {.name = "warp_offsets",
     .step = 9,
     .label = "warp per pair, rows in offset form",
     .change = "the row kept as H - i w_del - j w_ins: deletions, insertions and the carry need "
               "no adds, the swap one constant; four independent chains per lane",
     .impl = setup,
     .limit = limit})};

}  // namespace
}  // namespace ladder::eed
