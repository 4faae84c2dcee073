// Step 4: pH_CUDA, the earlier GPU algorithm the paper starts from: a single block computes
// every pair, one after another, over anti-diagonal cycles in global memory only. The
// preprocessing is the paper's parallel one (prep=serial gives its serial variant).
#include "global_table.cuh"

namespace ladder::eed {
namespace {

__global__ void one_block_kernel(Pairs v, const std::int32_t* tables, const std::int64_t* toff,
                                 std::int32_t* H, std::int32_t* lpos) {
  for (std::int64_t k = 0; k < v.pairs; ++k) pair_in_global(v, k, tables + toff[k], H, lpos);
}

EedSetup setup(const EedProblem& p, const Params& params, const DeviceCaps&) {
  auto prep = std::make_shared<PrepSetup>(prep_setup(p, prep_of(params)));
  auto H = std::make_shared<DeviceBuffer<std::int32_t>>(std::size_t(table_elements(p)));
  auto lpos = std::make_shared<DeviceBuffer<std::int32_t>>(std::size_t(p.max_a + 1));
  const int threads = row_threads(p);
  return {[prep, &p](const Pairs& v, cudaStream_t stream) { (*prep)(v, p, stream); },
          [prep, H, lpos, threads](const Pairs& v, cudaStream_t stream) {
            one_block_kernel<<<1, threads, 0, stream>>>(v, prep->tables->get(),
                                                        prep->offsets->get(), H->get(),
                                                        lpos->get());
            LADDER_CUDA(cudaGetLastError());
          },
          {{"threads_per_block", double(threads)}, {"blocks", 1}}};
}

const Registrar registrar{gpu_step(
    {.name = "ph_cuda",
     .step = 4,
     .label = "pH_CUDA: one block",
     .change = "the GPU: one block sweeps each pair's anti-diagonals, pairs one after another, "
               "all in global memory",
     .params = {prep_param("forward")},
     .impl = setup,
     .limit = prep_reason,
     .scratch_bytes = [](const EedProblem& p, const Params&) {
       return prep_bytes(p) + 4.0 * double(table_elements(p) + p.max_a + 1);
     }})};

}  // namespace
}  // namespace ladder::eed
