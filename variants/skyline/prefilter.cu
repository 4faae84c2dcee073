// Step 11, pre-filter: step 10 spends most of its time on warps whose lanes are mostly already
// doomed. On independent data nearly every point is dominated by one of the few points of
// lowest attribute sum, so here every point is first tested against the P points of lowest sum
// (a tile at a time from shared memory, a whole block leaving once all its points are beaten),
// the survivors are compacted in sorted order (CUB's DeviceSelect), and only they go through
// step 10's cells and passes: the passes' warps are then full of likely skyline points, and the
// grid is sized for the survivors. On anticorrelated data few points fall to the pruners and
// the test costs little, as most pairs differ at their first attribute.
#include "sort_filter.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    sort_filter_step<true, true>({.name = "prefilter",
                                  .step = 11,
                                  .label = "pre-filter",
                                  .change = "every point first tested against the P points of "
                                            "lowest sum; the survivors, compacted, enter step "
                                            "10's passes"}),
    false)};

}  // namespace
}  // namespace ladder::skyline
