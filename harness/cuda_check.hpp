// One family of CUDA checks: every runtime call and every launch goes through these, so a
// failure names the call, the file and the line instead of surfacing later as a wrong answer.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "../datagen/base/errors.hpp"

namespace ladder::detail {

[[noreturn]] inline void throw_cuda(cudaError_t err, const char* call, const char* file,
                                    int line) {
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " +
                  cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

}  // namespace ladder::detail

// Wrap a CUDA runtime call: LADDER_CUDA(cudaMalloc(&p, bytes));
#define LADDER_CUDA(call)                                                        \
  do {                                                                           \
    cudaError_t ladder_err_ = (call);                                            \
    if (ladder_err_ != cudaSuccess)                                              \
      ::ladder::detail::throw_cuda(ladder_err_, #call, __FILE__, __LINE__);      \
  } while (0)

// After a kernel launch: catches bad configurations (too much shared memory, bad grid) at
// once; asynchronous faults surface at the next synchronising LADDER_CUDA call.
#define LADDER_CUDA_LAUNCH(kernel_name)                                          \
  do {                                                                           \
    cudaError_t ladder_err_ = cudaGetLastError();                                \
    if (ladder_err_ != cudaSuccess)                                              \
      ::ladder::detail::throw_cuda(ladder_err_, "launch of " kernel_name, __FILE__, __LINE__); \
  } while (0)
