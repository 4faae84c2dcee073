// DTW study: Q query series against `entries` subject series of length n; output one distance
// per (query, subject), Q x entries. Costs are squared differences with no square root:
//   D[i][j] = (q[i-1] - s[j-1])^2 + min(D[i-1][j-1], D[i-1][j], D[i][j-1]),
//   D[0][0] = 0, other borders +inf, distance = D[n][n].
// A Sakoe-Chiba band of radius r keeps only cells with |i - j| <= r (r = 0: the diagonal,
// r >= n: unconstrained).
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../../harness/hd.hpp"
#include "../../harness/pairwise.hpp"

namespace ladder::dtw {

struct DtwProblem : PairwiseProblem {
  int band = 0;  // Sakoe-Chiba radius; >= n means unconstrained
  bool banded() const { return band < n(); }
};

// A CPU step: the distances of one query to every subject.
using CpuStep = CpuPairStep<DtwProblem>;
inline VariantSpec cpu_step(CpuStep s) { return cpu_pair_variant<DtwProblem>("dtw", std::move(s)); }

// One DP cell. Shared by every CPU and GPU step so all compute the same function. The min of
// the two cells of the previous row comes first: only the last min and the FMA then wait for
// `left`, the cell just computed, which is what serialises a row.
LADDER_HD inline float dtw_cell(float diag, float above, float left, float q, float s) {
  const float r = q - s;
#ifdef __CUDA_ARCH__
  const float best = fminf(left, fminf(diag, above));  // two FMNMX instructions
#else
  // Plain compares: the host compiler inlines these, while fminf may become a libm call.
  const float m = diag < above ? diag : above;
  const float best = left < m ? left : m;
#endif
  return r * r + best;
}

// DTW of one pair with two rolling rows of n + 1 cells each. The sequential baseline and the
// per-thread GPU steps all run this loop; they differ only in where the rows and the subject
// live (global memory, a thread-local array, shared memory, interleaved across threads),
// which is what the notes measure. Row cell j is rows[j * row_stride] (second row after
// (n + 1) * row_stride) and subject value t is s[t * s_stride].
// With a band, row i computes only j in [i - band, i + band]; the cell just left of that range
// and the one just right of it are set to +inf so the next row reads a wall there.
LADDER_HD inline float dtw_two_rows(const float* q, const float* s, int n, float* rows, int band,
                                    std::size_t row_stride = 1, std::size_t s_stride = 1) {
  const float inf = INFINITY;
  float* prev = rows;
  float* cur = rows + (n + 1) * row_stride;
  prev[0] = 0.f;
  for (int j = 1; j <= n; ++j) prev[j * row_stride] = inf;
  for (int i = 1; i <= n; ++i) {
    const int lo = i - band > 1 ? i - band : 1;
    const int hi = i + band < n ? i + band : n;
    cur[(lo - 1) * row_stride] = inf;
    const float qi = q[i - 1];
    for (int j = lo; j <= hi; ++j)
      cur[j * row_stride] = dtw_cell(prev[(j - 1) * row_stride], prev[j * row_stride],
                                     cur[(j - 1) * row_stride], qi, s[(j - 1) * s_stride]);
    if (hi < n) cur[(hi + 1) * row_stride] = inf;
    float* t = prev;
    prev = cur;
    cur = t;
  }
  return prev[n * row_stride];
}

}  // namespace ladder::dtw
