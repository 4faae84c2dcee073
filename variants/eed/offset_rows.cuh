// What the offset-form steps (9 and 10) share on the device: the bank-conflict-free layout of
// a warp's saved rows, the warp's shared-memory map, the per-pair tables (where each symbol
// last occurs before a lane's columns) and the one-op select that follows a match.
#pragma once
#include <cstdint>

#include "../../harness/hd.hpp"
#include "problem.hpp"

namespace ladder::eed {

// A saved row, laid out so that the 32 lanes touching their own columns always hit 32
// different banks, whichever symbol's row each reads: column base + t + 1 of lane L is at
// byte (t / P) * 128 + 4 L + (t % P) * sizeof(Store), P = 4 / sizeof(Store) columns per word,
// and rows start on 128-byte boundaries. After the 32 W columns, a 128-byte tail holds
// column 0 and the entry for "no earlier column holds the symbol".
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
// The block's one "never saved" row, then its warps.
template <class Store>
std::size_t block_bytes(int W, int S, int warps) {
  return std::size_t(Layout<Store>::row_bytes(W)) +
         std::size_t(warps) * std::size_t(warp_bytes<Store>(W, S));
}

// A warp's tables within its shared memory, from `mine`, the byte offset of its first row.
template <class Store>
struct WarpTables {
  int* saved;             // per symbol: the byte offset of its saved row (0: none yet)
  unsigned* masks;        // per symbol and lane: the lane's columns that hold it
  std::int16_t* before;   // per symbol and lane: its last column before the lane's columns
  __device__ WarpTables(unsigned char* smem, int mine, int W, int S) {
    saved = reinterpret_cast<int*>(smem + mine + (S + 1) * Layout<Store>::row_bytes(W));
    masks = reinterpret_cast<unsigned*>(saved + S);
    before = reinterpret_cast<std::int16_t*>(masks + 32 * S);
  }
  // For pair B (m symbols), with `bit(q)` the mask bit of this lane's column q: fills the
  // masks, `before` and clears `saved`. Ends with the warp synchronised.
  template <int W, class Bit>
  __device__ void fill(const std::uint8_t* b, int m, int S, Bit bit) {
    const int lane = threadIdx.x % 32, base = lane * W;
    for (int s = 0; s < S; ++s) before[s * 32 + lane] = 0, masks[s * 32 + lane] = 0;
#pragma unroll
    for (int q = 0; q < W; ++q) {
      const int j = base + q + 1;
      if (j <= m) {
        const int s = b[j - 1];
        before[s * 32 + lane] = std::int16_t(j);
        masks[s * 32 + lane] |= bit(q);
      }
    }
    for (int s = lane; s < S; s += 32) saved[s] = 0;
    __syncwarp();
    // Each symbol's last column in the lanes before: a scan over the lanes' last columns.
    for (int s = lane; s < S; s += 32) {
      int seen = 0;
      for (int t = 0; t < 32; ++t) {
        const int here = before[s * 32 + t];
        before[s * 32 + t] = std::int16_t(seen);
        seen = max(seen, here);
      }
    }
    __syncwarp();
  }
  // After row i (symbol x) was filled into `spare`: it becomes x's saved row, and the spare
  // for the next row is x's old one, or a fresh row. Every lane calls it.
  __device__ void rotate(int x, int& spare, int& fresh, int mine, int row_bytes) {
    const int lane = threadIdx.x % 32;
    const int old = saved[x];
    __syncwarp();
    if (lane == 0) saved[x] = spare;
    spare = old != 0 ? old : mine + row_bytes * fresh++;
    __syncwarp();
  }
};

// `yes` where `all` is all ones, else `no`: one three-input logic op. Selects on a compare
// would keep 32 predicates live across the row, more than the hardware has.
__device__ __forceinline__ int pick(int all, int yes, int no) { return (all & yes) | (~all & no); }

}  // namespace ladder::eed
