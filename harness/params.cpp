#include "params.hpp"

#include "../datagen/base/errors.hpp"
#include "../datagen/numbers.hpp"

namespace ladder {

const std::string& Params::text(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw InputError("missing parameter '" + name + "'");
  return it->second;
}

// Strict: the whole value is the number (" 8" and "8abc" are errors, as are integers beyond
// 64 bits), so what is recorded is exactly what ran.
std::int64_t Params::integer(const std::string& name) const {
  return parse_int64(text(name), "parameter '" + name + "'");
}

double Params::real(const std::string& name) const {
  return parse_double(text(name), "parameter '" + name + "'");
}

std::string Params::key(const std::vector<std::string>& names) const {
  std::string out;
  auto add = [&](const std::string& k, const std::string& v) {
    if (!out.empty()) out += ',';
    out += k + '=' + v;
  };
  if (names.empty()) {
    for (const auto& [k, v] : values_) add(k, v);
  } else {
    for (const auto& k : names)
      if (has(k)) add(k, values_.at(k));
  }
  return out;
}

}  // namespace ladder
