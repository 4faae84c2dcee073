// Step 1: the sequential reference, twed.c's algorithm: the full (n+1) x (m+1) DP matrix of
// a pair, filled row by row. O(nm) memory: it validates small cases, and times twed.c's
// algorithm wherever the matrix fits in the host's share of memory (32 GiB at N = 65,536,
// the seed's largest twed.c point).
#include <limits>

#include "problem.hpp"

namespace ladder::twed {

// The delete costs of every point of series e of list l: del[0] = 0, then delA(1..length).
std::vector<double> delete_costs(const SeriesList& l, std::int64_t e, const CostsT<double>& c) {
  const std::vector<double> zero(std::size_t(l.dim), 0.0);
  std::vector<double> del(std::size_t(l.length + 1));
  for (std::int64_t i = 0; i <= l.length; ++i)
    del[i] = delete_cost(l.x(e), l.t(e), i, int(l.dim), c, zero.data());
  return del;
}

double full_matrix_pair(const TwedProblem& p, std::int64_t i, std::int64_t j) {
  const SeriesList &A = p.a, &B = p.cols_list();
  const std::int64_t n = A.length, m = B.length, w = m + 1;
  const int dim = int(A.dim);
  const CostsT<double> c(p.costs);
  const std::vector<double> zero(std::size_t(dim), 0.0);
  const PointRef<double> a{A.x(i), A.t(i), dim}, b{B.x(j), B.t(j), dim};
  const std::vector<double> del_a = delete_costs(A, i, c), del_b = delete_costs(B, j, c);
  std::vector<double> D(std::size_t((n + 1) * w), std::numeric_limits<double>::infinity());
  D[0] = 0.0;
  for (std::int64_t r = 1; r <= n; ++r)
    for (std::int64_t s = 1; s <= m; ++s)
      D[r * w + s] = twed_cell(D[(r - 1) * w + s - 1], D[(r - 1) * w + s], D[r * w + s - 1],
                               match_cost(a, r, b, s, c, zero.data()),
                               match_cost(a, r - 1, b, s - 1, c, zero.data()), del_a[r], del_b[s]);
  return D[n * w + m];
}

namespace {

// One pair's matrix at a time (the pairs run one after another): the host memory check
// (harness/memory.hpp) refuses a point whose matrix does not fit, saying how much it needs.
double matrix_bytes(const TwedProblem& p, const Params&) {
  return 8.0 * double(p.n() + 1) * double(p.m() + 1);
}

const Registrar registrar{cpu_step({.name = "seq_full",
                                   .step = 1,
                                   .label = "sequential, full matrix",
                                   .change = "baseline: twed.c's full (n+1) x (m+1) DP matrix",
                                   .role = Role::baseline,
                                   .impl = full_matrix_pair,
                                   .scratch_bytes = matrix_bytes})};

}  // namespace
}  // namespace ladder::twed
