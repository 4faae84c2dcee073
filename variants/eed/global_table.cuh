// The paper's compute step in global memory only (pH_CUDA and H_CUDA): a block sweeps one
// pair's anti-diagonal "cycles", thread r owning rows r, r + blockDim, ...; cycle t computes
// every cell (i, t - i) at once, all of them reading and writing the full (n+1) x (m+1) table
// H in global memory, with the table P (from the preprocessing) and each row's last match l.
#pragma once
#include "gpu_step.cuh"

namespace ladder::eed {

// The swap term of cell (i, j) from the full table H (width w): H[k-1][l-1] plus the costs
// of what lies between, or kNoSwap when b_j has no earlier place k in A or a_i none (l) in B.
__device__ __forceinline__ std::int32_t swap_from_table(const std::int32_t* H, std::int64_t w,
                                                        std::int64_t i, std::int64_t j,
                                                        std::int64_t k, std::int64_t l,
                                                        const Costs& c) {
  if (k == 0 || l == 0) return kNoSwap;
  return std::int32_t(H[(k - 1) * w + l - 1] + (i - k - 1) * c.del + c.swap + (j - l - 1) * c.ins);
}

// H: (n+1)(m+1) entries; lpos: n + 1 entries; P: this pair's table.
__device__ inline void pair_in_global(const Pairs& v, std::int64_t k, const std::int32_t* P,
                                      std::int32_t* H, std::int32_t* lpos) {
  const std::int64_t n = v.n(k), m = v.m(k), w = m + 1;
  const std::uint8_t *a = v.a(k), *b = v.b(k);
  const int S = v.alphabet;
  const Costs c = v.costs;
  for (std::int64_t i = threadIdx.x; i <= n; i += blockDim.x) {
    H[i * w] = std::int32_t(i * c.del);
    lpos[i] = 0;
  }
  for (std::int64_t j = threadIdx.x; j <= m; j += blockDim.x) H[j] = std::int32_t(j * c.ins);
  __syncthreads();
  for (std::int64_t t = 2; t <= n + m; ++t) {
    for (std::int64_t i = threadIdx.x + 1; i <= n; i += blockDim.x) {
      const std::int64_t j = t - i;
      if (j < 1 || j > m) continue;
      const int ai = a[i - 1], bj = b[j - 1];
      const std::int32_t swap = swap_from_table(H, w, i, j, P[i * S + bj], lpos[i], c);
      H[i * w + j] = eed_cell(H[(i - 1) * w + j - 1], H[(i - 1) * w + j], H[i * w + j - 1],
                              ai == bj, swap, c);
      if (ai == bj) lpos[i] = std::int32_t(j);
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) v.out[k] = H[n * w + m];
  __syncthreads();  // the next pair reuses H and lpos
}

// Elements of the table of the largest pair.
inline std::int64_t table_elements(const EedProblem& p) { return (p.max_a + 1) * (p.max_b + 1); }

// Threads per block: one per row of the longest A, in whole warps, at most 1024.
inline int row_threads(const EedProblem& p) {
  return int(std::clamp<std::int64_t>(ceil_div(p.max_a, 32) * 32, 32, 1024));
}

}  // namespace ladder::eed
