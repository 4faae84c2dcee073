// Covariance study: a data matrix D of m rows (entries) x n columns (features), float32,
// row-major. Means mu_j = sum_r D[r][j] / m; centred X = D - mu; C = X^T X / m, n x n,
// symmetric. The output is the full matrix (steps that compute one triangle mirror it).
#pragma once
#include <cstdint>
#include <vector>

#include "../../harness/study.hpp"

namespace ladder::covariance {

struct CovProblem : Problem {
  std::int64_t m = 0, n = 0;
  std::vector<float> data;     // m x n
  std::vector<double> mean;    // n, exact (double) means, computed once for the baseline
  double max_variance = 0;     // max_j C[j][j], the scale tolerances are taken against

  const float* row(std::int64_t r) const { return data.data() + r * n; }
};

// FLOPs of the covariance proper: one multiply and one add per (row, lower-triangle entry).
inline double triangle_flops(const CovProblem& p) {
  return 2.0 * static_cast<double>(p.m) * static_cast<double>(p.n) * (p.n + 1) / 2.0;
}

}  // namespace ladder::covariance
