// Step 1, the baseline: block nested loop (Borzsonyi, Kossmann and Stocker 2001), the seed's
// CPU algorithm. One pass keeps a window of mutually incomparable points: a new point is
// dropped when a window point dominates it, evicts the window points it dominates, and joins
// the window otherwise. With the whole window in memory, one pass leaves exactly the skyline.
#include <algorithm>

#include "problem.hpp"

namespace ladder::skyline {
namespace {

void block_nested_loop(const SkylineProblem& p, std::int32_t* member) {
  const PointSet& pts = p.points;
  std::vector<std::int64_t> window;
  for (std::int64_t i = 0; i < pts.n; ++i) {
    const float* q = pts.point(i);
    bool dominated = false;
    for (std::size_t w = 0; w < window.size();) {
      const float* o = pts.point(window[w]);
      if (dominates(o, q, pts.d)) {
        // Window points are incomparable, so q, dominated by one, dominates none of them.
        dominated = true;
        break;
      }
      if (dominates(q, o, pts.d)) {
        window[w] = window.back();
        window.pop_back();
      } else {
        ++w;
      }
    }
    if (!dominated) window.push_back(i);
  }
  std::fill(member, member + pts.n, 0);
  for (std::int64_t i : window) member[i] = 1;
}

const Registrar registrar{cpu_step({.name = "seq_bnl",
                                    .step = 1,
                                    .label = "block nested loop",
                                    .change = "baseline: one pass with a window of incomparable "
                                              "points (the seed's CPU algorithm)",
                                    .role = Role::baseline,
                                    .impl = block_nested_loop})};

}  // namespace
}  // namespace ladder::skyline
