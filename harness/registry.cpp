#include <algorithm>
#include <stdexcept>

#include "../datagen/base/errors.hpp"
#include "study.hpp"
#include "validation.hpp"

namespace ladder {

const char* to_string(Backend b) { return b == Backend::cpu ? "cpu" : "gpu"; }

const char* to_string(Role r) {
  switch (r) {
    case Role::baseline: return "baseline";
    case Role::step: return "step";
    case Role::peer: return "peer";
  }
  return "step";
}

const char* to_string(Precision p) {
  switch (p) {
    case Precision::fp64: return "fp64";
    case Precision::fp32: return "fp32";
    case Precision::tf32: return "tf32";
    case Precision::tf32x3: return "tf32x3";
    case Precision::fp16: return "fp16";
    case Precision::fp16x3: return "fp16x3";
    case Precision::fp16x2: return "fp16x2";
    case Precision::int32: return "int32";
  }
  return "fp32";
}

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

ValidationResult Study::compare(const Problem& problem, const Output& got,
                                const std::vector<std::size_t>& indices,
                                const std::vector<double>& want, const Tolerance& tol) const {
  return compare_outputs(got, output_size(problem), indices, want, tol);
}

Registry& registry() {
  static Registry r;  // function-local: safe from static initialisation order
  return r;
}

void Registry::add_study(std::unique_ptr<Study> s) { studies_.push_back(std::move(s)); }

void Registry::add_variant(VariantSpec v) {
  if (variant(v.id())) throw std::logic_error("variant registered twice: " + v.id());
  if (v.label.empty()) v.label = v.name;
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
  std::sort(out.begin(), out.end(), [](const VariantSpec* a, const VariantSpec* b) {
    if (a->study != b->study) return a->study < b->study;
    return a->step != b->step ? a->step < b->step : a->name < b->name;
  });
  return out;
}

const VariantSpec* Registry::variant(const std::string& id) const {
  for (const auto& v : variants_)
    if (v.id() == id) return &v;
  return nullptr;
}

Params resolve(const Study& study, const VariantSpec* variant, const Params& given,
               bool generated) {
  Params p;
  for (const auto& s : study.data_params())
    if (!s.default_value.empty() && (generated || !s.generated_only))
      p.set(s.name, s.default_value);
  if (variant)
    for (const auto& s : variant->params)
      if (!s.default_value.empty()) p.set(s.name, s.default_value);
  for (const auto& [k, v] : given.items()) p.set(k, v);
  return p;
}

}  // namespace ladder

namespace ladder {

void check_param(const ParamSpec& spec, const std::string& value) {
  Params p;
  p.set(spec.name, value);
  auto one_of = [&] {
    for (const auto& c : spec.choices)
      if (c == value) return;
    std::string list;
    for (const auto& c : spec.choices) list += (list.empty() ? "" : ", ") + c;
    throw InputError("parameter '" + spec.name + "' must be one of {" + list + "}, got '" +
                     value + "'");
  };
  if (spec.kind == ParamSpec::Kind::text) {
    if (!spec.choices.empty()) one_of();
    return;
  }
  if (spec.kind == ParamSpec::Kind::path) {
    if (value.empty()) throw InputError("parameter '" + spec.name + "' must name a file");
    return;
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
  if (!spec.choices.empty()) one_of();  // an integer from a compiled set
}

}  // namespace ladder
