// Step 5, APC (access pattern change): the set is stored attribute-major, so the copy of a
// tile goes attribute by attribute and a warp's 32 loads are 32 consecutive floats: one
// 128-byte transaction instead of d of them. Everything else is the naive step.
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
