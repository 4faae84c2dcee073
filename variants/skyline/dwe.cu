// Step 6, DWE (divergent warp elimination): the dominance test of the seed's Figure 8, ands
// of per-attribute bits over every attribute with no branch, and no break inside a tile: the
// threads of a warp run the same instructions, at the price of comparing attributes the
// early-exit test would have skipped.
#include "nested_loop.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    nested_loop_step<LoadColumns, TestBranchFree>(
        {.name = "dwe",
         .step = 6,
         .label = "DWE",
         .change = "branch-free dominance test (ands of per-attribute bits) over whole tiles: no "
                   "divergent warps"},
        false),
    true)};

}  // namespace
}  // namespace ladder::skyline
