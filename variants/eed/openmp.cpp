// Step 2: OpenMP over pairs. Each thread takes whole pairs with its own full table: pairs are
// independent, so nothing is shared and nothing waits. A single pair runs on one thread.
#include <omp.h>

#include "problem.hpp"

namespace ladder::eed {
namespace {

const Registrar registrar{cpu_step(
    {.name = "openmp",
     .step = 2,
     .label = "OpenMP over pairs",
     .change = "OpenMP threads take whole pairs, each with its own table",
     .impl = full_pair,
     .scratch_bytes = [](const EedProblem& p, const Params&) {
       return full_table_bytes(p) * double(omp_get_max_threads());
     }},
    true)};

}  // namespace
}  // namespace ladder::eed
