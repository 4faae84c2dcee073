// Step 2: a grid-stride loop on the GPU. Each thread adds elements blockDim * gridDim apart,
// so a warp's loads and stores are 32 adjacent words; the grid is sized to the device (a few
// blocks per SM) rather than to n. The inputs are uploaded when the step is prepared.
#include "../../../harness/gpu_instance.cuh"
#include "problem.hpp"

namespace ladder::toy {
namespace {

__global__ void add_kernel(const float* a, const float* b, float* c, std::int64_t n) {
  const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    c[i] = a[i] + b[i];
}

class GridStride : public GpuInstance<float> {
 public:
  GridStride(const ToyProblem& p, int blocks, int threads)
      : GpuInstance<float>(p.n(), {p.n()}), a_(p.a), b_(p.b), blocks_(blocks), threads_(threads) {}

 protected:
  void enqueue(cudaStream_t stream) override {
    const auto n = std::int64_t(a_.size());
    add_kernel<<<blocks_, threads_, 0, stream>>>(a_.get(), b_.get(), out(), n);
    LADDER_CUDA_LAUNCH("add_kernel");
  }

 private:
  DeviceBuffer<float> a_, b_;
  int blocks_, threads_;
};

using Threads = int (*)(const Params&);
MakeInstance<ToyProblem, Threads> make = [](const ToyProblem& p, const Params& params,
                                            const DeviceCaps& d, const Threads& threads) {
  return std::make_unique<GridStride>(p, 4 * d.sm_count, threads(params));
};

const Registrar registrar{make_variant<ToyProblem, Threads>(
    "toy", Backend::gpu,
    {.name = "grid_stride",
     .step = 2,
     .label = "grid-stride loop",
     .change = "one GPU thread per element, a grid-stride loop over n",
     .params = {{"threads", "256", "threads per block", ParamSpec::Kind::integer, 32, 1024}},
     .impl = [](const Params& p) { return int(p.integer("threads")); }},
    vector_bytes, make)};

}  // namespace
}  // namespace ladder::toy
