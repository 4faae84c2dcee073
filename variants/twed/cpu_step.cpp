// The CPU steps' shared glue: a step computes one pair; this runs it over every pair the mode
// asks for (serially or with OpenMP over pairs) and completes the triangle mode's matrix.
#include "problem.hpp"

namespace ladder::twed {

void mirror_triangle(std::int64_t rows, double* out) {
  for (std::int64_t i = 0; i < rows; ++i) {
    out[i * rows + i] = 0.0;
    for (std::int64_t j = i + 1; j < rows; ++j) out[j * rows + i] = out[i * rows + j];
  }
}

void for_each_pair(const TwedProblem& p, const PairFn& pair, double* out, bool parallel) {
  const std::int64_t rows = p.rows(), cols = p.cols();
  const bool triangle = p.mode == Mode::triangle;
  // Flattened over the whole matrix; the triangle mode skips i >= j.
  const std::int64_t total = rows * cols;
#pragma omp parallel for schedule(dynamic, 1) if (parallel && p.pairs() > 1)
  for (std::int64_t k = 0; k < total; ++k) {
    const std::int64_t i = k / cols, j = k % cols;
    if (!triangle || i < j) out[k] = pair(p, i, j);
  }
  if (triangle) mirror_triangle(rows, out);
}

VariantSpec cpu_step(CpuStep s, bool parallel) {
  HostCompute<TwedProblem, double> all = [one = s.impl, parallel](const TwedProblem& p,
                                                                   double* out) {
    for_each_pair(p, one, out, parallel);
  };
  Step<TwedProblem, HostCompute<TwedProblem, double>> step{
      s.name, s.step, s.label, s.change, s.role, Precision::fp64, s.params, all, s.limit,
      s.scratch_bytes};
  return host_variant<TwedProblem, double>(
      "twed", std::move(step), [](const TwedProblem& p) { return p.shape(); },
      [](const TwedProblem& p) { return 8.0 * double(p.output_size()); });
}

}  // namespace ladder::twed
