// Which of this binary's code the selected device runs: the check that stops a run before it
// starts when the binary was built for other GPUs.
#pragma once
#include <string>

namespace ladder {

struct DeviceCode {
  bool runnable = false;
  int ptx_version = 0;     // the virtual architecture the code was generated for (90: compute_90)
  int binary_version = 0;  // the SASS it runs (a cubin's, or what the driver JIT-compiled)
  std::string error;       // why not runnable
};

// Asks the CUDA runtime for a probe kernel built like every kernel of the binary, on the
// current device. Never throws for a device the binary has no code for.
DeviceCode device_code();

}  // namespace ladder
