// The "can this run here?" check every GPU step shares: device memory against what was free
// when the run started.
#pragma once
#include <string>

#include "study.hpp"

namespace ladder {

// "" when `bytes` fit in the free device memory (with 10% headroom), else why not.
inline std::string device_memory_reason(double bytes, const DeviceCaps& d) {
  if (bytes <= 0.9 * static_cast<double>(d.global_mem_free)) return "";
  return "needs " + std::to_string(static_cast<long long>(bytes / (1 << 20))) +
         " MiB of device memory, " +
         std::to_string(static_cast<long long>(d.global_mem_free >> 20)) + " MiB free";
}

}  // namespace ladder
