// What the warp-per-pair steps (8 and 9) share on the host: how many columns each lane holds,
// their kernel for that width, the launch over blocks of warps and the length limits. A step
// gives its kernels as a family: Family::kernel<W>() for W = 1, 2, 4, ..., 32.
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>

#include "../../harness/shared_memory.cuh"
#include "gpu_step.cuh"

namespace ladder::eed {

constexpr int kMaxLaneColumns = 32;  // B up to 32 x 32 symbols
using WarpKernel = void (*)(Pairs, int);

// The narrowest W (a power of two) whose 32 lanes cover the longest B.
inline int lane_columns(std::int64_t m) {
  int W = 1;
  while (32 * W < m) W *= 2;
  return W;
}

template <class Family>
WarpKernel warp_kernel_for(int W) {
  switch (W) {
    case 1: return Family::template kernel<1>();
    case 2: return Family::template kernel<2>();
    case 4: return Family::template kernel<4>();
    case 8: return Family::template kernel<8>();
    case 16: return Family::template kernel<16>();
    default: return Family::template kernel<32>();
  }
}

// A launch of `warps` warps per block with `smem` bytes each, as many blocks as stay resident
// on the device and no more than the pairs need; the facts say what was chosen.
inline EedSetup warp_setup(WarpKernel kernel, int W, int warps, std::size_t smem,
                           std::size_t store_bytes, const EedProblem& p, const DeviceCaps& d) {
  allow_shared_memory(kernel, smem);
  int per_sm = 0;
  LADDER_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * warps, smem));
  const std::int64_t needed = ceil_div(p.pairs(), warps);
  const unsigned blocks = unsigned(std::clamp<std::int64_t>(
      std::int64_t(std::max(per_sm, 1)) * d.sm_count, 1, std::max<std::int64_t>(needed, 1)));
  return {{},
          [=](const Pairs& v, cudaStream_t stream) {
            kernel<<<blocks, 32 * warps, smem, stream>>>(v, warps);
            LADDER_CUDA(cudaGetLastError());
          },
          {{"columns_per_lane", double(W)},
           {"warps_per_block", double(warps)},
           {"blocks", double(blocks)},
           {"blocks_per_sm", double(per_sm)},
           {"store_bytes", double(store_bytes)},
           {"shared_bytes_per_block", double(smem)}}};
}

// Why the pairs are too long for a warp per pair ("" when they are not).
inline std::string lane_columns_reason(const EedProblem& p) {
  if (p.max_b > 32 * kMaxLaneColumns)
    return "B strings of " + std::to_string(p.max_b) + " symbols exceed a warp's " +
           std::to_string(32 * kMaxLaneColumns) +
           " register columns (the linear step takes any length)";
  if (p.max_a >= (std::int64_t(1) << 30)) return "A strings too long for 32-bit row indices";
  return "";
}

}  // namespace ladder::eed
