// Step 2: sequential ITWED (Wright): the same cells swept by anti-diagonals, keeping only the
// last three diagonals (and the match costs of the last two), indexed by row so every sweep
// is unit-stride. Linear memory: it validates the long pairs the full matrix cannot hold.
#include <algorithm>
#include <limits>

#include "problem.hpp"

namespace ladder::twed {

std::vector<double> delete_costs(const SeriesList& l, std::int64_t e, const CostsT<double>& c);

double itwed_pair(const TwedProblem& p, std::int64_t i, std::int64_t j, bool parallel) {
  const SeriesList &A = p.a, &B = p.cols_list();
  const std::int64_t n = A.length, m = B.length;
  const int dim = int(A.dim);
  const CostsT<double> c(p.costs);
  const std::vector<double> zero(std::size_t(dim), 0.0);
  const PointRef<double> a{A.x(i), A.t(i), dim}, b{B.x(j), B.t(j), dim};
  const std::vector<double> del_a = delete_costs(A, i, c), del_b = delete_costs(B, j, c);
  const double inf = std::numeric_limits<double>::infinity();
  // D and c of diagonals k, k-1 and k-2, entry r holding row r.
  std::vector<double> d[3], cost[3];
  for (int q = 0; q < 3; ++q) d[q].assign(std::size_t(n + 1), inf), cost[q].assign(std::size_t(n + 1), 0.0);
#pragma omp parallel if (parallel)
  for (std::int64_t k = 0; k <= n + m; ++k) {
    double *cur = d[k % 3].data(), *prev = d[(k + 2) % 3].data(), *prev2 = d[(k + 1) % 3].data();
    double *c_cur = cost[k % 3].data(), *c_prev2 = cost[(k + 1) % 3].data();
    const std::int64_t lo = std::max<std::int64_t>(0, k - m), hi = std::min(n, k);
#pragma omp for schedule(static)
    for (std::int64_t r = lo; r <= hi; ++r) {
      const std::int64_t s = k - r;
      c_cur[r] = match_cost(a, r, b, s, c, zero.data());
      if (r == 0 || s == 0) {
        cur[r] = k == 0 ? 0.0 : inf;
        continue;
      }
      cur[r] = twed_cell(prev2[r - 1], prev[r - 1], prev[r], c_cur[r], c_prev2[r - 1], del_a[r],
                         del_b[s]);
    }
  }
  return d[(n + m) % 3][n];
}

namespace {

const Registrar registrar{cpu_step({.name = "seq_itwed",
                                   .step = 2,
                                   .label = "sequential ITWED",
                                   .change = "anti-diagonal sweep with three diagonal buffers: "
                                             "linear memory, unit stride",
                                   .impl = [](const TwedProblem& p, std::int64_t i,
                                              std::int64_t j) { return itwed_pair(p, i, j); }})};

}  // namespace
}  // namespace ladder::twed
