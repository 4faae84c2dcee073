// One resolved parameter point: name -> value, kept as text so device code and the registry
// need no JSON. Typed getters check the value and name the parameter when it is wrong.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ladder {

class Params {
 public:
  void set(const std::string& name, const std::string& value) { values_[name] = value; }
  bool has(const std::string& name) const { return values_.count(name) != 0; }

  // Defaults come only from the ParamSpecs (see resolve() in study.hpp): a missing value is
  // an error here, never silently replaced.
  std::int64_t integer(const std::string& name) const;
  double real(const std::string& name) const;
  const std::string& text(const std::string& name) const;

  const std::map<std::string, std::string>& items() const { return values_; }
  // "entries=1024,n=128" over the given names (all names when empty): a stable point label.
  std::string key(const std::vector<std::string>& names = {}) const;

 private:
  std::map<std::string, std::string> values_;
};

}  // namespace ladder
