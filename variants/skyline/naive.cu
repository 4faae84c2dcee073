// Step 4: the seed's naive parallel nested loop. A thread per point against shared-memory tiles
// of every point, each tile point copied point by point from the row-major set (a warp's loads
// are d floats apart); the dominance test is the CPU's loop with early exits, and a thread
// leaves the tile as soon as one point dominates it. As in every nested-loop step, d is
// compiled in, the thread's point lives in registers and tile rows are read whole by
// broadcast, so that the steps after it differ only by what the seed changes.
#include "nested_loop.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    nested_loop_step<LoadRows, TestWithBreak>(
        {.name = "naive",
         .step = 4,
         .label = "naive nested loop",
         .change = "a thread per point against shared-memory tiles of every point, early "
                   "breaks as on the CPU (d compiled in, own point in registers)"},
        false),
    false)};

}  // namespace
}  // namespace ladder::skyline
