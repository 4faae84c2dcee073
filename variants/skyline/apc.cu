// Step 5, APC (attribute-major point copies): the set is copied attribute by attribute, so
// that the 32 lanes of a warp read 32 consecutive floats of one attribute when they copy a
// tile, instead of floats d apart. The test is naive's.
#include "nested_loop.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    nested_loop_step<LoadColumns, TestWithBreak>(
        {.name = "apc",
         .step = 5,
         .label = "APC",
         .change = "attribute-major set: tile copies coalesce"},
        false),
    true)};

}  // namespace
}  // namespace ladder::skyline
