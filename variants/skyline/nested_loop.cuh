// The seed's parallel nested loop, which steps 4-7 (naive, APC, DWE, ALR) instantiate: a
// thread per point, the block's own points and a tile of other points in shared memory, every
// tile of the set in turn. A step differs only in its policy:
//   Load::tile(pts, to, first, stride): copies points first.. (a block's worth) into shared
//     rows of `stride` floats: from the row-major set point by point (naive), or from the
//     attribute-major set attribute by attribute, so that a warp's loads coalesce (APC);
//   Test::dominated(tile_row, own_row, d, alive): whether a tile point dominates the thread's
//     point: with the early-exit loop and a break out of the tile on domination (naive, APC),
//     or branch-free over every attribute and every tile point (DWE, ALR);
//   the row stride: d, or d + 1 when d is even so that a warp's rows start in different
//     shared-memory banks (ALR).
// A block stops once all its points are dominated.
#pragma once
#include <string>

#include "../../harness/shared_memory.cuh"
#include "gpu_step.cuh"

namespace ladder::skyline {

// Point by point: thread t copies its point's d attributes (a warp's loads are d floats apart).
struct LoadRows {
  static __device__ void tile(const Points& pts, float* to, std::int64_t first, int stride) {
    const std::int64_t i = first + threadIdx.x;
    if (i < pts.n)
      for (int k = 0; k < pts.d; ++k) to[threadIdx.x * stride + k] = pts.rows[i * pts.d + k];
  }
};

// Attribute by attribute from the attribute-major copy: a warp reads 32 consecutive floats.
struct LoadColumns {
  static __device__ void tile(const Points& pts, float* to, std::int64_t first, int stride) {
    const std::int64_t i = first + threadIdx.x;
    if (i < pts.n)
      for (int k = 0; k < pts.d; ++k) to[threadIdx.x * stride + k] = pts.cols[k * pts.n + i];
  }
};

// Figure 7: stop at the first tile point that dominates.
struct TestWithBreak {
  static __device__ bool dominated(const float* tile, int count, const float* own, int d,
                                   int stride) {
    for (int j = 0; j < count; ++j)
      if (dominates(tile + j * stride, own, d)) return true;
    return false;
  }
};

// Figure 8 over the whole tile: every thread runs the same instructions.
struct TestBranchFree {
  static __device__ bool dominated(const float* tile, int count, const float* own, int d,
                                   int stride) {
    int any = 0;
    for (int j = 0; j < count; ++j) any |= dominates_branch_free(tile + j * stride, own, d);
    return any;
  }
};

template <class Load, class Test>
__global__ void nested_loop_kernel(Points pts, int stride) {
  extern __shared__ float smem[];
  float* own = smem;
  float* tile = smem + blockDim.x * stride;
  const std::int64_t first = std::int64_t(blockIdx.x) * blockDim.x;
  const std::int64_t i = first + threadIdx.x;
  Load::tile(pts, own, first, stride);
  bool alive = i < pts.n;
  for (std::int64_t base = 0; base < pts.n; base += blockDim.x) {
    __syncthreads();  // the previous tile is no longer read
    Load::tile(pts, tile, base, stride);
    __syncthreads();
    const int count = pts.n - base < blockDim.x ? int(pts.n - base) : int(blockDim.x);
    // A dominated thread sits the tile out (a warp whose threads all are skips it whole).
    if (alive) alive = !Test::dominated(tile, count, own + threadIdx.x * stride, pts.d, stride);
    if (!__syncthreads_or(alive)) break;
  }
  if (i < pts.n) pts.member[i] = alive;
}

inline ParamSpec threads_param() {
  return {"threads", "256", "threads per block (points per shared-memory tile)",
          ParamSpec::Kind::integer, 32, 1024};
}

inline int row_stride(int d, bool pad_even) { return pad_even && d % 2 == 0 ? d + 1 : d; }

inline std::size_t nested_loop_smem(const SkylineProblem& p, const Params& params, bool pad) {
  return 2 * std::size_t(params.integer("threads")) * row_stride(p.d(), pad) * sizeof(float);
}

// A nested-loop step: its set-up and its shared-memory limit. The facts are what the seed's
// argument rests on: the row stride, and how many threads of a warp read the same bank when
// each reads its own row (the stride's common factor with the 32 banks).
template <class Load, class Test>
GpuStep nested_loop_step(GpuStep s, bool pad) {
  s.params = {threads_param()};
  s.impl = [pad](const SkylineProblem& p, const Params& params, const DeviceCaps&) {
    const int threads = int(params.integer("threads"));
    const int stride = row_stride(p.d(), pad);
    const std::size_t smem = nested_loop_smem(p, params, pad);
    auto kernel = nested_loop_kernel<Load, Test>;
    allow_shared_memory(kernel, smem);
    int ways = 1;
    while (ways < 32 && stride % (2 * ways) == 0) ways *= 2;
    const auto blocks = ceil_div(p.n(), threads);
    return GpuSetup<Points>{
        [=](const Points& pts, cudaStream_t stream) {
          kernel<<<unsigned(blocks), threads, smem, stream>>>(pts, stride);
          LADDER_CUDA_LAUNCH("nested_loop_kernel");
        },
        {{"row_stride", double(stride)},
         {"bank_conflict_ways", double(ways)},
         {"shared_bytes_per_block", double(smem)}}};
  };
  s.limit = [pad](const SkylineProblem& p, const Params& params, const DeviceCaps& d) {
    return shared_memory_reason(nested_loop_smem(p, params, pad), "two tiles of points", d);
  };
  return s;
}

}  // namespace ladder::skyline
