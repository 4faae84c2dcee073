// Step 3: OpenMP over pairs in linear memory. The full table is O(nm) per pair (40 GB for a
// pair of 100,000): keep instead, for every symbol, the row above its last occurrence in A,
// which is the only row a swap can reach back to. O(alphabet * m) memory per thread.
#include <omp.h>

#include "problem.hpp"

namespace ladder::eed {
namespace {

const Registrar registrar{cpu_step(
    {.name = "openmp_linear",
     .step = 3,
     .label = "OpenMP, linear memory",
     .change = "for each symbol only the row above its last occurrence, not the whole table",
     .impl = linear_pair,
     .scratch_bytes = [](const EedProblem& p, const Params&) {
       return 4.0 * double(p.alphabet() + 2) * double(p.max_b + 1) * omp_get_max_threads();
     }},
    true)};

}  // namespace
}  // namespace ladder::eed
