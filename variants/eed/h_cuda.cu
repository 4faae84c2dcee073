// Step 5: H_CUDA, the paper's multi-block step: one block per pair, so pairs run at once on
// every multiprocessor instead of one after another on one. Still global memory only. Each
// block owns a table slot and takes pairs in turn; there are as many slots as fit in 4 GiB.
#include "global_table.cuh"

namespace ladder::eed {
namespace {

constexpr double kSlotBudget = 4.0 * (1ull << 30);

__global__ void block_per_pair_kernel(Pairs v, const std::int32_t* tables,
                                      const std::int64_t* toff, std::int32_t* H,
                                      std::int32_t* lpos, std::int64_t slot, std::int64_t rows) {
  std::int32_t* myH = H + blockIdx.x * slot;
  std::int32_t* mylpos = lpos + blockIdx.x * rows;
  for (std::int64_t k = blockIdx.x; k < v.pairs; k += gridDim.x)
    pair_in_global(v, k, tables + toff[k], myH, mylpos);
}

std::int64_t slots(const EedProblem& p) {
  return slot_count(p, 4.0 * double(table_elements(p) + p.max_a + 1), kSlotBudget);
}

EedSetup setup(const EedProblem& p, const Params& params, const DeviceCaps&) {
  auto prep = std::make_shared<PrepSetup>(prep_setup(p, prep_of(params)));
  const std::int64_t n_slots = slots(p), slot = table_elements(p), rows = p.max_a + 1;
  auto H = std::make_shared<DeviceBuffer<std::int32_t>>(std::size_t(n_slots * slot));
  auto lpos = std::make_shared<DeviceBuffer<std::int32_t>>(std::size_t(n_slots * rows));
  const int threads = row_threads(p);
  return {[prep, &p](const Pairs& v, cudaStream_t stream) { (*prep)(v, p, stream); },
          [=](const Pairs& v, cudaStream_t stream) {
            block_per_pair_kernel<<<unsigned(n_slots), threads, 0, stream>>>(
                v, prep->tables->get(), prep->offsets->get(), H->get(), lpos->get(), slot, rows);
            LADDER_CUDA(cudaGetLastError());
          },
          {{"threads_per_block", double(threads)}, {"blocks", double(n_slots)}}};
}

const Registrar registrar{gpu_step(
    {.name = "h_cuda",
     .step = 5,
     .label = "H_CUDA: block per pair",
     .change = "one block per pair: every pair at once across the multiprocessors",
     .params = {prep_param("forward")},
     .impl = setup,
     .limit = prep_reason,
     .scratch_bytes = [](const EedProblem& p, const Params&) {
       return prep_bytes(p) + 4.0 * double(slots(p)) * double(table_elements(p) + p.max_a + 1);
     }})};

}  // namespace
}  // namespace ladder::eed
