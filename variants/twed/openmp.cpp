// Step 3: OpenMP. Batch and triangle modes give each thread whole pairs (no sharing, no
// synchronisation); a single pair has no pairs to share, so its threads split each
// anti-diagonal of the ITWED sweep instead, meeting at a barrier per diagonal.
#include "problem.hpp"

namespace ladder::twed {
namespace {

double one_pair(const TwedProblem& p, std::int64_t i, std::int64_t j) {
  return itwed_pair(p, i, j, p.pairs() <= 1);
}

const Registrar registrar{cpu_step({.name = "openmp",
                                   .step = 3,
                                   .label = "OpenMP",
                                   .change = "OpenMP threads over pairs (a single pair: over "
                                             "each anti-diagonal)",
                                   .impl = one_pair},
                                  true)};

}  // namespace
}  // namespace ladder::twed
