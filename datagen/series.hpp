// Labelled time series stored row-major: series e occupies values[e*length, (e+1)*length).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ladder {

struct SeriesSet {
  std::size_t entries = 0;
  std::size_t length = 0;
  std::vector<float> values;
  std::vector<std::int32_t> labels;
  const float* series(std::size_t e) const { return values.data() + e * length; }
};

enum class CbfNoise { uniform, gaussian };

// Cylinder-Bell-Funnel (Saito 1994) as in the DTW notes: label e % 3; onset a in [n/8, n/4],
// width w in [n/4, 3n/4], amplitude 6 + U[0,1); noise U[0,1) (the notes' choice, default) or
// N(0,1) (the classic definition). Entry e draws from its own stream (seed, e).
SeriesSet generate_cbf(std::size_t entries, std::size_t length, std::uint64_t seed,
                       CbfNoise noise);

// UCR archive text format: one series per line, a label then the values. Fields are separated
// by commas (spaces and tabs around them ignored) or, on a line without commas, by runs of tabs
// and spaces: the archive's tab-separated, comma-separated and older space-separated releases
// all read. Labels are 32-bit integers (written as "3" or "3.0000000e+00"); values must be
// finite and fit float32; every line must have the same length. Errors are InputError naming
// the file, line and column, with non-printable bytes escaped; a binary file (a .npy, say), a
// compressed one, a UTF-8 byte-order mark, a directory or a FIFO, and a line of numbers
// separated by semicolons or in quotes are refused as such.
SeriesSet read_ucr(const std::string& path);
// The same on text already in memory; name stands for the file in messages.
SeriesSet parse_ucr(const std::string& text, const std::string& name);
void write_ucr(const std::string& path, const SeriesSet& set);

}  // namespace ladder
