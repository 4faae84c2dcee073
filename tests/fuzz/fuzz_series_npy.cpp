// Fuzz target: a .npy file of series, as TWED reads it (read_multiseries_npy), without and with
// timestamps in channel 0. InputError (of one printable line) is the expected answer to bad
// input; anything else escaping is a finding, and so is an accepted set that breaks what
// multiseries.hpp promises: no empty dimension, count x length x dim values that the input
// could hold, every one finite, no labels; timestamps only with the time channel, one per
// point, finite and strictly increasing within each series.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/multiseries.hpp"
#include "fuzz_input.hpp"

namespace {

using ladder::fuzz::broken_promise;
constexpr const char* kReader = "parse_multiseries_npy";

void check_shape(const ladder::MultiSeries& set, std::size_t input_bytes, bool time_channel) {
  if (set.count == 0 || set.length == 0 || set.dim == 0)
    broken_promise(kReader, "accepted an empty shape " + std::to_string(set.count) + " x " +
                                std::to_string(set.length) + " x " + std::to_string(set.dim));
  std::size_t n = set.count;
  if (__builtin_mul_overflow(n, set.length, &n) || __builtin_mul_overflow(n, set.dim, &n))
    broken_promise(kReader, "accepted a shape whose value count overflows");
  if (n != set.values.size())
    broken_promise(kReader, "shape holds " + std::to_string(n) + " values, the set has " +
                                std::to_string(set.values.size()));
  // At least 4 bytes a value (float32), timestamps included, past the 10-byte preamble.
  const std::size_t stored = n + (time_channel ? set.count * set.length : 0);
  if (stored > input_bytes / 4)
    broken_promise(kReader, std::to_string(stored) + " values from " +
                                std::to_string(input_bytes) + " bytes");
  if (!set.labels.empty()) broken_promise(kReader, "a .npy file gave labels");
}

void check_values(const ladder::MultiSeries& set) {
  for (std::size_t i = 0; i < set.values.size(); ++i)
    if (!std::isfinite(set.values[i]))
      broken_promise(kReader, "value " + std::to_string(i) + " is not finite");
}

void check_times(const ladder::MultiSeries& set, bool time_channel) {
  if (!time_channel) {
    if (!set.times.empty()) broken_promise(kReader, "timestamps without the time channel");
    return;
  }
  if (set.times.size() != set.count * set.length)
    broken_promise(kReader, std::to_string(set.times.size()) + " timestamps for " +
                                std::to_string(set.count * set.length) + " points");
  for (std::size_t e = 0; e < set.count; ++e)
    for (std::size_t i = 0; i < set.length; ++i) {
      const double t = set.time(e)[i];
      if (!std::isfinite(t)) broken_promise(kReader, "a timestamp that is not finite");
      if (i > 0 && !(t > set.time(e)[i - 1]))
        broken_promise(kReader, "series " + std::to_string(e) + " has timestamps that do not "
                                                                "increase");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string bytes = ladder::fuzz::input_text(data, size);
  for (bool time_channel : {false, true}) {
    ladder::MultiSeries set;
    try {
      set = ladder::parse_multiseries_npy(bytes, "fuzz.npy", time_channel);
    } catch (const ladder::InputError& e) {
      ladder::fuzz::check_message(kReader, e);
      continue;
    }
    check_shape(set, size, time_channel);
    check_values(set);
    check_times(set, time_channel);
  }
  return 0;
}
