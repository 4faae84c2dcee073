// Skyline study (Min, Han and Lee 2010): the points of a set that no other point dominates,
// minimising every attribute. p dominates q when p <= q in every attribute and p < q in at
// least one; exact duplicates do not dominate each other, so both stay. The output is one
// int32 per point, 1 for a skyline point and 0 otherwise (so a sampled check stays O(n d) per
// point); dumps and figures see the sorted ids. Validation is exact.
#pragma once
#include <cstdint>
#include <vector>

#include "../../datagen/points.hpp"
#include "../../harness/hd.hpp"
#include "../../harness/step.hpp"

namespace ladder::skyline {

struct SkylineProblem : Problem {
  PointSet points;
  std::int64_t n() const { return points.n; }
  int d() const { return points.d; }
};

// Does p dominate q? The loop form of the seed's Figure 7, stopping as soon as the answer is
// known: an attribute where p is worse settles it.
LADDER_HD inline bool dominates(const float* p, const float* q, int d) {
  bool strictly = false;
  for (int k = 0; k < d; ++k) {
    if (p[k] > q[k]) return false;
    strictly |= p[k] < q[k];
  }
  return strictly;
}

// Figure 8 of the seed: ands of the per-attribute "not worse" and "equal" bits, no branch; the
// result is "not worse anywhere" xor "equal everywhere".
LADDER_HD inline int dominates_branch_free(const float* p, const float* q, int d) {
  int not_worse = 1, equal = 1;
  for (int k = 0; k < d; ++k) {
    not_worse &= int(p[k] <= q[k]);
    equal &= int(p[k] == q[k]);
  }
  return not_worse ^ equal;
}

// The sort key of the sort-first steps: the attribute sum in float, added in attribute order.
// Rounding is monotone, so a dominator's sum is never larger; equal sums are ordered by the
// attributes themselves, so a dominator always comes first.
LADDER_HD inline float attribute_sum(const float* p, int d) {
  float s = 0.f;
  for (int k = 0; k < d; ++k) s += p[k];
  return s;
}

// Point ids in sort-filter order: by attribute sum, then lexicographically, then by id.
std::vector<std::int64_t> sum_order(const PointSet& pts, bool parallel = true);

// The skyline membership of every point by a blocked sort-filter pass, parallel over each
// block's points (the OpenMP step and the full reference).
void skyline_sort_filter(const PointSet& pts, std::int32_t* member);

// Whether point i is dominated by any point: O(n d), for sampled validation.
bool dominated_by_any(const PointSet& pts, std::int64_t i);

// Host bytes every CPU step needs beyond the points: the flags and an order or window.
inline double host_bytes(const SkylineProblem& p) {
  return 4.0 * double(p.n()) + 8.0 * double(p.n()) + 4.0 * double(p.n()) * p.d();
}

using CpuStep = Step<SkylineProblem, HostCompute<SkylineProblem, std::int32_t>>;
inline VariantSpec cpu_step(CpuStep s) {
  s.precision = Precision::fp32;
  return host_variant<SkylineProblem, std::int32_t>(
      "skyline", std::move(s),
      [](const SkylineProblem& p) { return std::vector<std::size_t>{std::size_t(p.n())}; },
      host_bytes);
}

}  // namespace ladder::skyline
