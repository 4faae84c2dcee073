// Kernels every TWED GPU step shares: the delete costs of each point (one thread per point)
// and the triangle mode's mirror (one thread per matrix entry).
#include "../../harness/cuda_check.hpp"
#include "gpu_step.cuh"

namespace ladder::twed {
namespace {

template <class T>
__global__ void delete_costs_kernel(const T* x, const T* t, std::int64_t count,
                                    std::int64_t length, int dim, CostsT<T> c, const T* zero,
                                    T* del) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= count * (length + 1)) return;
  const std::int64_t e = k / (length + 1), i = k % (length + 1);
  del[k] = delete_cost(x + e * length * dim, t + e * length, i, dim, c, zero);
}

template <class T>
__global__ void mirror_kernel(T* out, std::int64_t rows) {
  const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (k >= rows * rows) return;
  const std::int64_t i = k / rows, j = k % rows;
  if (i == j) out[k] = T(0);
  else if (i > j) out[k] = out[j * rows + i];
}

}  // namespace

template <class T>
void launch_delete_costs(const T* x, const T* t, std::int64_t count, std::int64_t length,
                         int dim, CostsT<T> c, const T* zero, T* del, cudaStream_t stream) {
  const auto blocks = unsigned(ceil_div(count * (length + 1), 256));
  delete_costs_kernel<<<blocks, 256, 0, stream>>>(x, t, count, length, dim, c, zero, del);
  LADDER_CUDA_LAUNCH("TWED delete costs");
}

template <class T>
void launch_mirror(T* out, std::int64_t rows, cudaStream_t stream) {
  if (rows < 2) {
    if (rows == 1) LADDER_CUDA(cudaMemsetAsync(out, 0, sizeof(T), stream));
    return;
  }
  mirror_kernel<<<unsigned(ceil_div(rows * rows, 256)), 256, 0, stream>>>(out, rows);
  LADDER_CUDA_LAUNCH("TWED triangle mirror");
}

template void launch_delete_costs<float>(const float*, const float*, std::int64_t, std::int64_t,
                                         int, CostsT<float>, const float*, float*, cudaStream_t);
template void launch_delete_costs<double>(const double*, const double*, std::int64_t,
                                          std::int64_t, int, CostsT<double>, const double*,
                                          double*, cudaStream_t);
template void launch_mirror<float>(float*, std::int64_t, cudaStream_t);
template void launch_mirror<double>(double*, std::int64_t, cudaStream_t);

}  // namespace ladder::twed
