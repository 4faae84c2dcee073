// Fuzz target: UCR text data (label, then values). InputError (of one printable line) is the
// expected answer to bad input; anything else escaping is a finding, and so is an accepted set
// that breaks what series.hpp promises (rectangular, at least one series, finite values).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/series.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ladder::fuzz::broken_promise;
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string text = ladder::fuzz::input_text(data, size);
  ladder::SeriesSet set;
  try {
    set = ladder::parse_ucr(text, "fuzz.tsv");
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("parse_ucr", e);
    return 0;
  }
  if (set.entries == 0 || set.length == 0)
    broken_promise("parse_ucr", "accepted an empty set (" + std::to_string(set.entries) + " x " +
                                    std::to_string(set.length) + ")");
  if (set.labels.size() != set.entries)
    broken_promise("parse_ucr", std::to_string(set.labels.size()) + " labels for " +
                                    std::to_string(set.entries) + " series");
  if (set.values.size() / set.length != set.entries || set.values.size() % set.length != 0)
    broken_promise("parse_ucr", std::to_string(set.values.size()) + " values for " +
                                    std::to_string(set.entries) + " series of length " +
                                    std::to_string(set.length));
  for (std::size_t i = 0; i < set.values.size(); ++i)
    if (!std::isfinite(set.values[i]))
      broken_promise("parse_ucr", "value " + std::to_string(i) + " is not finite");
  return 0;
}
