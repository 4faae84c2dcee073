// Step 7, ALR (avoiding bank conflicts by padding the rows): the tile's rows are padded so
// that a warp's row stores fall in different shared-memory banks. With the thread's own point
// in registers and tile rows read by broadcast, those stores are the only shared accesses
// that can conflict: rows of 8k floats, stored as float4, get 4 more floats (an odd number of
// float4s); other widths already spread over all 32 banks and are left as they are.
#include "nested_loop.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    nested_loop_step<LoadColumns, TestBranchFree>(
        {.name = "alr",
         .step = 7,
         .label = "ALR",
         .change = "rows padded so that a warp's row stores hit different banks: no "
                   "shared-memory bank conflicts"},
        true),
    true)};

}  // namespace
}  // namespace ladder::skyline
