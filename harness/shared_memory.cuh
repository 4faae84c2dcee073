// Dynamic shared memory beyond the default 48 KiB: the "does it fit?" check and the opt-in,
// which steps call from their set-up function (outside the timed window).
#pragma once
#include <cstddef>
#include <string>

#include "cuda_check.hpp"
#include "study.hpp"

namespace ladder {

inline std::string shared_memory_reason(std::size_t bytes, const std::string& what,
                                        const DeviceCaps& d) {
  if (bytes <= d.smem_per_block_optin) return "";
  return "needs " + std::to_string(bytes / 1024) + " KiB of shared memory per block for " +
         what + "; the device allows " + std::to_string(d.smem_per_block_optin / 1024) + " KiB";
}

template <class Kernel>
void allow_shared_memory(Kernel* kernel, std::size_t bytes) {
  LADDER_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(bytes)));
}

}  // namespace ladder
