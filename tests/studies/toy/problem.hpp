// toy: the smallest study, a vector sum c[i] = a[i] + b[i]. It exists to prove (and show) the
// path of adding a study: a problem, a study file, one file per step, a smoke config; the
// harness, the plots and the build need no change for it.
#pragma once
#include <functional>
#include <vector>

#include "../../../harness/host_instance.hpp"
#include "../../../harness/step.hpp"

namespace ladder::toy {

struct ToyProblem : Problem {
  std::vector<float> a, b;
  std::size_t n() const { return a.size(); }
};

// Inputs and output, on either side.
inline double vector_bytes(const ToyProblem& p) { return 12.0 * double(p.n()); }

// A CPU step fills the output from the problem.
using Compute = std::function<void(const ToyProblem&, float* c)>;
inline VariantSpec cpu_step(Step<ToyProblem, Compute> s) {
  MakeInstance<ToyProblem, Compute> make = [](const ToyProblem& p, const Params&,
                                              const DeviceCaps&, const Compute& compute) {
    return std::make_unique<HostInstance<float>>(p.n(), std::vector<std::size_t>{},
                                                 [&p, compute](float* c) { compute(p, c); });
  };
  return make_variant<ToyProblem, Compute>("toy", Backend::cpu, std::move(s), vector_bytes, make);
}

}  // namespace ladder::toy
