// Step 2: sort-filter skyline (Chomicki et al. 2003). Sorted by attribute sum (ties by the
// attributes), a point can only be dominated by a point before it, so the window only grows:
// every point that survives the skyline found so far is final. The window holds copies of
// the skyline points, contiguous, so the inner loop streams through memory.
#include <algorithm>

#include "problem.hpp"

namespace ladder::skyline {
namespace {

void sort_filter(const SkylineProblem& p, std::int32_t* member) {
  const PointSet& pts = p.points;
  const int d = pts.d;
  std::fill(member, member + pts.n, 0);
  std::vector<float> sky;  // the skyline so far, row-major
  std::int64_t size = 0;
  for (std::int64_t i : sum_order(pts, false)) {
    const float* q = pts.point(i);
    bool dominated = false;
    for (std::int64_t s = 0; s < size && !dominated; ++s)
      dominated = dominates(sky.data() + s * d, q, d);
    if (dominated) continue;
    sky.insert(sky.end(), q, q + d);
    ++size;
    member[i] = 1;
  }
}

const Registrar registrar{cpu_step({.name = "seq_sfs",
                                    .step = 2,
                                    .label = "sort-filter",
                                    .change = "sort by attribute sum first: a point is checked "
                                              "only against the skyline found before it",
                                    .impl = sort_filter})};

}  // namespace
}  // namespace ladder::skyline
