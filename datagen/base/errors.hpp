// Error types the CLI turns into a one-line message and a non-zero exit.
#pragma once
#include <stdexcept>
#include <string>

#include "printable.hpp"

namespace ladder {

// Bad input from the user: config, data file, command line. Nothing has run yet. The message
// is made printable here, whatever the thrower echoed (a key, a value, a file name), so it is
// always one line of printable text.
struct InputError : std::runtime_error {
  static constexpr std::size_t kMaxMessage = 2000;
  explicit InputError(const std::string& what) : std::runtime_error(printable(what, kMaxMessage)) {}
};

// A CUDA call failed: carries the call, file and line (see cuda_check.hpp).
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace ladder
