// Step 1: the sequential loop, the baseline every other step is checked against.
#include "problem.hpp"

namespace ladder::toy {
namespace {

void add(const ToyProblem& p, float* c) {
  for (std::size_t i = 0; i < p.n(); ++i) c[i] = p.a[i] + p.b[i];
}

const Registrar registrar{cpu_step({.name = "seq",
                                    .step = 1,
                                    .label = "sequential",
                                    .change = "baseline: one loop",
                                    .role = Role::baseline,
                                    .impl = add})};

}  // namespace
}  // namespace ladder::toy
