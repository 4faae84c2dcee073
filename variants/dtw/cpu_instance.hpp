// Shared plumbing for the CPU steps: the output lives in host memory and the timed region is
// the whole computation (every query), measured with a steady clock.
#pragma once
#include <chrono>
#include <cmath>
#include <functional>

#include "problem.hpp"

namespace ladder::dtw {

class CpuInstance : public Instance {
 public:
  // Computes the distances of one query to every subject.
  using Compute = std::function<void(const DtwProblem&, const float* query, float* dist)>;
  CpuInstance(const DtwProblem& p, Compute compute)
      : problem_(p), compute_(std::move(compute)), dist_(p.num_queries() * p.entries()) {}

  void poison() override { std::fill(dist_.begin(), dist_.end(), std::nanf("")); }
  double run_ms() override {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::int64_t q = 0; q < problem_.num_queries(); ++q)
      compute_(problem_, problem_.query(q), dist_.data() + q * problem_.entries());
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::milli>(t1 - t0).count();
  }
  Output fetch() override { return Output{dist_, output_shape(problem_)}; }

 private:
  const DtwProblem& problem_;
  Compute compute_;
  std::vector<float> dist_;
};

// A VariantSpec for a CPU step that computes all distances with `compute`.
inline VariantSpec cpu_variant(std::string name, int step, std::string change,
                               CpuInstance::Compute compute,
                               std::function<std::string(const DtwProblem&)> limit = {}) {
  VariantSpec v;
  v.study = "dtw";
  v.name = std::move(name);
  v.step = step;
  v.change = std::move(change);
  v.backend = Backend::cpu;
  v.supports = [limit](const Problem& p, const Params&, const DeviceCaps&) {
    return limit ? limit(problem_as<DtwProblem>(p)) : std::string();
  };
  v.prepare = [compute](const Problem& p, const Params&) -> std::unique_ptr<Instance> {
    return std::make_unique<CpuInstance>(problem_as<DtwProblem>(p), compute);
  };
  return v;
}

}  // namespace ladder::dtw
