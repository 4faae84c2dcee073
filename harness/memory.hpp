// The one memory check of every study and step: what a point needs against what the host or
// the device has. Studies estimate bytes; these decide and word the refusal.
#pragma once
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "study.hpp"

namespace ladder {

// A point may take at most this share of the machine's physical memory (data, reference,
// outputs), leaving room for the system and the rest of the run.
constexpr double kHostMemoryShare = 0.5;
// Device allocations may take this share of the memory free when the run started.
constexpr double kDeviceMemoryShare = 0.9;

inline std::string gib_text(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g GiB", bytes / double(1ull << 30));
  return buf;
}

// Physical memory, or less when the process runs under an address-space or data limit
// (ulimit -v, prlimit --as / --data).
inline double host_memory_bytes() {
  double bytes = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  for (int resource : {RLIMIT_AS, RLIMIT_DATA}) {
    rlimit lim{};
    if (getrlimit(resource, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
      bytes = std::min(bytes, static_cast<double>(lim.rlim_cur));
  }
  return bytes;
}

// "" when `bytes` fit in the host share, else why not.
inline std::string host_memory_reason(double bytes, const std::string& what) {
  const double limit = kHostMemoryShare * host_memory_bytes();
  if (bytes <= limit) return "";
  return what + " needs " + gib_text(bytes) + " of host memory, more than " +
         std::to_string(int(kHostMemoryShare * 100)) + "% of the " + gib_text(host_memory_bytes()) +
         " this process may use";
}

// "" when `bytes` fit in the device share, else why not.
inline std::string device_memory_reason(double bytes, const DeviceCaps& d) {
  if (bytes <= kDeviceMemoryShare * static_cast<double>(d.global_mem_free)) return "";
  return "needs " + gib_text(bytes) + " of device memory, " +
         gib_text(static_cast<double>(d.global_mem_free)) + " free";
}

}  // namespace ladder
