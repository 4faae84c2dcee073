// Fuzz target: Nsight Compute's CSV export as `ladder profile` reads it, and the fold of what it
// read into a profile (harness/ncu_profile.hpp). A finding is a crash, an exception other than
// InputError, or an answer that breaks the header's promise: every value a number or NaN, every
// unit beside a value, and a profile whose raw metrics and derived numbers are all finite.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "fuzz_input.hpp"
#include "harness/ncu_profile.hpp"

namespace {

using ladder::fuzz::broken_promise;
constexpr const char* kReader = "parse_ncu_csv";

void check_finite(const nlohmann::json& j, const std::string& where) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) broken_promise(kReader, "a non-finite " + where);
  if (j.is_structured())
    for (const auto& [k, v] : j.items()) check_finite(v, where + "/" + k);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return 0;
  const std::string text = ladder::fuzz::input_text(data, size);
  std::vector<ladder::NcuResult> results;
  try {
    results = ladder::parse_ncu_csv(text);
  } catch (const ladder::InputError&) {
    return 0;  // refused with a message: what bad input must get
  }
  for (const ladder::NcuResult& r : results)
    for (const auto& [m, v] : r.values) {
      if (std::isinf(v)) broken_promise(kReader, "an infinite value of " + m);
      if (!r.units.count(m)) broken_promise(kReader, "a value without a unit: " + m);
    }
  const nlohmann::json p = ladder::fold_profile(results, {"v", "range", "all", "custom"}, 1000, "cells");
  check_finite(p["raw"], "raw");
  check_finite(p["derived"], "derived");
  return 0;
}
