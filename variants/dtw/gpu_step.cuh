// What every DTW GPU step shares: its launch arguments and the helpers of the per-thread
// steps (block size, the shared-memory DP rows).
#pragma once
#include "../../harness/compiled_set.hpp"
#include "../../harness/pairwise_gpu.cuh"
#include "../../harness/shared_memory.cuh"
#include "problem.hpp"

namespace ladder::dtw {

struct DtwArgs {
  int band;  // Sakoe-Chiba radius, >= n when unconstrained
};
using DeviceData = PairLaunch<DtwArgs>;
using Setup = PairSetup<DtwArgs>;
using GpuStep = GpuPairStep<DtwProblem, DtwArgs>;

inline VariantSpec gpu_step(GpuStep s) {
  return gpu_pair_variant<DtwProblem, DtwArgs>("dtw", std::move(s),
                                               [](const DtwProblem& p) { return DtwArgs{p.band}; });
}

inline ParamSpec block_size_param() {
  return {"block_size", "32", "threads per block (the notes use 32)", ParamSpec::Kind::integer,
          1, 1024};
}

// Steps that cannot honour a Sakoe-Chiba band refuse banded points.
inline std::string no_band(const DtwProblem& p, const Params&, const DeviceCaps&) {
  return p.banded() ? "no Sakoe-Chiba band in this step" : "";
}

// The steps that keep each thread's two DP rows in dynamic shared memory (6, 7b, 8).
inline std::size_t shared_rows_bytes(std::int64_t n, std::int64_t block) {
  return static_cast<std::size_t>(block) * 2 * (n + 1) * sizeof(float);
}

inline std::string shared_rows_limit(const DtwProblem& p, const Params& params,
                                     const DeviceCaps& d) {
  const std::int64_t block = params.integer("block_size");
  return shared_memory_reason(shared_rows_bytes(p.n(), block),
                              "the DP rows of " + std::to_string(block) + " threads", d);
}

// Steps 6 and 7b: a thread per series, its two DP rows in the block's dynamic shared memory
// (opted in here, before anything is timed); 7b reads its subjects time-major.
using RowsKernel = void (*)(const float* query, const float* series, float* dist,
                            std::int64_t entries, int n, int band);
inline Setup shared_rows_setup(RowsKernel kernel, const DtwProblem& p, const Params& params,
                              bool time_major) {
  const int block = int(params.integer("block_size"));
  const std::size_t bytes = shared_rows_bytes(p.n(), block);
  allow_shared_memory(kernel, bytes);
  return {[kernel, block, bytes](const DeviceData& d, cudaStream_t stream) {
            kernel<<<unsigned(ceil_div(d.entries, block)), block, bytes, stream>>>(
                d.query, d.series, d.dist, d.entries, static_cast<int>(d.n), d.args.band);
            LADDER_CUDA_LAUNCH("shared-rows kernel");
          },
          time_major};
}

// Two DP rows per thread in a global-memory cache (steps 4 and 7a).
inline double global_rows_bytes(const DtwProblem& p, const Params&) {
  return 4.0 * double(p.entries()) * 2 * double(p.n() + 1);
}

}  // namespace ladder::dtw
