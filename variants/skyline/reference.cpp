// What the CPU steps and the reference share: the sort-filter order and the one-point check
// of sampled validation.
#include <algorithm>
#include <numeric>

#include "problem.hpp"

namespace ladder::skyline {

std::vector<std::int64_t> sum_order(const PointSet& pts, bool parallel) {
  std::vector<float> sum(std::size_t(pts.n));
#pragma omp parallel for schedule(static) if (parallel)
  for (std::int64_t i = 0; i < pts.n; ++i) sum[i] = attribute_sum(pts.point(i), pts.d);
  std::vector<std::int64_t> order(std::size_t(pts.n));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    if (sum[a] != sum[b]) return sum[a] < sum[b];
    const float *pa = pts.point(a), *pb = pts.point(b);
    for (int k = 0; k < pts.d; ++k)
      if (pa[k] != pb[k]) return pa[k] < pb[k];
    return a < b;
  });
  return order;
}

bool dominated_by_any(const PointSet& pts, std::int64_t i) {
  const float* q = pts.point(i);
  for (std::int64_t j = 0; j < pts.n; ++j)
    if (dominates(pts.point(j), q, pts.d)) return true;
  return false;
}

}  // namespace ladder::skyline
