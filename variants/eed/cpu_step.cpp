// The CPU steps' shared glue: a step computes one pair; this runs it over every pair, serially
// or with OpenMP threads taking whole pairs.
#include "problem.hpp"

namespace ladder::eed {

VariantSpec cpu_step(CpuStep s, bool parallel) {
  HostCompute<EedProblem, std::int32_t> all = [one = s.impl, parallel](const EedProblem& p,
                                                                        std::int32_t* out) {
#pragma omp parallel for schedule(dynamic, 1) if (parallel && p.pairs() > 1)
    for (std::int64_t k = 0; k < p.pairs(); ++k) out[k] = one(p, k);
  };
  Step<EedProblem, HostCompute<EedProblem, std::int32_t>> step{
      s.name, s.step, s.label, s.change, s.role, Precision::int32, s.params, all, s.limit,
      s.scratch_bytes};
  return host_variant<EedProblem, std::int32_t>(
      "eed", std::move(step),
      [](const EedProblem& p) { return std::vector<std::size_t>{std::size_t(p.pairs())}; },
      [](const EedProblem& p) { return 4.0 * double(p.pairs()); });
}

}  // namespace ladder::eed
