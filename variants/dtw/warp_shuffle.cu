// Step 10 (beyond the notes): warp per series, DP cells in registers. A warp's 32 lanes
// split the subject's columns (C = n/32 each, kept in registers with their subject values)
// and sweep the query rows as a wavefront across the lanes, passing the boundary cell and the
// query value to the next lane by warp shuffles. No DP cell ever touches memory, and the
// subject is read once, so the kernel is bound by arithmetic instead of by the per-cell loads
// and stores of the earlier steps. Supports n <= 1024 and the Sakoe-Chiba band.
#include "warp_wavefront.cuh"

namespace ladder::dtw {
namespace {

void launch(const DeviceData& d, const Params&) {
  launch_banded_or_not<float, 32, true>(d, 1.f);
}

std::string limit(const DtwProblem& p, const Params&, const DeviceCaps&) {
  return warp_length_limit(p.n(), 32);
}

const Registrar registrar{gpu_variant(
    {"warp_shuffle", 10, "warp per series: DP cells in registers, boundaries by warp shuffles",
     launch, nullptr, limit, true, false, "fp32", {}})};

}  // namespace
}  // namespace ladder::dtw
