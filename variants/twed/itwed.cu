// Step 4: ITWED on the GPU, cuTWED's structure for one pair. Step 2's anti-diagonal sweep
// moves to the device: each anti-diagonal k = 0..n+m is one kernel launch with a thread per
// cell, reading diagonals k-1 and k-2 from global memory and writing k (three buffers of
// n + 1 entries, indexed by row, rotated by pointer swap between launches). The cells of a
// diagonal are independent, so a long pair fills the GPU; a short one is all launch
// overhead, n + m + 1 launches per pair. Batch and triangle modes simply run the pairs one
// after the other (triangle: i < j only), as a caller of cuTWED's single-pair function would.
#include "diagonal_sweep.cuh"

namespace ladder::twed {
namespace {

// About 10 s of launch overhead at ~2.5 us a launch.
constexpr double kMaxLaunches = double(1 << 22);

template <class T>
Setup<T> setup(const TwedProblem& p, const Params& params, const DeviceCaps&) {
  const std::int64_t total = p.pairs();
  if (p.mode == Mode::triangle)
    return sweep_setup<T>(p, params, TrianglePairs{p.rows()}, total, 1);
  return sweep_setup<T>(p, params, RowMajorPairs{p.cols()}, total, 1);
}

std::string limit(const TwedProblem& p, const Params&, const DeviceCaps&) {
  if (double(p.pairs()) * double(p.n() + p.m() + 1) > kMaxLaunches)
    return "more than 2^22 (4.2 million) kernel launches, one per diagonal of each pair: "
           "use the batch step";
  return "";
}

template <class T>
GpuStep<T> make() {
  return {.name = "itwed",
          .step = 4,
          .label = "ITWED, launch per diagonal",
          .change = "step 2's anti-diagonal sweep on the GPU: a launch per diagonal, a thread "
                    "per cell, three diagonals in global memory; pairs one after the other",
          .params = {diagonal_block_param()},
          .impl = setup<T>,
          .limit = limit,
          .scratch_bytes = [](const TwedProblem& p, const Params&) {
            return sweep_scratch_bytes(p, sizeof(T), 1);
          }};
}

const Registrar r64{gpu_step<double>(make<double>())}, r32{gpu_step<float>(make<float>())};

}  // namespace
}  // namespace ladder::twed
