// Step 1: the sequential baseline, the paper's sequential H: the preprocessing table P of A
// (serially), then the full (n+1) x (m+1) table row by row, one pair after another.
#include "problem.hpp"

namespace ladder::eed {
namespace {

std::int32_t one_pair(const EedProblem& p, std::int64_t k) {
  return eed_full(p.data.a(k), p.data.a_length(k), p.data.b(k), p.data.b_length(k),
                  p.alphabet(), p.costs);
}

const Registrar registrar{cpu_step(
    {.name = "seq",
     .step = 1,
     .label = "sequential, full table",
     .change = "baseline: Lowrance-Wagner's full table with the last-occurrence table P",
     .role = Role::baseline,
     .plan = one_pair,
     .scratch_bytes = [](const EedProblem& p, const Params&) { return full_table_bytes(p); }},
    false)};

}  // namespace
}  // namespace ladder::eed
