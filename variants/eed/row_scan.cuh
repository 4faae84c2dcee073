// The row-at-a-time form of the recurrence (steps 7 and 8). Every term of H[i][j] but the
// insertion comes from rows above, so a row is computed in parallel in two passes: first
// D[j] = min(diagonal, deletion, swap) and, within each thread's run of columns, the running
// min(D, left + w_ins) with nothing coming from the left; then the true value arriving from
// the left, H[i][j0 - 1] for a run starting at j0, is
//   j0_before * w_ins + min(i * w_del, min over runs r before this one of g_r),
//   g_r = (run r's last value) - (run r's last column) * w_ins,
// an exclusive prefix minimum across threads; the second pass folds it in. Rows computed one
// at a time keep the per-symbol saved rows of the linear-memory recurrence consistent (no
// thread is ever on another row), which anti-diagonal sweeps cannot.
#pragma once
#include <climits>

#include "../../harness/hd.hpp"

namespace ladder::eed {

// Minimum of `v` over lanes before this one (INT_MAX for lane 0).
__device__ __forceinline__ int warp_exclusive_min(int v) {
  const int lane = threadIdx.x % 32;
  for (int d = 1; d < 32; d *= 2) {
    const int t = __shfl_up_sync(kFullWarp, v, d);
    if (lane >= d) v = min(v, t);
  }
  const int before = __shfl_up_sync(kFullWarp, v, 1);
  return lane == 0 ? INT_MAX : before;
}

// Minimum of `v` over threads before this one in the block; `warp_min` is 32 ints of shared
// memory. Every thread of the block must call it; it synchronises the block.
__device__ __forceinline__ int block_exclusive_min(int v, int* warp_min) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int in_warp = warp_exclusive_min(v);
  const int whole = min(in_warp, v);
  if (lane == 31) warp_min[warp] = whole;
  __syncthreads();
  int before = INT_MAX;
  for (int w = 0; w < warp; ++w) before = min(before, warp_min[w]);
  __syncthreads();  // warp_min is reused by the next row
  return min(before, in_warp);
}

}  // namespace ladder::eed
