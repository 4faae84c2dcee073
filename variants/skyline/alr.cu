// Step 7, ALR (attribute layout reorganisation): with an even number of attributes, the
// threads of a warp reading attribute k of their own rows hit the same few shared-memory
// banks (d = 8: 8 threads per bank). One padding float per row makes the stride odd, so the
// 32 rows start in 32 different banks and every read is one wavefront.
#include "nested_loop.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    nested_loop_step<LoadColumns, TestBranchFree>(
        {.name = "alr",
         .step = 7,
         .label = "ALR",
         .change = "rows padded to an odd stride: no shared-memory bank conflicts"},
        true),
    true)};

}  // namespace
}  // namespace ladder::skyline
