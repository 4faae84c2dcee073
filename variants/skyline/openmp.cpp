// Step 3: the faster CPU algorithm, sort-filter, on every core. The sorted points go in
// blocks: each block's points are checked against the skyline so far in parallel, then the
// survivors against the survivors before them in the block (in parallel too), and the block's
// skyline is appended in order. A dominated point always has a skyline dominator before it,
// which is either in the skyline so far or a survivor of its own block, so the result is
// exact. Each point also carries a bit per attribute (above that attribute's mean or not): a
// point whose bits are not a subset of q's cannot dominate q, which one AND settles before
// any attribute is compared. This function is also the reference for full validation.
#include <algorithm>

#include "problem.hpp"

namespace ladder::skyline {
namespace {

constexpr std::int64_t kBlock = 4096;

bool dominated_by(const float* rows, const std::uint32_t* masks, std::int64_t count,
                  const float* q, std::uint32_t mq, int d) {
  for (std::int64_t s = 0; s < count; ++s)
    if ((masks[s] & ~mq) == 0 && dominates(rows + s * d, q, d)) return true;
  return false;
}

// Bit k: attribute k (of the first 32) above the set's mean of it.
std::vector<std::uint32_t> cell_masks(const PointSet& pts) {
  std::vector<double> mean(std::size_t(pts.d), 0.0);
  for (std::int64_t i = 0; i < pts.n; ++i)
    for (int k = 0; k < pts.d; ++k) mean[k] += pts.point(i)[k];
  for (double& m : mean) m /= double(std::max<std::int64_t>(pts.n, 1));
  std::vector<std::uint32_t> mask(std::size_t(pts.n));
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < pts.n; ++i)
    for (int k = 0; k < pts.d && k < 32; ++k)
      mask[i] |= std::uint32_t(pts.point(i)[k] > mean[k]) << k;
  return mask;
}

}  // namespace

void skyline_sort_filter(const PointSet& pts, std::int32_t* member) {
  const int d = pts.d;
  const std::vector<std::int64_t> order = sum_order(pts);
  const std::vector<std::uint32_t> mask = cell_masks(pts);
  std::fill(member, member + pts.n, 0);
  std::vector<float> sky;                   // the skyline so far, row-major
  std::vector<std::uint32_t> sky_mask;      // and its points' masks
  std::vector<float> cand(kBlock * d);      // a block's survivors of the first check, in order
  std::vector<std::uint32_t> cand_mask(kBlock);
  std::vector<char> alive(kBlock);
  for (std::int64_t b = 0; b < pts.n; b += kBlock) {
    const std::int64_t len = std::min(kBlock, pts.n - b);
    const std::int64_t size = std::int64_t(sky.size()) / std::max(d, 1);
#pragma omp parallel for schedule(dynamic, 16)
    for (std::int64_t t = 0; t < len; ++t)
      alive[t] = !dominated_by(sky.data(), sky_mask.data(), size, pts.point(order[b + t]),
                               mask[order[b + t]], d);
    std::vector<std::int64_t> ids;
    for (std::int64_t t = 0; t < len; ++t)
      if (alive[t]) {
        const float* q = pts.point(order[b + t]);
        std::copy(q, q + d, cand.begin() + std::int64_t(ids.size()) * d);
        cand_mask[ids.size()] = mask[order[b + t]];
        ids.push_back(order[b + t]);
      }
    const auto count = std::int64_t(ids.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (std::int64_t t = 0; t < count; ++t)
      alive[t] = !dominated_by(cand.data(), cand_mask.data(), t, cand.data() + t * d,
                               cand_mask[t], d);
    for (std::int64_t t = 0; t < count; ++t)
      if (alive[t]) {
        sky.insert(sky.end(), cand.begin() + t * d, cand.begin() + (t + 1) * d);
        sky_mask.push_back(cand_mask[t]);
        member[ids[t]] = 1;
      }
  }
}

namespace {

const Registrar registrar{
    cpu_step({.name = "openmp",
              .step = 3,
              .label = "OpenMP sort-filter",
              .change = "sort-filter on every core: blocks of 4096 sorted points checked in "
                        "parallel against the skyline so far, then against each other; "
                        "attribute-mean bits skip pairs that cannot dominate",
              .impl = [](const SkylineProblem& p, std::int32_t* member) {
                skyline_sort_filter(p.points, member);
              }})};

}  // namespace
}  // namespace ladder::skyline
