// Checks a variant's output against the sequential baseline at chosen output indices.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config.hpp"
#include "../datagen/base/output.hpp"
#include "study.hpp"

namespace ladder {

struct ValidationResult {
  bool ok = true;
  std::size_t checked = 0;
  std::size_t failures = 0;
  double max_abs = 0;
  double max_rel = 0;
  std::string first_failure;  // "index 17: got nan, want 3.25" when !ok
};

// Indices to check: all of them (full), N distinct ones drawn with `seed` (sample, sorted),
// or none (off). Index 0 is always in a sample: it is often a known value (DTW's self-match).
std::vector<std::size_t> validation_indices(const Validation& v, std::size_t total,
                                            std::uint64_t seed);

// A NaN output never passes; infinities pass only when equal to the reference.
ValidationResult compare_outputs(const Output& got, std::size_t expected_size,
                                 const std::vector<std::size_t>& indices,
                                 const std::vector<double>& want, const Tolerance& tol);

}  // namespace ladder
