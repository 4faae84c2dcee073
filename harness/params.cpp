#include "params.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "../datagen/base/errors.hpp"

namespace ladder {

const std::string& Params::text(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw InputError("missing parameter '" + name + "'");
  return it->second;
}

std::int64_t Params::integer(const std::string& name) const {
  const std::string& s = text(name);
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE)
    throw InputError("parameter '" + name + "' must be an integer, got '" + s + "'");
  return v;
}

double Params::real(const std::string& name) const {
  const std::string& s = text(name);
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0' || !std::isfinite(v))
    throw InputError("parameter '" + name + "' must be a finite number, got '" + s + "'");
  return v;
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
