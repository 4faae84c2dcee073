// Step 12: step 4 (naive) in the seed's own form. The seed parallelises the nested loop with
// a thread per point and shared memory as a cache of the points (its section 3): the block's
// own points and a tile of other points sit in shared memory, copied point by point from the
// row-major set, and the test is the CPU's loop with early exits (its Figure 7). Unlike step 4,
// d is a run-time value and each thread reads its own point from its shared row at every
// pair, so the lanes of a warp read rows d floats apart and meet in gcd(d, 32) banks (the fact
// `bank_conflict_ways`). Kept so that the seed's claims on its steps are judged on the form
// they were made for; it is the baseline of steps 13-15, as step 4 is of steps 5-7.
#include "nested_loop.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    nested_loop_step<LoadRows, TestWithBreak, Form::seed>(
        {.name = "naive_seed",
         .step = 12,
         .label = "naive (seed's form)",
         .change = "step 4 as the seed wrote it: d a run-time value, the block's own points in "
                   "shared memory, each thread's row read at every pair"},
        false),
    false)};

}  // namespace
}  // namespace ladder::skyline
