// Step 1: sequential DTW with the full (n+1) x (n+1) DP matrix per pair, as first written in
// the notes. The matrix is padded by one row and column so the borders need no special case.
#include <algorithm>

#include "problem.hpp"

namespace ladder::dtw {
namespace {

// Cells outside the band keep the +inf they were filled with.
float dtw_full_matrix(const float* q, const float* s, std::int64_t n, std::int64_t band,
                      std::vector<float>& D) {
  const std::int64_t w = n + 1;
  const float inf = INFINITY;
  std::fill(D.begin(), D.end(), inf);
  D[0] = 0.f;
  for (std::int64_t i = 1; i <= n; ++i)
    for (std::int64_t j = std::max<std::int64_t>(1, i - band); j <= std::min(n, i + band); ++j)
      D[i * w + j] = dtw_cell(D[(i - 1) * w + j - 1], D[(i - 1) * w + j], D[i * w + j - 1],
                              q[i - 1], s[j - 1]);
  return D[n * w + n];
}

void compute(const DtwProblem& p, const float* query, float* dist) {
  std::vector<float> D((p.n() + 1) * (p.n() + 1));
  for (std::int64_t e = 0; e < p.entries(); ++e)
    dist[e] = dtw_full_matrix(query, p.data.series(e), p.n(), p.band, D);
}

// The matrix is allocated once per run; refuse sizes whose matrix would not fit in 1 GiB.
std::string limit(const DtwProblem& p, const Params&, const DeviceCaps&) {
  const double bytes = 4.0 * (p.n() + 1) * (p.n() + 1);
  return bytes > (1 << 30) ? "full DP matrix would need more than 1 GiB" : "";
}

const Registrar registrar{cpu_step({.name = "seq_full",
                                   .step = 1,
                                   .label = "sequential, full matrix",
                                   .change = "baseline: full (n+1)^2 DP matrix per pair",
                                   .role = Role::baseline,
                                   .impl = compute,
                                   .limit = limit})};

}  // namespace
}  // namespace ladder::dtw
