// The CPU steps: the whole computation in double precision (means, centring, one triangle of
// C mirrored), sequential or with OpenMP over the rows of C. The centred data is held
// transposed (n x m) so that every entry of C is a dot product of two contiguous rows.
#pragma once
#include <functional>
#include <string>

#include "../../harness/step.hpp"
#include "problem.hpp"

namespace ladder::covariance {

inline void covariance_fp64(const CovProblem& p, float* out, bool parallel) {
  const std::int64_t m = p.m, n = p.n;
  std::vector<double> mean(n, 0.0), xt(static_cast<std::size_t>(n * m));
  for (std::int64_t r = 0; r < m; ++r)
    for (std::int64_t j = 0; j < n; ++j) mean[j] += p.row(r)[j];
  for (auto& v : mean) v /= double(m);
  for (std::int64_t r = 0; r < m; ++r)
    for (std::int64_t j = 0; j < n; ++j) xt[j * m + r] = p.row(r)[j] - mean[j];
#pragma omp parallel for schedule(dynamic, 1) if (parallel)
  for (std::int64_t i = 0; i < n; ++i)
    for (std::int64_t j = 0; j <= i; ++j) {
      const double* a = xt.data() + i * m;
      const double* b = xt.data() + j * m;
      double sum = 0;
      for (std::int64_t r = 0; r < m; ++r) sum += a[r] * b[r];
      out[i * n + j] = out[j * n + i] = static_cast<float>(sum / double(m));
    }
}

using CpuStep = Step<CovProblem, HostCompute<CovProblem>>;

// The baselines are for checking and for small sizes: beyond `max_flops` a run takes minutes
// (the paper size is 1.2 TFLOP).
inline Limit<CovProblem> flops_limit(double max_flops) {
  return [max_flops](const CovProblem& p, const Params&, const DeviceCaps&) -> std::string {
    if (triangle_flops(p) <= max_flops) return "";
    return "more than " + std::to_string(static_cast<long long>(max_flops / 1e9)) +
           " GFLOP: too slow for this baseline";
  };
}

inline VariantSpec cpu_step(CpuStep s) {
  s.precision = Precision::fp64;
  // The transposed double copy of the centred data, beyond the study's own data and output.
  s.scratch_bytes = [](const CovProblem& p, const Params&) { return 8.0 * double(p.m) * p.n; };
  return host_variant<CovProblem>(
      "covariance", std::move(s),
      [](const CovProblem& p) { return std::vector<std::size_t>{std::size_t(p.n), std::size_t(p.n)}; },
      [](const CovProblem& p) { return 4.0 * double(p.n) * p.n; });
}

}  // namespace ladder::covariance
