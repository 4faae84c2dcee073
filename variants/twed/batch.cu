// Step 5: every pair in one sweep (cuTWED's batch). Step 4 pays n + m + 1 launches per pair
// and a short pair's diagonal holds too few cells to fill the GPU. Here a launch per
// anti-diagonal covers every pair at once (grid x: cells of the diagonal, y: pairs), each
// pair with its own three diagonal buffers, so the launch count no longer grows with the
// number of pairs and a launch holds pairs x diagonal cells threads. The buffers of all pairs
// may not fit: pairs are taken in chunks of at most 2^28 bytes of buffers, each chunk its own
// n + m + 1 launches. In triangle mode it computes the whole rows x rows matrix, as cuTWED 2.0
// does; step 6 computes only i < j.
#include "diagonal_sweep.cuh"

namespace ladder::twed {
namespace {

std::int64_t all_pairs(const TwedProblem& p) { return p.rows() * p.cols(); }

template <class T>
std::int64_t chunk(const TwedProblem& p) {
  return pairs_per_chunk(p, sizeof(T), all_pairs(p));
}

template <class T>
Setup<T> setup(const TwedProblem& p, const Params& params, const DeviceCaps&) {
  return sweep_setup<T>(p, params, RowMajorPairs{p.cols()}, all_pairs(p), chunk<T>(p));
}

template <class T>
GpuStep<T> make() {
  return {.name = "batch",
          .step = 5,
          .label = "batch, launch per diagonal",
          .change = "one launch per diagonal covers every pair (chunks of 2^28 bytes of "
                    "diagonal buffers), not a sequence of launches per pair",
          .params = {diagonal_block_param()},
          .impl = setup<T>,
          .scratch_bytes = [](const TwedProblem& p, const Params&) {
            return sweep_scratch_bytes(p, sizeof(T), chunk<T>(p));
          }};
}

const Registrar r64{gpu_step<double>(make<double>())}, r32{gpu_step<float>(make<float>())};

}  // namespace
}  // namespace ladder::twed
