// Step 10: step 9 with two columns in one 32-bit word. Step 9 spends most of its 15
// instructions a cell on 32-bit adds and minima of values that fit 16 bits, and the integer
// pipe is what limits it. Here a lane's row is W / 2 words, columns 2p and 2p + 1 of its part in
// the low and high halves, each half G + 0x8000 (offset binary, so an unsigned 16-bit
// minimum orders them as signed values). One three-input minimum of Hopper's 16x2 DPX family
// (`__vimin3_u16x2`) takes the diagonal, the deletion and the swap of two cells at once; the
// diagonal's cost and the swap's constant are plain 32-bit adds, which leave the halves apart
// because every value stays inside its half (the bound is checked before the run); a saved
// row is stored a word (two columns) at a time. The look-backs stay one per cell: two cells of
// a word may look into different rows. The running minimum along the row goes as two chains
// per word (even and odd columns), and the carry pass joins them: column 2p takes the odd
// chain's value at 2p - 1, column 2p + 1 the even one's at 2p. The match masks are kept so that
// a shift puts column 2p's bit at bit 15 and column 2p + 1's at bit 31, where one byte permute
// spreads each to its half.
#include <climits>
#include <cmath>

#include "offset_rows.cuh"
#include "row_scan.cuh"
#include "warp_setup.cuh"

namespace ladder::eed {
namespace {

using L = Layout<std::int16_t>;
constexpr int kChainWords = 4;       // words per independent chain within a lane (8 columns)
constexpr unsigned kZero = 0x8000;   // G = 0 in a half
constexpr unsigned kBoth = 0x10001;  // a 16-bit value times this: the value in both halves

// Byte permute in the hardware's default mode, where a selector nibble of 8 or more repeats the
// sign bit of the byte it names (__byte_perm keeps only the byte's number).
__device__ __forceinline__ unsigned prmt(unsigned a, unsigned b, unsigned selector) {
  unsigned r;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(selector));
  return r;
}
// Columns 2p - 1 (the high half of `before`) and 2p (the low half of `word`): the word of the
// columns one to the left.
__device__ __forceinline__ unsigned shifted(unsigned before, unsigned word) {
  return prmt(before, word, 0x5432);
}
__device__ __forceinline__ unsigned min3(unsigned a, unsigned b, unsigned c) {
  return __vimin3_u16x2(a, b, c);
}
__device__ __forceinline__ unsigned load16(const unsigned char* smem, int byte) {
  return *reinterpret_cast<const std::uint16_t*>(smem + byte);
}

// The mask bit of a lane's column q: column 2p at bit 15 - p, column 2p + 1 at bit 31 - p.
__device__ __forceinline__ unsigned packed_bit(int q) { return 1u << ((q % 2 ? 31 : 15) - q / 2); }

template <int W>
__global__ void packed_kernel(Pairs v, int warps_per_block) {
  static_assert(W % 2 == 0, "a lane holds whole words");
  extern __shared__ __align__(128) unsigned char smem[];
  constexpr int P = W / 2, kRow = L::row_bytes(W);
  constexpr int kC = P < kChainWords ? P : kChainWords;
  const int S = v.alphabet, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int mine = kRow + warp * warp_bytes<std::int16_t>(W, S);  // this warp's first row
  WarpTables<std::int16_t> t(smem, mine, W, S);
  const Costs c = v.costs;
  const int swap_cost = c.swap - 2 * c.del - 2 * c.ins;
  // Both halves: the diagonal's cost on a match (subtracted), the extra on a mismatch, and
  // the swap's constant as an add and a subtraction of values >= 0 (one of them zero), so
  // that no half carries or borrows into the other.
  const unsigned match2 = unsigned(c.del + c.ins) * kBoth, sub2 = unsigned(c.sub) * kBoth;
  const unsigned swap_up = unsigned(max(swap_cost, 0)) * kBoth;
  const unsigned swap_down = unsigned(max(-swap_cost, 0)) * kBoth;
  // "No swap": at least the row above (all G <= 0) once the constant is added, and no more
  // than a half holds.
  const unsigned big = 0xffffu - unsigned(max(swap_cost, 0));
  const int first_back = lane == 0 ? L::column_zero(W) : L::at(lane - 1, W - 1) - 4 * lane;

  std::uint16_t* never = reinterpret_cast<std::uint16_t*>(smem);
  for (int e = threadIdx.x; e < kRow / 2; e += blockDim.x) never[e] = std::uint16_t(big);
  for (int r = lane; r < S + 1; r += 32) {
    *reinterpret_cast<std::uint16_t*>(smem + mine + r * kRow + L::column_zero(W)) = kZero;
    *reinterpret_cast<std::uint16_t*>(smem + mine + r * kRow + L::none(W)) = std::uint16_t(big);
  }
  __syncthreads();

  const std::int64_t warps = std::int64_t(gridDim.x) * warps_per_block;
  for (std::int64_t k = std::int64_t(blockIdx.x) * warps_per_block + warp; k < v.pairs; k += warps) {
    const int n = int(v.n(k)), m = int(v.m(k)), base = lane * W;
    const std::uint8_t *a = v.a(k), *b = v.b(k);
    unsigned h[P];
    int at[W];
#pragma unroll
    for (int p = 0; p < P; ++p) h[p] = kZero * kBoth;  // G[0][j]
#pragma unroll
    for (int q = 0; q < W; ++q) at[q] = 4 * lane;  // the never-saved row
    t.template fill<W>(b, m, S, packed_bit);
    int spare = mine, fresh = 1;
    int x = n > 0 ? a[0] : 0, x_next = n > 1 ? a[1] : 0;
    for (int i = 1; i <= n; ++i) {
      const int x_after = i + 1 < n ? a[i + 1] : 0;
      const int l = t.before[x * 32 + lane];
      const unsigned mask = t.masks[x * 32 + lane];
      int lp = L::column(l - 1, W) - 4 * lane;  // column l - 1, from this lane's offset
      const int to = spare + 4 * lane;          // this lane's part of the spare row
      unsigned* fill = reinterpret_cast<unsigned*>(smem + to);
      // G[i-1][base] in the high half (column 0 for lane 0).
      unsigned left = __shfl_up_sync(kFullWarp, h[P - 1], 1);
      if (lane == 0) left = kZero << 16;
      unsigned run = 0;
#pragma unroll
      for (int p = 0; p < P; ++p) {
        const unsigned up = h[p];
        const unsigned bits = mask << p;  // column 2p's bit at 15, column 2p + 1's at 31
        const int same_a = int(prmt(bits, 0, 0x9999)), same_b = int(prmt(bits, 0, 0xbbbb));
        const unsigned same = prmt(bits, 0, 0xbb99);
        const unsigned diag = shifted(left, up) + (~same & sub2) - match2;
        const int q = 2 * p;
        const unsigned look_a = load16(smem, at[q] + lp);
        lp = pick(same_a, q == 0 ? first_back : L::at(0, q - 1), lp);
        const unsigned look_b = load16(smem, at[q + 1] + lp);
        lp = pick(same_b, L::at(0, q), lp);
        at[q] = pick(same_a, to, at[q]);
        at[q + 1] = pick(same_b, to, at[q + 1]);
        const unsigned swap = prmt(look_a, look_b, 0x5410) + swap_up - swap_down;
        const unsigned cell = min3(diag, up, swap);
        run = p % kC == 0 ? cell : min3(cell, run, run);
        fill[L::at(0, q) / 4] = up;  // row i - 1
        left = up;
        h[p] = run;
      }
      // Each chain's last word holds the minima of its even and odd columns; the carry into a
      // chain is the minimum of every chain before it, this lane's and the lanes' to the left.
      int local = INT_MAX;
#pragma unroll
      for (int p = kC - 1; p < P; p += kC) local = min(local, int(min3(h[p], h[p] >> 16, h[p] >> 16) & 0xffffu));
      int carry = warp_exclusive_min(local);
      unsigned carries[P / kC];
#pragma unroll
      for (int g = 0; g < P / kC; ++g) {
        if (g > 0) carry = min(carry, int(min3(h[g * kC - 1], h[g * kC - 1] >> 16, h[g * kC - 1] >> 16) & 0xffffu));
        carries[g] = unsigned(min(carry, 0xffff)) * kBoth;
      }
      // From the right, so that each word still sees its left neighbour's chain values.
#pragma unroll
      for (int p = P - 1; p >= 0; --p)
        h[p] = min3(h[p], shifted(p > 0 ? h[p - 1] : 0xffffffffu, h[p]), carries[p / kC]);
      t.rotate(x, spare, fresh, mine, kRow);
      x = x_next, x_next = x_after;
    }
    int result = 0;  // G[n][0] when m == 0
#pragma unroll
    for (int q = 0; q < W; ++q)
      if (base + q + 1 == m) result = int((h[q / 2] >> (16 * (q % 2))) & 0xffffu) - int(kZero);
    result = __shfl_sync(kFullWarp, result, m > 0 ? (m - 1) / W : 0);
    if (lane == 0) v.out[k] = result + n * c.del + m * c.ins;
    __syncwarp();
  }
}

// Every value a half holds, G + 0x8000 with -(n w_del + m w_ins) <= G <= 0 and the terms added
// to it, stays within 0 .. 0xffff, so the 32-bit adds never carry from one half to the other.
std::string packed_reason(const EedProblem& p) {
  const Costs& c = p.costs;
  const double reach = double(p.max_a + 2) * c.del + double(p.max_b + 2) * c.ins + c.del + c.ins +
                       std::abs(double(c.swap) - 2.0 * c.del - 2.0 * c.ins) + c.sub;
  if (reach < 32767.0) return "";
  return "distances too large for 16-bit halves (lengths x costs reach " +
         std::to_string(std::int64_t(reach)) + " of 32767; warp_offsets takes them)";
}

struct Packed {
  template <int W>
  static WarpKernel kernel() {
    return packed_kernel<(W < 2 ? 2 : W)>;
  }
};

// A lane holds whole words: at least two columns.
int packed_columns(const EedProblem& p) { return std::max(2, lane_columns(p.max_b)); }

int warps_for(const EedProblem& p, const DeviceCaps& d) {
  const int W = packed_columns(p);
  int warps = int(std::clamp<std::int64_t>(ceil_div(p.pairs(), d.sm_count), 1, 16));
  while (warps > 1 && block_bytes<std::int16_t>(W, p.alphabet(), warps) > d.smem_per_block_optin)
    --warps;
  return warps;
}

EedSetup setup(const EedProblem& p, const Params&, const DeviceCaps& d) {
  const int W = packed_columns(p), warps = warps_for(p, d);
  return warp_setup(warp_kernel_for<Packed>(W), W, warps,
                    block_bytes<std::int16_t>(W, p.alphabet(), warps), 2, p, d);
}

std::string limit(const EedProblem& p, const Params&, const DeviceCaps& d) {
  if (std::string why = lane_columns_reason(p); !why.empty()) return why;
  if (std::string why = packed_reason(p); !why.empty()) return why;
  const std::size_t one = block_bytes<std::int16_t>(packed_columns(p), p.alphabet(), 1);
  return shared_memory_reason(one, "a warp's saved rows (one per symbol)", d);
}

const Registrar registrar{gpu_step(
    {.name = "packed_columns",
     .step = 10,
     .label = "two columns per word",
     .change = "two 16-bit columns per 32-bit word: one DPX 16x2 three-way minimum and one add "
               "per two cells' diagonal, saved rows stored a word at a time",
     .impl = setup,
     .limit = limit})};

}  // namespace
}  // namespace ladder::eed
