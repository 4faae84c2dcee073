// The CPU steps: the whole computation in double precision (means, centring, one triangle of
// C mirrored), sequential or with OpenMP over the rows of C. The centred data is held
// transposed (n x m) so that every entry of C is a dot product of two contiguous rows.
#pragma once
#include <chrono>
#include <cmath>

#include "problem.hpp"

namespace ladder::cov {

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

class CpuInstance : public Instance {
 public:
  CpuInstance(const CovProblem& p, bool parallel)
      : problem_(p), parallel_(parallel), out_(static_cast<std::size_t>(p.n * p.n)) {}
  void poison() override { std::fill(out_.begin(), out_.end(), std::nanf("")); }
  double run_ms() override {
    const auto t0 = std::chrono::steady_clock::now();
    covariance_fp64(problem_, out_.data(), parallel_);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
        .count();
  }
  Output fetch() override {
    return Output{out_, {std::size_t(problem_.n), std::size_t(problem_.n)}};
  }

 private:
  const CovProblem& problem_;
  bool parallel_;
  std::vector<float> out_;
};

// The baselines are for checking and for small sizes: beyond these the run takes minutes
// (the paper size is 1.2 TFLOP) or the transposed copy needs too much memory.
inline VariantSpec cpu_variant(std::string name, int step, std::string change, bool parallel,
                               double max_flops) {
  VariantSpec v;
  v.study = "covariance";
  v.name = std::move(name);
  v.step = step;
  v.change = std::move(change);
  v.backend = Backend::cpu;
  v.precision = "fp64";
  v.supports = [max_flops](const Problem& pr, const Params&, const DeviceCaps&) -> std::string {
    const auto& p = problem_as<CovProblem>(pr);
    if (triangle_flops(p) > max_flops)
      return "more than " + std::to_string(static_cast<long long>(max_flops / 1e9)) +
             " GFLOP: too slow for this baseline";
    if (8.0 * double(p.m) * double(p.n) > double(1ull << 32))
      return "the transposed double copy would exceed 4 GiB";
    return "";
  };
  v.prepare = [parallel](const Problem& p, const Params&) -> std::unique_ptr<Instance> {
    return std::make_unique<CpuInstance>(problem_as<CovProblem>(p), parallel);
  };
  return v;
}

}  // namespace ladder::cov
