// Minimal NumPy .npy reader and writer (format 1.0/2.0/3.0, little-endian, C order), enough to
// exchange matrices and outputs with numpy without depending on it.
#pragma once
#include <string>
#include <vector>

#include "base/output.hpp"

namespace ladder {

struct NpyArray {
  std::vector<std::size_t> shape;
  std::vector<double> values;  // converted from the file's float32 / float64
};

// Writes atomically (temporary file, then rename).
void write_npy(const std::string& path, const Output& out);
// Reads float32 or float64 arrays; throws InputError for anything else.
NpyArray read_npy(const std::string& path);

}  // namespace ladder
