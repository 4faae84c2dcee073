// Step 1: the sequential baseline, the paper's sequential H: the preprocessing table P of A
// (serially), then the full (n+1) x (m+1) table row by row, one pair after another.
#include "problem.hpp"

namespace ladder::eed {
namespace {

const Registrar registrar{cpu_step(
    {.name = "seq",
     .step = 1,
     .label = "sequential, full table",
     .change = "baseline: Lowrance-Wagner's full table with the last-occurrence table P",
     .role = Role::baseline,
     .impl = full_pair,
     .scratch_bytes = [](const EedProblem& p, const Params&) { return full_table_bytes(p); }},
    false)};

}  // namespace
}  // namespace ladder::eed
