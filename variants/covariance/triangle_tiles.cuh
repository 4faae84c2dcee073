// What the tiled lower-triangle steps share: which square tile of C a block owns, how many
// such tiles there are, and how the m rows of X are split into slices (split-K) so that the
// blocks fill whole waves of the device. Only tiles on or below the diagonal are launched;
// off-diagonal tiles are mirrored on store.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "../../harness/hd.hpp"

namespace ladder::covariance {

// Tiles of edge `tile` on or below the diagonal of an n x n matrix.
inline std::int64_t triangle_tiles(std::int64_t n, int tile) {
  const std::int64_t t = ceil_div(n, tile);
  return t * (t + 1) / 2;
}

// Block b's tile (ti, tj), tj <= ti, numbered row by row: b = ti (ti + 1) / 2 + tj.
__device__ __forceinline__ void triangle_tile(int b, int& ti, int& tj) {
  ti = static_cast<int>((sqrtf(8.f * float(b) + 1.f) - 1.f) * 0.5f);
  while ((ti + 1) * (ti + 2) / 2 <= b) ++ti;
  while (ti * (ti + 1) / 2 > b) --ti;
  tj = b - ti * (ti + 1) / 2;
}

// Rows of X per slice: `split` slices when set, otherwise the smallest split (up to
// max_split, each slice at least min_rows rows) whose `tiles` x split blocks fill at least
// min_fill of whole waves of `resident` blocks, else the best found. Rounded up to a multiple
// of k_tile.
inline std::int64_t slice_rows(std::int64_t m, std::int64_t tiles, std::int64_t split,
                               int resident, int k_tile, std::int64_t min_rows, int max_split,
                               double min_fill = 0.95) {
  if (split <= 0) {
    const double slots = double(resident);
    double best_fill = 0;
    split = 1;
    for (std::int64_t s = 1; s <= max_split && (s == 1 || m / s >= min_rows); ++s) {
      const double blocks = double(tiles) * double(s);
      const double fill = blocks / (std::ceil(blocks / slots) * slots);
      if (fill > best_fill + 1e-9) {
        best_fill = fill;
        split = s;
      }
      if (fill >= min_fill) break;
    }
  }
  split = std::max<std::int64_t>(1, std::min(split, m));
  return std::max<std::int64_t>(k_tile, ceil_div(ceil_div(m, split), k_tile) * k_tile);
}

// Entry (i, j), i >= j, of a tile's product: added (split-K) or written, v * inv_m, at C[i][j]
// and at C[j][i]; entries past n or above the diagonal are not stored.
__device__ __forceinline__ void put(float* __restrict__ cov, int n, int i, int j, float v,
                                    bool accumulate) {
  if (i >= n || i < j) return;
  float* a = cov + std::int64_t(i) * n + j;
  float* b = cov + std::int64_t(j) * n + i;
  if (accumulate) {
    atomicAdd(a, v);
    if (i != j) atomicAdd(b, v);
  } else {
    *a = v;
    *b = v;
  }
}

}  // namespace ladder::covariance
