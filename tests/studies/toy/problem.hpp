// toy: the smallest study, a vector sum c[i] = a[i] + b[i]. It exists to prove (and show) the
// path of adding a study: a problem, a study file, one file per step, a smoke config; the
// harness, the plots and the build need no change for it.
#pragma once
#include <vector>

#include "../../../harness/step.hpp"

namespace ladder::toy {

struct ToyProblem : Problem {
  std::vector<float> a, b;
  std::size_t n() const { return a.size(); }
};

// Inputs and output, on either side.
inline double vector_bytes(const ToyProblem& p) { return 12.0 * double(p.n()); }

// A CPU step fills the output from the problem.
inline VariantSpec cpu_step(Step<ToyProblem, HostCompute<ToyProblem>> s) {
  return host_variant<ToyProblem>("toy", std::move(s),
                                  [](const ToyProblem& p) { return std::vector<std::size_t>{p.n()}; },
                                  vector_bytes);
}

}  // namespace ladder::toy
