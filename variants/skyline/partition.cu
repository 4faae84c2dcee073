// Step 10, partition masks (after SkyAlign, Bogh et al. 2015): every point gets a grid cell,
// its level per attribute among up to three thresholds (the low mean, the mean, the high mean:
// SkyAlign's median and quartile levels, estimated from a sample), written as thermometer
// bits, so a point can only dominate points whose bits include its own. The sort-filter passes
// of step 9 take each block's candidates in cell order, so a warp's lanes share a cell, and
// skip whole 32-point slices of the skyline, or single points, that cannot dominate any lane:
// most pairs are never compared. Three levels where 32 bits hold them (d <= 10) prune more
// pairs than one bit per attribute: a random pair passes an attribute's level test with
// probability 5/8 rather than 3/4. Before a slice's per-point loop, one vote drops every
// skyline point whose bits lie outside each group's union of lane bits (`lane_groups`, 16
// groups of two lanes by default): at high d the lanes' cells differ, slices are rarely
// skipped whole, and the loop would otherwise visit every point of the slice.
#include "sort_filter.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    sort_filter_step<true>({.name = "partition",
                            .step = 10,
                            .label = "partition masks",
                            .change = "grid cells (thermometer bits of up to 3 levels per "
                                      "attribute); candidates in cell order; slices and points "
                                      "whose cells cannot dominate are skipped"}),
    false)};

}  // namespace
}  // namespace ladder::skyline
