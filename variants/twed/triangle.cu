// Step 6: triangle-only batch. In triangle mode (one list against itself) step 5 computes
// every pair of the rows x rows matrix, though TWED is symmetric and its diagonal is zero.
// Here the sweep covers only the rows (rows - 1) / 2 pairs i < j: a linear pair index maps
// to (i, j) in closed form (a square root, corrected in integers), and the shared mirror
// fills the rest. Half the pairs, so half the cells, the chunks and their launches.
#include "diagonal_sweep.cuh"

namespace ladder::twed {
namespace {

template <class T>
std::int64_t chunk(const TwedProblem& p) {
  return pairs_per_chunk(p, sizeof(T), p.pairs());
}

template <class T>
Setup<T> setup(const TwedProblem& p, const Params& params, const DeviceCaps&) {
  return sweep_setup<T>(p, params, TrianglePairs{p.rows()}, p.pairs(), chunk<T>(p));
}

std::string limit(const TwedProblem& p, const Params&, const DeviceCaps&) {
  return p.mode == Mode::triangle ? "" : "triangle mode only (one list against itself)";
}

template <class T>
GpuStep<T> make() {
  return {.name = "triangle",
          .step = 6,
          .label = "triangle-only batch",
          .change = "triangle mode sweeps only the pairs i < j (closed-form pair index), "
                    "half of step 5's cells",
          .params = {diagonal_block_param()},
          .impl = setup<T>,
          .limit = limit,
          .scratch_bytes = [](const TwedProblem& p, const Params&) {
            return sweep_scratch_bytes(p, sizeof(T), chunk<T>(p));
          }};
}

const Registrar r64{gpu_step<double>(make<double>())}, r32{gpu_step<float>(make<float>())};

}  // namespace
}  // namespace ladder::twed
