// Step 3: the two-row DTW with OpenMP over subject series. Pairs are independent, so each
// thread takes whole series with its own two-row buffer; no synchronisation is needed.
#include "problem.hpp"

namespace ladder::dtw {
namespace {

void compute(const DtwProblem& p, const float* query, float* dist) {
  const std::int64_t entries = p.entries();
#pragma omp parallel
  {
    std::vector<float> rows(2 * (p.n() + 1));
#pragma omp for schedule(static)
    for (std::int64_t e = 0; e < entries; ++e)
      dist[e] = dtw_two_rows(query, p.data.series(e), static_cast<int>(p.n()), rows.data(), p.band);
  }
}

const Registrar registrar{cpu_step({.name = "openmp",
                                   .step = 3,
                                   .label = "OpenMP",
                                   .change = "OpenMP threads over subject series",
                                   .impl = compute})};

}  // namespace
}  // namespace ladder::dtw
