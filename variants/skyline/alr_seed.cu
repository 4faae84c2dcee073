// Step 15: step 7 (ALR) in the seed's own form. The seed's attribute layout reorganisation
// (its section 4.3, Figure 9): when d is even, one padding value after the last attribute, so
// that rows start an odd number of words apart and the lanes reading attribute k of their
// own rows hit 32 different banks (the fact `bank_conflict_ways` is 1). Everything else is
// step 14. Step 7 pads for a different access: with the point in registers only its row
// stores can conflict, and those only at rows of 8k floats, so it pads by 4 floats there.
// Kept so that the seed's ALR gains (82-83% over DWE, about 80% over naive) are judged on the
// conflicts they were measured against.
#include "nested_loop.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    nested_loop_step<LoadColumns, TestBranchFree, Form::seed>(
        {.name = "alr_seed",
         .step = 15,
         .label = "ALR (seed's form)",
         .change = "step 14 with rows padded to an odd stride: no shared-memory bank conflicts "
                   "(step 7 as the seed wrote it)"},
        true),
    true)};

}  // namespace
}  // namespace ladder::skyline
