// Fuzz target: MNIST IDX image bytes. InputError (of one printable line) is the expected answer
// to bad input; anything else escaping is a finding, and so is an accepted set that breaks what
// multiseries.hpp promises: no empty dimension, exactly one value per data byte of the input
// (the 16-byte header aside), each a whole number 0..255, no timestamps or labels.
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/multiseries.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ladder::fuzz::broken_promise;
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string bytes = ladder::fuzz::input_text(data, size);
  ladder::MultiSeries set;
  try {
    set = ladder::parse_idx_images(bytes, "fuzz-images-idx3-ubyte");
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("parse_idx_images", e);
    return 0;
  }
  if (set.count == 0 || set.length == 0 || set.dim == 0)
    broken_promise("parse_idx_images", "accepted an empty shape " + std::to_string(set.count) +
                                           " x " + std::to_string(set.length) + " x " +
                                           std::to_string(set.dim));
  std::size_t n = set.count;
  if (__builtin_mul_overflow(n, set.length, &n) || __builtin_mul_overflow(n, set.dim, &n))
    broken_promise("parse_idx_images", "accepted a shape whose value count overflows");
  if (n != set.values.size() || size < 16 || n != size - 16)
    broken_promise("parse_idx_images", std::to_string(set.values.size()) + " values, shape " +
                                           std::to_string(n) + ", from " + std::to_string(size) +
                                           " bytes");
  for (std::size_t i = 0; i < n; ++i)
    if (!(set.values[i] >= 0 && set.values[i] <= 255 &&
          set.values[i] == static_cast<double>(static_cast<int>(set.values[i]))))
      broken_promise("parse_idx_images", "value " + std::to_string(i) + " is not a byte");
  if (!set.times.empty() || !set.labels.empty())
    broken_promise("parse_idx_images", "an image file gave timestamps or labels");
  return 0;
}
