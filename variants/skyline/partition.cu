// Step 10, partition masks (after SkyAlign, Bogh et al. 2015): every point gets a bit per
// attribute, set when it lies above that attribute's mean, so the space is cut into 2^d
// cells. A point can only dominate points in cells whose bits include its own; the sort-filter
// passes of step 9 take each block's candidates in cell order, so a warp's lanes share a cell,
// and skip whole 32-point slices of the skyline, or single points, that cannot dominate any
// lane: most pairs are never compared.
#include "sort_filter.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    sort_filter_step<true>({.name = "partition",
                            .step = 10,
                            .label = "partition masks",
                            .change = "median-style cell bits per point; candidates in cell "
                                      "order; slices whose cells cannot dominate are skipped"}),
    false)};

}  // namespace
}  // namespace ladder::skyline
