// Step 10 (beyond the notes): warp per series, DP cells in registers. A warp's 32 lanes
// split the subject's columns (C = n/32 each, kept in registers with their subject values)
// and sweep the query rows as a wavefront across the lanes, passing the boundary cell and the
// query value to the next lane by warp shuffles. No DP cell ever touches memory, and the
// subject is read once, so the kernel is bound by arithmetic instead of by the per-cell loads
// and stores of the earlier steps. Supports n <= 1024 and the Sakoe-Chiba band.
#include "warp_wavefront.cuh"

namespace ladder::dtw {
namespace {

Setup setup(const DtwProblem& p, const Params&, const DeviceCaps&) {
  return warp_wavefront_setup<float, true>(p, 32, 1.f);
}

std::string limit(const DtwProblem& p, const Params&, const DeviceCaps&) {
  return warp_length_limit(p.n(), 32);
}

const Registrar registrar{gpu_step(
    {.name = "warp_shuffle",
     .step = 10,
     .label = "warp shuffles",
     .change = "warp per series: DP cells in registers, boundaries by warp shuffles",
     .impl = setup,
     .limit = limit})};

}  // namespace
}  // namespace ladder::dtw
