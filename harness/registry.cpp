#include <algorithm>
#include <stdexcept>

#include "errors.hpp"

#include "study.hpp"

namespace ladder {

const char* to_string(Backend b) { return b == Backend::cpu ? "cpu" : "gpu"; }

const char* to_string(Status s) {
  switch (s) {
    case Status::passed: return "passed";
    case Status::incorrect: return "incorrect";
    case Status::unsupported: return "unsupported";
    case Status::skipped: return "skipped";
    case Status::error: return "error";
  }
  return "error";
}

Registry& registry() {
  static Registry r;  // function-local: safe from static initialisation order
  return r;
}

void Registry::add_study(std::unique_ptr<Study> s) { studies_.push_back(std::move(s)); }

void Registry::add_variant(VariantSpec v) {
  if (variant(v.id())) throw std::logic_error("variant registered twice: " + v.id());
  variants_.push_back(std::move(v));
}

const Study* Registry::study(const std::string& name) const {
  for (const auto& s : studies_)
    if (s->name() == name) return s.get();
  return nullptr;
}

std::vector<const VariantSpec*> Registry::variants(const std::string& study) const {
  std::vector<const VariantSpec*> out;
  for (const auto& v : variants_)
    if (study.empty() || v.study == study) out.push_back(&v);
  std::stable_sort(out.begin(), out.end(), [](const VariantSpec* a, const VariantSpec* b) {
    return a->study != b->study ? a->study < b->study : a->step < b->step;
  });
  return out;
}

const VariantSpec* Registry::variant(const std::string& id) const {
  for (const auto& v : variants_)
    if (v.id() == id) return &v;
  return nullptr;
}

}  // namespace ladder

namespace ladder {

void check_param(const ParamSpec& spec, const std::string& value) {
  Params p;
  p.set(spec.name, value);
  if (spec.kind == ParamSpec::Kind::text) {
    if (spec.choices.empty()) return;
    for (const auto& c : spec.choices)
      if (c == value) return;
    std::string list;
    for (const auto& c : spec.choices) list += (list.empty() ? "" : ", ") + c;
    throw InputError("parameter '" + spec.name + "' must be one of {" + list + "}, got '" +
                     value + "'");
  }
  double v = spec.kind == ParamSpec::Kind::integer ? static_cast<double>(p.integer(spec.name))
                                                   : p.real(spec.name);
  if (v < spec.min || v > spec.max) {
    auto num = [](double x) {
      std::string s = std::to_string(x);
      s.erase(s.find_last_not_of('0') + 1);
      if (!s.empty() && s.back() == '.') s.pop_back();
      return s;
    };
    throw InputError("parameter '" + spec.name + "' must be in [" + num(spec.min) + ", " +
                     num(spec.max) + "], got " + value);
  }
}

}  // namespace ladder
