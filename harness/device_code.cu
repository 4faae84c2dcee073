#include "device_code.hpp"

#include <cuda_runtime.h>

namespace ladder {
namespace {

// Compiled for the same CUDA architectures as every step (CMAKE_CUDA_ARCHITECTURES).
__global__ void probe_kernel() {}

}  // namespace

DeviceCode device_code() {
  cudaFuncAttributes attr{};
  const cudaError_t err = cudaFuncGetAttributes(&attr, probe_kernel);
  if (err != cudaSuccess) {
    cudaGetLastError();  // not sticky, but leave nothing for the next check to find
    return {false, 0, 0, std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err)};
  }
  return {true, attr.ptxVersion, attr.binaryVersion, ""};
}

}  // namespace ladder
