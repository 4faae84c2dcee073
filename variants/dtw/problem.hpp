// DTW study: one query series against `entries` subject series of length n; output one
// distance per subject. Costs are squared differences with no square root:
//   D[i][j] = (q[i-1] - s[j-1])^2 + min(D[i-1][j-1], D[i-1][j], D[i][j-1]),
//   D[0][0] = 0, other borders +inf, distance = D[n][n].
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

#include "../../datagen/series.hpp"
#include "../../harness/study.hpp"

#ifdef __CUDACC__
#define LADDER_HD __host__ __device__
#else
#define LADDER_HD
#endif

namespace ladder::dtw {

struct DtwProblem : Problem {
  SeriesSet data;             // the subjects
  std::int64_t query_index = 0;  // the query is this series of the same set (as in the notes)
  std::vector<float> query;

  std::int64_t n() const { return static_cast<std::int64_t>(data.length); }
  std::int64_t entries() const { return static_cast<std::int64_t>(data.entries); }
};

// One DP cell. Shared by every CPU and GPU step so all compute the same function.
LADDER_HD inline float dtw_cell(float diag, float above, float left, float q, float s) {
  const float r = q - s;
#ifdef __CUDA_ARCH__
  const float best = fminf(diag, fminf(above, left));  // two FMNMX instructions
#else
  // Plain compares: the host compiler inlines these, while fminf may become a libm call.
  const float m = above < left ? above : left;
  const float best = diag < m ? diag : m;
#endif
  return r * r + best;
}

// DTW of one pair with two rolling rows; `rows` holds 2 * (n + 1) floats. The sequential
// baseline and steps 2-6 all run this loop: the GPU steps differ only in where `rows` lives
// (global memory, a thread-local array, shared memory), which is what the notes measure.
LADDER_HD inline float dtw_two_rows(const float* q, const float* s, int n, float* rows) {
  const float inf = INFINITY;
  float* prev = rows;
  float* cur = rows + n + 1;
  prev[0] = 0.f;
  for (int j = 1; j <= n; ++j) prev[j] = inf;
  for (int i = 1; i <= n; ++i) {
    cur[0] = inf;
    const float qi = q[i - 1];
    for (int j = 1; j <= n; ++j)
      cur[j] = dtw_cell(prev[j - 1], prev[j], cur[j - 1], qi, s[j - 1]);
    float* t = prev;
    prev = cur;
    cur = t;
  }
  return prev[n];
}

}  // namespace ladder::dtw
