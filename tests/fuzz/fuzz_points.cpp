// Fuzz target: a CSV file of points (the skyline study's data). InputError (of one printable
// line) is the expected answer to bad input; anything else escaping is a finding, and so is an
// accepted set that breaks what points.hpp promises: at least one point, 1..kMaxPointDims
// attributes, n x d values, every one finite, and no more points than the input has lines.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/points.hpp"
#include "fuzz_input.hpp"

namespace {

using ladder::fuzz::broken_promise;
constexpr const char* kReader = "parse_points_csv";

void check_shape(const ladder::PointSet& set, const std::string& input) {
  if (set.n < 1) broken_promise(kReader, "accepted a set of " + std::to_string(set.n) + " points");
  if (set.d < 1 || set.d > ladder::kMaxPointDims)
    broken_promise(kReader, "d = " + std::to_string(set.d));
  if (set.values.size() != static_cast<std::size_t>(set.n) * static_cast<std::size_t>(set.d))
    broken_promise(kReader, std::to_string(set.values.size()) + " values for n = " +
                                std::to_string(set.n) + ", d = " + std::to_string(set.d));
  const auto lines = std::count(input.begin(), input.end(), '\n') + 1;
  if (set.n > lines)
    broken_promise(kReader, std::to_string(set.n) + " points from " + std::to_string(lines) +
                                " lines");
}

void check_values(const ladder::PointSet& set) {
  for (std::size_t i = 0; i < set.values.size(); ++i)
    if (!std::isfinite(set.values[i]))
      broken_promise(kReader, "value " + std::to_string(i) + " is not finite");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string bytes = ladder::fuzz::input_text(data, size);
  ladder::PointSet set;
  try {
    set = ladder::parse_points_csv(bytes, "fuzz.csv");
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message(kReader, e);
    return 0;
  }
  check_shape(set, bytes);
  check_values(set);
  return 0;
}
