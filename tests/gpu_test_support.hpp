// Shared by the GPU test programs: the device as the harness sees it, and one fresh random
// seed per program run (printed on failure so a failing case can be replayed).
#pragma once
#include <random>

#include "harness/device_info.hpp"

namespace ladder {

inline DeviceCaps caps() { return probe_device(0).caps; }

inline unsigned fresh_seed() {
  static const unsigned seed = std::random_device{}();
  return seed;
}

}  // namespace ladder
