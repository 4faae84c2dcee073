// TWED study (Marteau's time warp edit distance, as carried by cuTWED): lists of series in
// R^dim with timestamps, compared pair by pair.
//   a_0 = b_0 = 0 (the zero vector) at time 0, D[0][0] = 0, D[i][0] = D[0][j] = +inf,
//   c(i,j)   = d(a_i, b_j) + nu * |tA_i - tB_j|                        (match cost)
//   delA(i)  = d(a_i, a_{i-1}) + lambda + nu * (tA_i - tA_{i-1})      (delete a_i)
//   delB(j)  = d(b_j, b_{j-1}) + lambda + nu * (tB_j - tB_{j-1})      (delete b_j)
//   D[i][j]  = min(D[i-1][j-1] + c(i,j) + c(i-1,j-1), D[i-1][j] + delA(i), D[i][j-1] + delB(j))
//   TWED = D[n][m], where d(x, y) = (sum_k |x_k - y_k|^p)^(1/p) (rooted, cuTWED's and aeon's
//   choice) or sum_k |x_k - y_k|^p (Marteau's original twed.c).
// Modes: pair (one A series against one B series), batch (every A series against every B
// series: a rows x cols matrix), triangle (one list against itself: only i < j is computed,
// the whole matrix is written, its diagonal exactly zero; TWED is symmetric).
#pragma once
#include <cmath>
#include <functional>
#include <memory>
#include <cstdint>
#include <string>
#include <vector>

#include "../../datagen/multiseries.hpp"
#include "../../harness/hd.hpp"
#include "../../harness/step.hpp"

namespace ladder::twed {

enum class Mode { pair, batch, triangle };

// nu, lambda >= 0, degree >= 1; root: the Lp norm (true) or its p-th power (false).
struct Costs {
  double nu = 1, lambda = 1;
  int degree = 2;
  bool root = true;
};

// `count` series of `length` points in R^dim, with strictly increasing timestamps.
struct SeriesList {
  std::int64_t count = 0, length = 0, dim = 1;
  std::vector<double> values;  // count x length x dim
  std::vector<double> times;   // count x length
  std::vector<std::int32_t> labels;  // count, or empty
  std::int64_t source_count = 0;     // series in the data set this list was taken from
  std::int64_t first = 0;            // the index there of its first series
  const double* x(std::int64_t e) const { return values.data() + e * length * dim; }
  const double* t(std::int64_t e) const { return times.data() + e * length; }
};

struct TwedProblem : Problem {
  Mode mode = Mode::pair;
  Costs costs;
  SeriesList a, b;  // in triangle mode b is unused: B is A
  // The data set A (and B, unless it has its own list) was taken from: what `ladder gen`
  // writes, with its timestamps when the problem uses them.
  std::shared_ptr<const MultiSeries> source;
  bool data_times = false;

  const SeriesList& rows_list() const { return a; }
  const SeriesList& cols_list() const { return mode == Mode::triangle ? a : b; }
  std::int64_t rows() const { return a.count; }
  std::int64_t cols() const { return cols_list().count; }
  std::int64_t n() const { return a.length; }
  std::int64_t m() const { return cols_list().length; }
  std::int64_t dim() const { return a.dim; }
  std::size_t output_size() const { return std::size_t(rows()) * std::size_t(cols()); }
  std::vector<std::size_t> shape() const {
    if (mode == Mode::pair) return {1};
    return {std::size_t(rows()), std::size_t(cols())};
  }
  // Pairs a step computes: the triangle mode skips i >= j.
  std::int64_t pairs() const {
    return mode == Mode::triangle ? rows() * (rows() - 1) / 2 : rows() * cols();
  }
};

// ---- The cost terms, shared by every CPU and GPU step so all compute the same function ----

// sum_k |x_k - y_k|^p, rooted when asked. Degrees 1 and 2 avoid pow(); in R^1 the rooted
// distance is |x - y| for every p.
template <class T>
LADDER_HD inline T lp_distance(const T* x, const T* y, int dim, int degree, bool root) {
  if (dim == 1 && root) return fabs(x[0] - y[0]);
  T s = 0;
  for (int k = 0; k < dim; ++k) {
    const T r = fabs(x[k] - y[k]);
    s += degree == 1 ? r : degree == 2 ? r * r : pow(r, T(degree));
  }
  if (!root || degree == 1) return s;
  return degree == 2 ? sqrt(s) : pow(s, T(1) / T(degree));
}

// A point of a series with the implicit zero point at time 0 in front: point i (1-based) is
// x[i - 1]; point 0 is the origin.
template <class T>
struct PointRef {
  const T* x;  // length x dim
  const T* t;  // length
  int dim;
  LADDER_HD const T* at(std::int64_t i, const T* zero) const {
    return i == 0 ? zero : x + (i - 1) * dim;
  }
  LADDER_HD T time(std::int64_t i) const { return i == 0 ? T(0) : t[i - 1]; }
};

// The scalar costs a step needs, in its precision.
template <class T>
struct CostsT {
  T nu, lambda;
  int degree;
  bool root;
  explicit CostsT(const Costs& c)
      : nu(T(c.nu)), lambda(T(c.lambda)), degree(c.degree), root(c.root) {}
  CostsT() = default;
};

// delA(i) for i >= 1 (and for i = 0, 0: the row of D[0][*] never deletes).
template <class T>
LADDER_HD inline T delete_cost(const T* x, const T* t, std::int64_t i, int dim,
                               const CostsT<T>& c, const T* zero) {
  if (i == 0) return T(0);
  const PointRef<T> s{x, t, dim};
  return lp_distance(s.at(i, zero), s.at(i - 1, zero), dim, c.degree, c.root) + c.lambda +
         c.nu * (s.time(i) - s.time(i - 1));
}

// c(i, j); c(0, 0) = 0 (both points are the origin at time 0).
template <class T>
LADDER_HD inline T match_cost(const PointRef<T>& a, std::int64_t i, const PointRef<T>& b,
                              std::int64_t j, const CostsT<T>& c, const T* zero) {
  return lp_distance(a.at(i, zero), b.at(j, zero), a.dim, c.degree, c.root) +
         c.nu * fabs(a.time(i) - b.time(j));
}

// One DP cell given its three neighbours and its costs; match first, as in the recurrence.
template <class T>
LADDER_HD inline T twed_cell(T diag, T up, T left, T c_here, T c_diag, T del_a, T del_b) {
  const T match = diag + c_here + c_diag;
  const T a = up + del_a;
  const T b = left + del_b;
  return fmin(match, fmin(a, b));
}

// Dimensions a step keeps in registers or on the stack: the zero point and temporaries.
constexpr int kMaxDim = 64;

// ---- Glue for the CPU steps: each computes one pair; the harness loops over the pairs ----

// One pair's TWED in fp64: A series i against B series j of the problem.
using PairFn = std::function<double(const TwedProblem&, std::int64_t i, std::int64_t j)>;

// Computes every pair the mode asks for (serially, or with OpenMP over pairs when
// `parallel`), then fills the triangle's mirror half and zero diagonal.
void for_each_pair(const TwedProblem& p, const PairFn& pair, double* out, bool parallel);
void mirror_triangle(std::int64_t rows, double* out);

using CpuStep = Step<TwedProblem, PairFn>;
VariantSpec cpu_step(CpuStep s, bool parallel = false);

// One pair in fp64 with the full (n+1) x (m+1) matrix (twed.c's algorithm; seq_full.cpp).
double full_matrix_pair(const TwedProblem& p, std::int64_t i, std::int64_t j);
// One pair in fp64 with three anti-diagonal buffers (linear memory; seq_itwed.cpp); with
// `parallel`, OpenMP threads share each anti-diagonal (for the reference of long pairs).
double itwed_pair(const TwedProblem& p, std::int64_t i, std::int64_t j, bool parallel = false);

}  // namespace ladder::twed
