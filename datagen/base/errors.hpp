// Error types the CLI turns into a one-line message and a non-zero exit.
#pragma once
#include <stdexcept>
#include <string>

namespace ladder {

// Bad input from the user: config, data file, command line. Nothing has run yet.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A CUDA call failed: carries the call, file and line (see cuda_check.hpp).
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ladder
