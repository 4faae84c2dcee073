// The FP32 core of steps 6 and 11: one row of X's contribution to a thread's 8 x 8 register
// tile. Thread (ty, tx) owns rows 4 ty .. +3 and 64 + 4 ty .. +3 of a 128 x 128 tile of C by
// the same columns in tx; from a row of the i strip and a row of the j strip (128 floats each
// in shared memory, 16-byte aligned) it reads four 16-byte words and does 64 FMAs. A warp
// (two ty, sixteen tx) reads two broadcast words and sixteen consecutive ones: no conflicts.
#pragma once

namespace ladder::covariance {

__device__ __forceinline__ void outer_product_8x8(float (&acc)[8][8], const float* a_row,
                                                  const float* b_row, int ty, int tx) {
  const float4 a0 = *reinterpret_cast<const float4*>(a_row + 4 * ty);
  const float4 a1 = *reinterpret_cast<const float4*>(a_row + 64 + 4 * ty);
  const float4 b0 = *reinterpret_cast<const float4*>(b_row + 4 * tx);
  const float4 b1 = *reinterpret_cast<const float4*>(b_row + 64 + 4 * tx);
  const float a[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
  const float b[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
  for (int r = 0; r < 8; ++r)
#pragma unroll
    for (int c = 0; c < 8; ++c) acc[r][c] = fmaf(a[r], b[c], acc[r][c]);
}

}  // namespace ladder::covariance
