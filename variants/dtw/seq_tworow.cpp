// Step 2: sequential DTW keeping only two rolling rows of the DP matrix. Row i needs only
// row i-1, so memory drops from (n+1)^2 to 2(n+1) floats and the rows stay in L1 cache.
#include "problem.hpp"

namespace ladder::dtw {
namespace {

void compute(const DtwProblem& p, const float* query, float* dist) {
  std::vector<float> rows(2 * (p.n() + 1));
  for (std::int64_t e = 0; e < p.entries(); ++e)
    dist[e] = dtw_two_rows(query, p.data.series(e), static_cast<int>(p.n()), rows.data(), p.band);
}

const Registrar registrar{cpu_step({.name = "seq_tworow",
                                   .step = 2,
                                   .label = "sequential, two rows",
                                   .change = "two rolling rows instead of the full matrix",
                                   .impl = compute})};

}  // namespace
}  // namespace ladder::dtw
