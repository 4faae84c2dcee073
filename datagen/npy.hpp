// Minimal NumPy .npy reader and writer (format 1.0/2.0/3.0, C order), enough to exchange
// matrices and outputs with numpy without depending on it. The reader takes float32 and float64
// in either byte order; the writer writes little-endian.
#pragma once
#include <string>
#include <vector>

#include "base/output.hpp"

namespace ladder {

struct NpyArray {
  std::vector<std::size_t> shape;
  std::vector<double> values;  // converted from the file's float32 / float64 (or integers)
  bool integer = false;        // the file held int32 or int64 (only with NpyTypes::outputs)
};

// What a reader accepts: data files are real numbers; a step's or a peer's outputs may also be
// int32 or int64 (distances, ids), each exactly representable below 2^53.
enum class NpyTypes { floats, outputs };

// Writes atomically (temporary file, then rename).
void write_npy(const std::string& path, const Output& out);
// Reads float32 or float64 arrays (little- or big-endian). Anything else is an InputError with
// one printable line naming the file: another dtype, Fortran order, a malformed or oversized
// (> 64 KiB) header, a bad shape, or data bytes that differ from what the shape needs. The
// declared size is checked against the file's size before anything is allocated.
NpyArray read_npy(const std::string& path, NpyTypes types = NpyTypes::floats);
// The same on a whole file's bytes already in memory; name stands for the file in messages.
NpyArray parse_npy(const std::string& bytes, const std::string& name,
                   NpyTypes types = NpyTypes::floats);
// An outputs file (NpyTypes::outputs) as the Output a step would have fetched: float32 and
// float64 as double, int32 and int64 as int64 (an integer beyond 2^53 is refused).
Output read_npy_output(const std::string& path);

}  // namespace ladder
