// Step 13 (beyond the notes): a cell in three instructions, two chains per lane. Step 11
// spends four instructions on a cell (sub, min, min, FMA) and the H100 issues one warp
// instruction per clock per scheduler, so the FP32 limit is an issue limit. Hopper's DPX
// instructions include a 3-input integer min, and DP cells (sums of squares, or +inf) order
// like their bit patterns as integers: `__vimin3_s32` on the bits replaces both FP32 mins,
// bit-identically. With the min chain shorter, each group of lanes takes two subjects at
// once, so every lane has two independent dependency chains and each shuffle and loop step
// serves twice the cells. Still one launch per query (step 15 changes that). Kernel:
// stream_wavefront.cuh. Supports the Sakoe-Chiba band and n <= 1024.
#include "stream_wavefront.cuh"

namespace ladder::dtw {
namespace {

const Registrar registrar{gpu_step(
    {.name = "dpx_min3",
     .step = 13,
     .label = "DPX min3",
     .change = "3-input integer min (Hopper DPX) on the float bits, two subjects per group",
     .impl = [](const DtwProblem& p, const Params&,
                const DeviceCaps& d) { return stream_setup(p, false, d); },
     .limit = stream_limit,
     .needs = {Feature::dpx}})};

}  // namespace
}  // namespace ladder::dtw
