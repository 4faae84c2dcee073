// Step 13: step 5 (APC) in the seed's own form. The seed's access pattern change (its section
// 4.1, Figure 6): the set is stored attribute-major, so that the 32 lanes of a warp copying a
// tile read 32 consecutive floats of one attribute, d transactions instead of d floats apart.
// Everything else is step 12: d a run-time value and the thread's own point in shared memory,
// read at every pair, where step 5 has d compiled in and the point in registers. Kept so that
// the seed's APC gain over naive (11-12%) is judged between its own forms of both steps.
#include "nested_loop.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    nested_loop_step<LoadColumns, TestWithBreak, Form::seed>(
        {.name = "apc_seed",
         .step = 13,
         .label = "APC (seed's form)",
         .change = "step 12 with an attribute-major set: tile copies coalesce (step 5 as the "
                   "seed wrote it)"},
        false),
    true)};

}  // namespace
}  // namespace ladder::skyline
