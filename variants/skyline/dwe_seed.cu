// Step 14: step 6 (DWE) in the seed's own form. The seed's divergent warp elimination (its
// section 4.2, Figure 8): the dominance test as ands of per-attribute "not worse" and "equal"
// bits over every attribute, with no branch and no break inside a tile. As the seed's code,
// the thread's own point stays in its shared row with d a run-time value, so the test reads
// all d attributes of it at every pair: at an even d the lanes of a warp meet in
// gcd(d, 32) banks (d = 8: 8-way, d = 16: 16-way conflicts), which is why the seed found DWE
// slower than naive at d = 8 and 16, and slower at d = 8 than at d = 9 (its Fig. 11c). Step 6
// keeps the point in registers and reads tile rows by broadcast, where those conflicts cannot
// arise. Kept so that the seed's DWE claims are judged on its technique.
#include "nested_loop.cuh"

namespace ladder::skyline {
namespace {

const Registrar registrar{gpu_step(
    nested_loop_step<LoadColumns, TestBranchFree, Form::seed>(
        {.name = "dwe_seed",
         .step = 14,
         .label = "DWE (seed's form)",
         .change = "step 13 with the branch-free test (ands of per-attribute bits) over whole "
                   "tiles (step 6 as the seed wrote it)"},
        false),
    true)};

}  // namespace
}  // namespace ladder::skyline
