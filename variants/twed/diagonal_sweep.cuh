// The anti-diagonal sweep of the cuTWED-structured steps (itwed, batch, triangle): one kernel
// launch per anti-diagonal k = 0..n+m of the DP matrix, a thread per cell of the diagonal and
// per pair, the diagonals in global memory. Cell (r, s) lies on diagonal k = r + s and needs
// only diagonals k-1 (up (r-1, s), left (r, s-1)) and k-2 (diagonal (r-1, s-1)), so three
// buffers suffice, entry r holding row r (unit stride along a diagonal, as in seq_itwed.cpp).
// They rotate by pointer swap between launches; the launch boundary is the only barrier. The
// match cost c(r-1, s-1) of the diagonal neighbour is recomputed rather than kept in two more
// buffers: a few instructions in R^1 against a store and a load of global memory.
// The steps differ only in how many pairs one sweep covers (one, or a chunk of all of them)
// and in how a pair index maps to (i, j): row-major over rows x cols, or the strict upper
// triangle i < j.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>

#include "../../harness/cuda_check.hpp"
#include "gpu_step.cuh"

namespace ladder::twed {

struct PairIndex {
  std::int64_t i, j;  // A series i against B series j
};

// Pair p of a rows x cols matrix in row-major order: pair and batch modes, and the batch
// step's whole matrix in triangle mode.
struct RowMajorPairs {
  std::int64_t cols;
  __host__ __device__ PairIndex operator()(std::int64_t p) const {
    const std::int64_t i = p / cols;
    return {i, p - i * cols};
  }
};

// Pair p of the strict upper triangle of a rows x rows matrix, row by row (row i holds
// j = i+1..rows-1). Counted from the last pair backwards, q = total - 1 - p, the rows are
// 1, 2, 3.. pairs long, so q lies in the row u (from the bottom) with u(u+1)/2 <= q <
// (u+1)(u+2)/2: u = floor((sqrt(8q + 1) - 1) / 2). The double square root may be one off
// once 8q + 1 passes 2^53; the integer correction makes u exact (q < 2^59 for rows <= 2^30,
// so (u+1)(u+2) cannot overflow).
struct TrianglePairs {
  std::int64_t rows;
  __host__ __device__ PairIndex operator()(std::int64_t p) const {
    const std::int64_t q = rows * (rows - 1) / 2 - 1 - p;
    std::int64_t u = std::int64_t((sqrt(8.0 * double(q) + 1.0) - 1.0) / 2.0);
    while (u > 0 && u * (u + 1) / 2 > q) --u;
    while ((u + 1) * (u + 2) / 2 <= q) ++u;
    return {rows - 2 - u, rows - 1 - (q - u * (u + 1) / 2)};
  }
};

// Cell (r, s), r, s >= 1, of pair ij from its three neighbours, with the shared cost terms.
template <class T>
__host__ __device__ T sweep_cell(const Lists<T>& l, PairIndex ij, std::int64_t r,
                                 std::int64_t s, T diag, T up, T left) {
  const PointRef<T> a = l.a_ref(ij.i), b = l.b_ref(ij.j);
  const T c_here = match_cost(a, r, b, s, l.costs, l.zero);
  const T c_diag = match_cost(a, r - 1, b, s - 1, l.costs, l.zero);
  return twed_cell(diag, up, left, c_here, c_diag, l.del_a[ij.i * (l.n + 1) + r],
                   l.del_b[ij.j * (l.m + 1) + s]);
}

// Cell (r, k - r) of diagonal k for pair q of the chunk starting at pair `first`; pair q
// keeps its diagonals at q * (n + 1) in each buffer. The last diagonal is the single cell
// (n, m): its thread writes the pair's result.
template <class T, class Pairs>
__host__ __device__ void sweep_entry(const Lists<T>& l, Pairs pairs, std::int64_t first,
                                     std::int64_t q, std::int64_t k, std::int64_t r, T* cur,
                                     const T* prev, const T* prev2) {
  const std::int64_t s = k - r, at = q * (l.n + 1) + r;
  const PairIndex ij = pairs(first + q);
  // Row 0 and column 0 are the +inf border, except D[0][0] = 0 (diagonal 0).
  T v = k == 0 ? T(0) : T(INFINITY);
  if (r > 0 && s > 0) v = sweep_cell(l, ij, r, s, prev2[at - 1], prev[at - 1], prev[at]);
  cur[at] = v;
  if (k == l.n + l.m) l.out[ij.i * l.cols + ij.j] = v;
}

// Diagonal k (rows lo..hi) of pairs first..first+count-1. x: a cell of the diagonal; y:
// pairs, strided by gridDim.y (a grid holds at most 65535 in y).
template <class T, class Pairs>
// Up to 1024 threads a block (the block_size range): registers are capped to fit.
__global__ void __launch_bounds__(1024) twed_diagonal_kernel(Lists<T> l, Pairs pairs, std::int64_t first,
                                     std::int64_t count, T* cur, const T* prev, const T* prev2,
                                     std::int64_t k, std::int64_t lo, std::int64_t hi) {
  const std::int64_t r = lo + std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r > hi) return;
  for (std::int64_t q = blockIdx.y; q < count; q += gridDim.y)
    sweep_entry(l, pairs, first, q, k, r, cur, prev, prev2);
}

constexpr std::int64_t kMaxGridY = 65535;

// Sweeps pairs 0..total-1 (pair p is pairs(p)) `chunk` pairs at a time, each chunk its own
// n + m + 1 launches on `stream`. Scratch holds three buffers of chunk x (n + 1).
// Every read of a launch is of a cell an earlier launch of the same chunk wrote (diagonals
// k-1 and k-2 of rows inside the matrix), so the buffers need no initialisation.
template <class T, class Pairs>
void sweep_diagonals(const Lists<T>& l, Pairs pairs, std::int64_t total, std::int64_t chunk,
                     int block, cudaStream_t stream) {
  const std::int64_t buffer = chunk * (l.n + 1);
  for (std::int64_t first = 0; first < total; first += chunk) {
    const std::int64_t count = std::min(chunk, total - first);
    T *cur = l.scratch, *prev = cur + buffer, *prev2 = prev + buffer;
    for (std::int64_t k = 0; k <= l.n + l.m; ++k) {
      const std::int64_t lo = std::max<std::int64_t>(0, k - l.m), hi = std::min(l.n, k);
      const dim3 grid(unsigned(ceil_div(hi - lo + 1, block)),
                      unsigned(std::min(count, kMaxGridY)));
      twed_diagonal_kernel<<<grid, block, 0, stream>>>(l, pairs, first, count, cur, prev, prev2,
                                                       k, lo, hi);
      LADDER_CUDA_LAUNCH("twed_diagonal_kernel");
      // Diagonal k becomes k-1, k-1 becomes k-2; k-2's buffer takes diagonal k+1.
      T* const oldest = prev2;
      prev2 = prev, prev = cur, cur = oldest;
    }
  }
}

// ---- Set-up helpers: the chunk, the scratch it needs and the block-size parameter ----

// The batch and triangle steps' diagonal buffers take at most this many bytes (unless one
// pair alone needs more): enough pairs to fill the GPU, and no limit on the pair count.
constexpr double kChunkBytes = double(1 << 28);

inline double pair_buffer_bytes(const TwedProblem& p, std::size_t word) {
  return 3.0 * double(p.n() + 1) * double(word);
}

// Pairs per chunk for a sweep of `total` pairs; at least 1.
inline std::int64_t pairs_per_chunk(const TwedProblem& p, std::size_t word, std::int64_t total,
                                    double budget = kChunkBytes) {
  const double fit = std::floor(budget / pair_buffer_bytes(p, word));
  return std::max<std::int64_t>(1, std::min(total, std::int64_t(std::min(fit, 9.0e18))));
}

inline double sweep_scratch_bytes(const TwedProblem& p, std::size_t word, std::int64_t chunk) {
  return pair_buffer_bytes(p, word) * double(chunk);
}

inline ParamSpec diagonal_block_param() {
  return {"block_size", "256", "threads per block along a diagonal", ParamSpec::Kind::integer,
          32, 1024};
}

// The set-up of a sweep: `total` pairs mapped by `pairs`, `chunk` at a time.
template <class T, class Pairs>
Setup<T> sweep_setup(const TwedProblem& p, const Params& params, Pairs pairs, std::int64_t total,
                     std::int64_t chunk) {
  const int block = int(params.integer("block_size"));
  const std::int64_t chunks = ceil_div(total, chunk);
  Setup<T> out;
  out.enqueue = [=](const Lists<T>& l, cudaStream_t stream) {
    sweep_diagonals(l, pairs, total, chunk, block, stream);
  };
  out.facts = {{"block_size", double(block)},
               {"pairs_per_chunk", double(chunk)},
               {"chunks", double(chunks)},
               {"launches", double(chunks) * double(p.n() + p.m() + 1)}};
  return out;
}

}  // namespace ladder::twed
