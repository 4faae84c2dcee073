// Step 9, sort-filter: the work-efficient algorithm the nested loop gave way to. Sorted by
// attribute sum on the GPU (CUB's radix sort), the points are filtered a block at a time
// against the skyline found so far, then within the block, then appended (sort_filter.cuh).
// A point is compared only with points that come before it and with skyline points, and a
// warp stops as soon as all its candidates are dominated: on 10^6 anticorrelated points at
// d = 8 that is a small share of the nested loop's n^2 tests.
#include "sort_filter.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    sort_filter_step<false>({.name = "sort_filter",
                             .step = 9,
                             .label = "sort-filter",
                             .change = "sort by attribute sum, then filter blocks against the "
                                       "skyline so far: only earlier points are compared"}),
    false)};

}  // namespace
}  // namespace ladder::skyline
