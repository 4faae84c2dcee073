#include "config.hpp"

#include <filesystem>
#include <fstream>
#include <algorithm>
#include <set>
#include <sstream>

#include "../datagen/base/errors.hpp"
#include "../datagen/json_file.hpp"
#include "../datagen/numbers.hpp"
#include "share_dir.hpp"

namespace ladder {
namespace fs = std::filesystem;
using json = nlohmann::json;

const char* to_string(TimingMode m) { return m == TimingMode::cold ? "cold" : "hot"; }

TimingMode parse_timing(const std::string& text, const std::string& where) {
  if (text == "hot") return TimingMode::hot;
  if (text == "cold") return TimingMode::cold;
  throw InputError(where + " must be hot or cold, got '" + printable(text) + "'");
}

std::string Validation::text() const {
  switch (mode) {
    case Mode::full: return "full";
    case Mode::off: return "off";
    case Mode::sample: return "sample:" + std::to_string(sample);
  }
  return "full";
}

Validation parse_validation(const std::string& text) {
  Validation v;
  if (text == "full") return v;
  if (text == "off") {
    v.mode = Validation::Mode::off;
    return v;
  }
  constexpr std::int64_t kMaxSample = 1000000000;
  if (text.rfind("sample:", 0) == 0) {
    const std::string n = text.substr(7);
    const bool digits = !n.empty() && n.size() <= 18 &&
                        n.find_first_not_of("0123456789") == std::string::npos;
    const std::int64_t count = digits ? std::stoll(n) : 0;
    if (count < 1 || count > kMaxSample)
      throw InputError("validation sample:N needs a whole N from 1 to " +
                       std::to_string(kMaxSample) + ", got '" + printable(text) + "'");
    v.mode = Validation::Mode::sample;
    v.sample = static_cast<std::size_t>(count);
    return v;
  }
  throw InputError("validation must be full, off or sample:N, got '" + printable(text) + "'");
}

std::string json_to_param(const std::string& name, const json& v) {
  if (v.is_number_unsigned()) return std::to_string(v.get<unsigned long long>());
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_float()) {
    std::ostringstream os;
    os.precision(17);
    os << v.get<double>();
    return os.str();
  }
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  throw InputError("parameter '" + name + "' must be a number or a string, got " +
                   std::string(v.type_name()));
}

namespace {

// Configs are shallow; anything deeper is a mistake (or hostile) and is refused before the
// parser builds it.
constexpr std::size_t kMaxDepth = 16;

const json& list_field(const json& axes, const std::string& key, const char* where) {
  const json& values = axes.at(key);
  if (!values.is_array() || values.empty())
    throw InputError(std::string(where) + " axis '" + key + "' must be a non-empty list");
  return values;
}

void require_object(const json& j, const char* field) {
  if (!j.is_object()) throw InputError(std::string("'") + field + "' must be an object");
}

// Figures the plot scripts draw from the runs: `ladder` (every study) and the study's own
// paper figures. A name plots/ does not draw would be skipped without a word.
void check_figures(const json& j, const char* where, const Study& study) {
  if (!j.contains("figures")) return;
  const json& f = j["figures"];
  std::vector<std::string> known = study.figures();
  known.insert(known.begin(), "ladder");
  std::string choices;
  for (const std::string& k : known) choices += (choices.empty() ? "" : ", ") + k;
  if (!f.is_array() || !std::all_of(f.begin(), f.end(), [](const json& x) { return x.is_string(); }))
    throw InputError(std::string("'") + where + "figures' must be a list of figure names (" +
                     study.name() + " draws " + choices + ")");
  for (const json& item : f)
    if (std::find(known.begin(), known.end(), item.get<std::string>()) == known.end())
      throw InputError(std::string("'") + where + "figures' names '" + item.get<std::string>() +
                       "', which is not a figure of " + study.name() + " (it draws " + choices + ")");
}

// 'profile': which points `reproduce --profile` profiles: {"sweep": LABEL, "point": {PARAM:
// VALUE, ...}}, both optional, one point per GPU step among the runs that match; or a list of
// such objects, the first as before and each further one (which may also name "variants": [NAME,
// ...]) adding every run at its point: the points of the claims the report judges.
void check_profile_entry(const json& f, bool extra) {
  const char* shape = "'profile' must be an object with an optional \"sweep\" (a sweep's label) and "
                      "\"point\" (an object of parameter values), or a list of them (after the first, "
                      "each may name \"variants\": a list of step names)";
  if (!f.is_object()) throw InputError(shape);
  for (const auto& [k, v] : f.items()) {
    if (k == "sweep" && v.is_string()) continue;
    if (k == "point" && v.is_object() &&
        std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_primitive() && !x.is_null(); }))
      continue;
    if (extra && k == "variants" && v.is_array() && !v.empty() &&
        std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_string(); }))
      continue;
    throw InputError(shape);
  }
}

void check_profile_choice(const json& j) {
  if (!j.contains("profile")) return;
  const json& f = j["profile"];
  if (!f.is_array()) return check_profile_entry(f, false);
  if (f.empty()) check_profile_entry(f, false);  // an empty list: the shape's message
  for (std::size_t k = 0; k < f.size(); ++k) check_profile_entry(f[k], k > 0);
}

// Matches `text` against `pattern`, where '*' stands for any run of characters. Greedy with
// one backtrack point (the last star): linear in practice, quadratic at worst, never the
// exponential time a recursive match takes on a pattern of many stars.
bool glob_match(const std::string& pattern, const std::string& text) {
  std::size_t p = 0, t = 0, star = std::string::npos, resume = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p, ++t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<const VariantSpec*> select_variants(const json& j, const Study& study) {
  auto all = registry().variants(study.name());
  if (!j.contains("variants")) return all;
  const json& list = j["variants"];
  if (!list.is_array() || list.empty())
    throw InputError("'variants' must be a non-empty list of variant names or patterns");
  std::vector<const VariantSpec*> out;
  std::set<const VariantSpec*> seen;
  for (const auto& item : list) {
    if (!item.is_string()) throw InputError("'variants' entries must be strings");
    std::string pat = item.get<std::string>();
    if (pat.find('/') == std::string::npos) pat = study.name() + "/" + pat;
    bool matched = false;
    for (const VariantSpec* v : all) {
      if (glob_match(pat, v->id())) {
        matched = true;
        if (seen.insert(v).second) out.push_back(v);
      }
    }
    if (!matched) throw InputError("unknown variant '" + pat + "' (see `ladder list`)");
  }
  return out;
}

// Parameters that shape generated data (sizes, seed, noise) mean nothing for a data file;
// given anyway they would be ignored yet recorded, so they are refused.
void check_file_points(const Study& study, const std::vector<Point>& points,
                       const std::string& file) {
  for (const auto& spec : study.data_params())
    for (const Point& p : points)
      if (spec.generated_only && p.params.has(spec.name))
        throw InputError("'" + spec.name + "' is for generated data; the data come from the data file '" +
                         printable(file, 80) + "': remove it");
}

// Every parameter a point names must belong to the study or one of its variants, and fit.
void check_point_params(const Study& study, const Point& point) {
  const std::vector<ParamSpec> data_specs = study.data_params();
  std::map<std::string, const ParamSpec*> known;
  for (const auto& s : data_specs) known.emplace(s.name, &s);
  for (const VariantSpec* v : point.variants)
    for (const auto& s : v->params) known.emplace(s.name, &s);
  for (const auto& [k, v] : point.params.items()) {
    auto it = known.find(k);
    if (it == known.end())
      throw InputError("unknown parameter '" + k + "' for study " + study.name() +
                       " and the selected variants (see `ladder list`)");
    check_param(*it->second, v);
  }
}

// The same parameter given twice at one level (data and params, params and axes, axes and
// zip) is a conflict, not an override: one of the values would be silently dropped.
void check_disjoint(const std::vector<std::pair<std::string, const json*>>& groups) {
  std::map<std::string, std::string> seen;
  for (const auto& [where, obj] : groups) {
    if (!obj || !obj->is_object()) continue;
    for (const auto& [k, v] : obj->items()) {
      if (where == "data" && (k == "generator" || k == "file")) continue;
      auto [it, fresh] = seen.emplace(k, where);
      if (!fresh)
        throw InputError("parameter '" + printable(k) + "' is given in both '" + it->second +
                         "' and '" + where + "'; give it once");
    }
  }
}

const json* field(const json& j, const char* key) { return j.contains(key) ? &j[key] : nullptr; }

Params merged(Params base, const json& params) {
  if (params.is_null()) return base;
  require_object(params, "params");
  for (const auto& [k, v] : params.items()) base.set(k, json_to_param(k, v));
  return base;
}

// A 'data' object (the config's or a sweep's): exactly one of generator or file, the rest
// data parameters (returned in `params`).
DataSource parse_data(const json& data, const Study& study, const std::string& base_dir,
                      Params& params) {
  require_object(data, "data");
  for (const auto& [k, v] : data.items()) {
    if (k == "generator" || k == "file") {
      if (!v.is_string() || v.get<std::string>().empty())
        throw InputError("'data." + k + "' must be a non-empty string");
    } else {
      params.set(k, json_to_param(k, v));
    }
  }
  if (data.contains("generator") == data.contains("file"))
    throw InputError("'data' needs exactly one of 'generator' or 'file'");
  DataSource src;
  if (data.contains("generator")) {
    src.generator = data["generator"].get<std::string>();
    auto gens = study.generators();
    if (std::find(gens.begin(), gens.end(), src.generator) == gens.end())
      throw InputError("unknown generator '" + src.generator + "' for study " + study.name());
  } else {
    fs::path f = data["file"].get<std::string>();
    if (f.is_relative()) f = fs::path(base_dir) / f;
    src.file = f.lexically_normal().string();
  }
  return src;
}

// Data parameters naming files are read relative to the config's folder, as data.file is.
void resolve_paths(const Study& study, std::vector<Point>& points, const std::string& base_dir) {
  for (const auto& spec : study.data_params()) {
    if (spec.kind != ParamSpec::Kind::path) continue;
    for (Point& p : points) {
      if (!p.params.has(spec.name)) continue;
      fs::path f = p.params.text(spec.name);
      if (f.is_relative() && !f.empty()) f = fs::path(base_dir) / f;
      p.params.set(spec.name, f.lexically_normal().string());
    }
  }
}

// Where a sweep's points take their data from, and the data parameters that come with it.
struct SweepData {
  DataSource source;
  Params params;
};

// Points of one sweep: its axes over the fixed values, each with its variant selection.
std::vector<Point> sweep_points(const json& sweep, const SweepData& data, const Params& fixed,
                                const std::vector<const VariantSpec*>& variants,
                                const std::string& label) {
  check_disjoint({{"data", field(sweep, "data")},
                  {"params", field(sweep, "params")},
                  {"axes", field(sweep, "axes")},
                  {"zip", field(sweep, "zip")}});
  Params base = data.params;
  for (const auto& [k, v] : fixed.items()) {
    if (base.has(k))
      throw InputError("parameter '" + printable(k) + "' is given in both 'data' and 'params'; give it once");
    base.set(k, v);
  }
  std::vector<Point> out;
  for (Params& p : expand_axes(sweep.value("axes", json()), sweep.value("zip", json()),
                               merged(base, sweep.value("params", json()))))
    out.push_back({std::move(p), variants, label, data.source});
  return out;
}

PerBackend per_backend(const json& j, const char* key, PerBackend fallback, int lo);
double time_budget(const json& j);

// A sweep's own 'data' object replaces the config's (source and data parameters alike); the
// config's 'params' apply to every sweep. A sweep's own counts default to the config's.
std::vector<Point> all_points(const json& j, const Study& study, const SweepData& data,
                              const Params& fixed, const std::string& base_dir,
                              const Config& c) {
  const auto variants = select_variants(j, study);
  if (!j.contains("sweeps")) return sweep_points(j, data, fixed, variants, "");
  if (j.contains("axes") || j.contains("zip"))
    throw InputError("put 'axes' and 'zip' inside each sweep when 'sweeps' is given");
  const json& sweeps = j["sweeps"];
  if (!sweeps.is_array() || sweeps.empty())
    throw InputError("'sweeps' must be a non-empty list of objects");
  static const std::set<std::string> fields{"label", "axes", "zip", "params", "variants",
                                            "figures", "data", "validation", "repetitions",
                                            "warmup", "time_budget_s"};
  std::vector<Point> out;
  for (const json& s : sweeps) {
    require_object(s, "sweeps[]");
    for (const auto& [k, v] : s.items())
      if (!fields.count(k)) throw InputError("unknown sweep field '" + k + "'");
    if (s.contains("label") && !s["label"].is_string())
      throw InputError("sweep 'label' must be a string");
    check_figures(s, "sweeps[].", study);
    const std::string label = s.value("label", "sweep" + std::to_string(&s - &sweeps[0] + 1));
    SweepData own = data;
    if (s.contains("data")) {
      own.params = Params{};
      own.source = parse_data(s["data"], study, base_dir, own.params);
    }
    auto pts = sweep_points(s, own, fixed,
                            s.contains("variants") ? select_variants(s, study) : variants, label);
    if (s.contains("validation")) {
      if (!s["validation"].is_string()) throw InputError("sweep 'validation' must be a string");
      const Validation v = parse_validation(s["validation"].get<std::string>());
      for (Point& p : pts) p.validation = v;
    }
    if (s.contains("repetitions")) {
      const PerBackend n = per_backend(s, "repetitions", c.repetitions, 1);
      for (Point& p : pts) p.repetitions = n;
    }
    if (s.contains("warmup")) {
      const PerBackend n = per_backend(s, "warmup", c.warmup, 0);
      for (Point& p : pts) p.warmup = n;
    }
    if (s.contains("time_budget_s")) {
      const double b = time_budget(s);
      for (Point& p : pts) p.time_budget_s = b;
    }
    out.insert(out.end(), pts.begin(), pts.end());
  }
  return out;
}

// 'time_budget_s': seconds in [0, 86400], 0 for none; 0 when the object does not set it.
double time_budget(const json& j) {
  if (!j.contains("time_budget_s")) return 0;
  const json& v = j["time_budget_s"];
  if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() <= 86400))
    throw InputError("'time_budget_s' must be a number of seconds in [0, 86400] (0: no budget)");
  return v.get<double>();
}

// An integer, or {"cpu": N, "gpu": M} to tell slow CPU baselines from GPU steps.
// A key left out keeps `fallback`'s count.
PerBackend per_backend(const json& j, const char* key, PerBackend fallback, int lo) {
  auto one = [&](const json& v) {
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > 100000)
      throw InputError(std::string("'") + key + "' must be an integer in [" + std::to_string(lo) +
                       ", 100000] or {\"cpu\": N, \"gpu\": M}");
    return v.get<int>();
  };
  if (!j.contains(key)) return fallback;
  const json& v = j[key];
  if (!v.is_object()) return {one(v), one(v)};
  for (const auto& [k, x] : v.items())
    if (k != "cpu" && k != "gpu") throw InputError(std::string("'") + key + "' takes keys cpu, gpu");
  return {v.contains("cpu") ? one(v["cpu"]) : fallback.cpu,
          v.contains("gpu") ? one(v["gpu"]) : fallback.gpu};
}

}  // namespace

std::vector<std::string> input_files(const Config& c) {
  std::vector<std::string> files;
  auto add = [&files](const std::string& f) {
    if (!f.empty() && std::find(files.begin(), files.end(), f) == files.end()) files.push_back(f);
  };
  add(c.file.empty() ? c.path : c.file);
  for (const Point& p : c.points) {
    add(p.data.file);
    for (const auto& spec : c.study->data_params())
      if (spec.kind == ParamSpec::Kind::path && p.params.has(spec.name)) add(p.params.text(spec.name));
  }
  return files;
}

std::vector<Params> expand_axes(const json& product, const json& zip, const Params& fixed) {
  std::vector<Params> points{fixed};
  if (!product.is_null()) {
    require_object(product, "axes");
    for (const auto& [key, values] : product.items()) {
      std::vector<Params> next;
      for (const Params& base : points)
        for (const auto& v : list_field(product, key, "product")) {
          Params p = base;
          p.set(key, json_to_param(key, v));
          next.push_back(p);
        }
      points = std::move(next);
    }
  }
  if (!zip.is_null()) {
    require_object(zip, "zip");
    std::size_t len = 0;
    for (const auto& [key, values] : zip.items()) {
      std::size_t n = list_field(zip, key, "zip").size();
      if (len != 0 && n != len) throw InputError("'zip' axes must all have the same length");
      len = n;
    }
    std::vector<Params> next;
    for (const Params& base : points)
      for (std::size_t i = 0; i < len; ++i) {
        Params p = base;
        for (const auto& [key, values] : zip.items()) p.set(key, json_to_param(key, values[i]));
        next.push_back(p);
      }
    if (len > 0) points = std::move(next);
  }
  return points;
}

namespace {

const std::set<std::string> kConfigFields{
    "name",     "study",       "data",   "params",     "axes",        "zip",
    "variants", "repetitions", "warmup", "validation", "description", "sweeps",
    "timing",   "figures",     "reproduce", "time_budget_s", "profile"};

std::string sweep_label(const json& sweeps, std::size_t i) {
  const json& s = sweeps[i];
  return s.is_object() && s.contains("label") && s["label"].is_string()
             ? s["label"].get<std::string>()
             : "sweep" + std::to_string(i + 1);
}

// {"label": changes or null, ...}: each sweep of that label merged with its changes, or
// dropped.
json patch_sweeps(const json& sweeps, const json& by_label, const std::string& where) {
  if (!sweeps.is_array()) throw InputError(where + "sweeps' changes sweeps, but the config has none");
  json out = sweeps;
  for (const auto& [label, changes] : by_label.items()) {
    if (!changes.is_null() && !changes.is_object())
      throw InputError(where + "sweeps." + printable(label) + "' must be an object or null");
    bool found = false;
    json kept = json::array();
    for (std::size_t i = 0; i < out.size(); ++i) {
      if (sweep_label(out, i) != label) {
        kept.push_back(out[i]);
        continue;
      }
      found = true;
      if (changes.is_null()) continue;
      json s = out[i];
      s.merge_patch(changes);
      kept.push_back(s);
    }
    if (!found) throw InputError(where + "sweeps' names '" + printable(label) + "', which no sweep is labelled");
    out = kept;
  }
  return out;
}

const json* scale_block(const json& config, const std::string& scale) {
  if (!config.is_object() || !config.contains("reproduce")) return nullptr;
  const json& r = config["reproduce"];
  if (!r.is_object())
    throw InputError("'reproduce' must be an object (with optional 'paper' and 'quick' changes)");
  for (const auto& [k, v] : r.items()) {
    if (k != "paper" && k != "quick")
      throw InputError("unknown field 'reproduce." + printable(k) + "' (scales are paper and quick)");
    if (!v.is_object()) throw InputError("'reproduce." + k + "' must be an object");
  }
  return r.contains(scale) ? &r[scale] : nullptr;
}

}  // namespace

std::string parse_scale(const std::string& text, const std::string& where) {
  if (text == "paper" || text == "quick") return text;
  throw InputError(where + " must be paper or quick, got '" + printable(text) + "'");
}

bool is_paper_experiment(const json& config) {
  return config.is_object() && config.contains("reproduce");
}

json apply_scale(const json& config, const std::string& scale) {
  if (!scale.empty()) parse_scale(scale, "scale");
  const json* block = scale_block(config, scale.empty() ? "paper" : scale);
  if (scale.empty()) return config;
  json out = config;
  out.erase("reproduce");
  if (!block) return out;
  const std::string where = "'reproduce." + scale + ".";
  for (const auto& [k, v] : block->items()) {
    if (!kConfigFields.count(k) || k == "name" || k == "study" || k == "reproduce" || k == "description")
      throw InputError(where + printable(k) + "' is not a field a scale can change");
    if (k == "sweeps" && v.is_object()) {
      out["sweeps"] = patch_sweeps(config.value("sweeps", json()), v, where);
    } else {
      json patch = json::object();
      patch[k] = v;
      out.merge_patch(patch);
    }
  }
  return out;
}

Config parse_config(const json& j, const std::string& base_dir) {
  if (!j.is_object()) throw InputError("config must be a JSON object");
  for (const auto& [k, v] : j.items())
    if (!kConfigFields.count(k)) throw InputError("unknown config field '" + k + "'");
  // Each scale's changes are checked whatever the scale in use, so a bad quick block fails
  // `ladder run` of the paper config too.
  if (is_paper_experiment(j))
    for (const char* scale : kScales) {
      try {
        parse_config(apply_scale(j, scale), base_dir);
      } catch (const InputError& e) {
        throw InputError(std::string("at the ") + scale + " scale: " + e.what());
      }
    }

  Config c;
  if (!j.contains("study") || !j["study"].is_string())
    throw InputError("config needs a 'study' string");
  c.study = registry().study(j["study"].get<std::string>());
  if (!c.study) throw InputError("unknown study '" + j["study"].get<std::string>() + "'");
  for (const char* key : {"name", "description"})
    if (j.contains(key) && !j[key].is_string())
      throw InputError(std::string("'") + key + "' must be a string");
  c.name = j.value("name", c.study->name());

  if (!j.contains("data")) throw InputError("config needs a 'data' object");
  Params data_params;
  c.data = parse_data(j["data"], *c.study, base_dir, data_params);
  check_disjoint({{"data", &j["data"]}, {"params", field(j, "params")}});
  const Params params = merged(Params{}, j.value("params", json()));
  c.repetitions = per_backend(j, "repetitions", {10, 10}, 1);
  c.warmup = per_backend(j, "warmup", {2, 2}, 0);
  c.time_budget_s = time_budget(j);
  c.points = all_points(j, *c.study, {c.data, data_params}, params, base_dir, c);
  for (const Point& p : c.points)
    if (!p.data.file.empty()) check_file_points(*c.study, {p}, p.data.file);
  resolve_paths(*c.study, c.points, base_dir);
  for (const Point& p : c.points) check_point_params(*c.study, p);
  if (j.contains("validation")) {
    if (!j["validation"].is_string()) throw InputError("'validation' must be a string");
    c.validation = parse_validation(j["validation"].get<std::string>());
  }
  if (j.contains("timing")) {
    if (!j["timing"].is_string()) throw InputError("'timing' must be the string hot or cold");
    c.timing = parse_timing(j["timing"].get<std::string>(), "'timing'");
  }
  check_figures(j, "", *c.study);
  check_profile_choice(j);
  c.resolved = j;
  if (!c.data.file.empty()) c.resolved["data"]["file"] = c.data.file;
  return c;
}

Config load_config(const std::string& path, const std::string& scale) {
  const std::string file = resolve_shared_path(path);
  json j = read_json_file(file, "config '" + printable(path, 80) + "'", kMaxDepth);
  const std::string base_dir = fs::path(file).parent_path().string();
  if (scale.empty()) {
    Config c = parse_config(j, base_dir);
    c.path = path;
    c.file = file;
    return c;
  }
  if (scale == "quick" && !scale_block(j, "quick"))
    throw InputError("config '" + printable(path, 80) + "' has no quick scale ('reproduce.quick')");
  parse_config(j, base_dir);  // the config as written, both scales included, must be sound
  Config c = parse_config(apply_scale(j, scale), base_dir);
  c.path = path;
  c.file = file;
  c.scale = scale;
  return c;
}

}  // namespace ladder
