// Step 11 (beyond the notes): sub-warp groups. With n = 128 a whole warp gives each lane only
// 4 columns, so per step the two shuffles and the loop cost as much as the 4 cells, and the
// wavefront's fill and drain idle 31 of n + 31 steps. Groups of G = 4..16 lanes (several
// series per warp) give each lane more columns (C = n/G, 16 by default): more cells per
// shuffle and only G - 1 idle steps per series. Supports the Sakoe-Chiba band.
#include "warp_wavefront.cuh"

namespace ladder::dtw {
namespace {

Setup setup(const DtwProblem& p, const Params& params, const DeviceCaps&) {
  return warp_wavefront_setup<float, true>(p, lanes_for(p.n(), params), 1.f);
}

std::string limit(const DtwProblem& p, const Params& params, const DeviceCaps&) {
  return warp_length_limit(p.n(), lanes_for(p.n(), params));
}

const Registrar registrar{gpu_step(
    {.name = "subwarp",
     .step = 11,
     .label = "sub-warp groups",
     .change = "sub-warp groups: fewer lanes per series, more cells per lane and per shuffle",
     .params = {lanes_param()},
     .impl = setup,
     .limit = limit})};

}  // namespace
}  // namespace ladder::dtw
