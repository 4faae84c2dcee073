// Points held in registers as D floats, D a compiled width >= d: the attributes past d are
// +inf on both sides, where "not worse" holds and "better" does not, so they never change a
// dominance test. Rows of D floats load as float4 (or float2) when D allows.
#pragma once
#include <cmath>
#include <string>
#include <utility>

#include "../../harness/compiled_set.hpp"
#include "gpu_step.cuh"

namespace ladder::skyline {

// The widths the register steps are compiled for; d takes the first that fits.
using Widths = CompiledSet<1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 32, 48, 64>;
// Calls f(std::integral_constant<int, D>{}) with the first width D >= d of the compiled set.
template <class Set = Widths, class F>
void with_width(int d, F&& f, const std::string& who) {
  Set::first([d](int v) { return v >= d; }, std::forward<F>(f), who);
}
inline int width_for(int d) {
  int w = 0;
  with_width(d, [&w](auto v) { w = decltype(v)::value; }, "width");
  return w;
}

template <int D>
__device__ __forceinline__ void load_row(const float* src, float (&p)[D]) {
  if constexpr (D % 4 == 0) {
#pragma unroll
    for (int k = 0; k < D; k += 4) {
      const float4 v = reinterpret_cast<const float4*>(src)[k / 4];
      p[k] = v.x, p[k + 1] = v.y, p[k + 2] = v.z, p[k + 3] = v.w;
    }
  } else if constexpr (D % 2 == 0) {
#pragma unroll
    for (int k = 0; k < D; k += 2) {
      const float2 v = reinterpret_cast<const float2*>(src)[k / 2];
      p[k] = v.x, p[k + 1] = v.y;
    }
  } else {
#pragma unroll
    for (int k = 0; k < D; ++k) p[k] = src[k];
  }
}

// Point i of the attribute-major set, padded; +inf everywhere past the end of the set.
template <int D>
__device__ __forceinline__ void load_column_point(const Points& pts, std::int64_t i, float (&p)[D]) {
#pragma unroll
  for (int k = 0; k < D; ++k) p[k] = i < pts.n && k < pts.d ? pts.cols[k * pts.n + i] : INFINITY;
}

// p <= q everywhere: one compare-and-accumulate per attribute.
template <int D>
__device__ __forceinline__ bool not_worse(const float (&p)[D], const float (&q)[D]) {
  bool le = true;
#pragma unroll
  for (int k = 0; k < D; ++k) le = le && p[k] <= q[k];
  return le;
}

// Given p <= q everywhere, p dominates q unless they are equal. The second pass runs only
// when the first holds, which is rare, so the common test costs one compare per attribute.
template <int D>
__device__ __forceinline__ bool dominates_padded(const float (&p)[D], const float (&q)[D]) {
  if (!not_worse(p, q)) return false;
  bool better = false;
#pragma unroll
  for (int k = 0; k < D; ++k) better = better || p[k] < q[k];
  return better;
}

}  // namespace ladder::skyline
