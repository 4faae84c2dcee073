// Fuzz target: NumPy .npy bytes, read as data (floats) and as outputs (integers too, as
// `ladder ingest` reads a peer's). InputError (of one printable line) is the expected answer to
// bad input; anything else escaping is a finding, and so is an accepted array whose values do
// not fill its shape.
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/npy.hpp"
#include "fuzz_input.hpp"

namespace {

// The shape's promises of an accepted array.
void check_array(const ladder::NpyArray& a, std::size_t size) {
  using ladder::fuzz::broken_promise;
  // The shape's product (1 for a 0-d array) is the number of values, without overflow.
  std::size_t count = 1;
  for (std::size_t d : a.shape)
    if (__builtin_mul_overflow(count, d, &count))
      broken_promise("parse_npy", "accepted a shape whose element count overflows");
  if (count != a.values.size())
    broken_promise("parse_npy", "shape holds " + std::to_string(count) + " values, array has " +
                                    std::to_string(a.values.size()));
  // Every value came out of the input: at least 4 bytes each past the 10-byte preamble.
  if (a.values.size() > size / 4)
    broken_promise("parse_npy", std::to_string(a.values.size()) + " values from " +
                                    std::to_string(size) + " bytes");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ladder::fuzz::broken_promise;
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string bytes = ladder::fuzz::input_text(data, size);
  for (ladder::NpyTypes types : {ladder::NpyTypes::floats, ladder::NpyTypes::outputs}) {
    ladder::NpyArray a;
    try {
      a = ladder::parse_npy(bytes, "fuzz.npy", types);
    } catch (const ladder::InputError& e) {
      ladder::fuzz::check_message("parse_npy", e);
      continue;
    }
    if (a.integer && types == ladder::NpyTypes::floats)
      broken_promise("parse_npy", "read integers as data");
    check_array(a, size);
  }
  return 0;
}
