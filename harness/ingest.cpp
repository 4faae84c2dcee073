#include "ingest.hpp"

#include <cmath>
#include <filesystem>
#include <set>

#include "../datagen/base/errors.hpp"
#include "../datagen/base/printable.hpp"
#include "../datagen/json_file.hpp"
#include "../datagen/npy.hpp"

namespace ladder {
namespace {

using json = nlohmann::json;

constexpr std::size_t kMaxHandoverDepth = 16;
// A variant's name as results, figures and --filter meet it: bounded, so that nothing (the
// filter's std::regex least of all, which matches recursively) meets an unbounded one.
constexpr std::size_t kMaxVariantName = 100;
constexpr int kPeerStep = 90;  // after every step of every ladder

// Plays back what the peer measured: its warm-up calls, then its samples in order; the
// outputs are read from the peer's file when the runner fetches them.
class Replay : public Instance {
 public:
  explicit Replay(const PeerRun& run) : run_(run) {}
  void poison() override {}
  double run_ms() override {
    const std::size_t i = calls_++;
    const std::size_t w = static_cast<std::size_t>(run_.warmup);
    return i < w ? 0 : run_.samples_ms.at(i - w);
  }
  Output fetch() override { return read_npy_output(run_.outputs); }
  std::map<std::string, double> facts() const override { return run_.facts; }

 private:
  const PeerRun& run_;
  std::size_t calls_ = 0;
};

// The handover's words for what it names, checked as a field of `where`.
class Fields {
 public:
  Fields(const json& j, std::string where, std::set<std::string> allowed)
      : j_(j), where_(std::move(where)) {
    if (!j.is_object()) throw InputError(where_ + " must be an object");
    for (const auto& [k, v] : j.items())
      if (!allowed.count(k)) throw InputError(where_ + " has an unknown field '" + printable(k, 40) + "'");
  }
  bool has(const char* k) const { return j_.contains(k); }
  std::string text(const char* k, bool required = true) const {
    if (!has(k)) {
      if (required) throw InputError(where_ + " needs '" + k + "'");
      return "";
    }
    if (!j_[k].is_string()) throw InputError(where_ + "." + k + " must be text");
    std::string t = j_[k].get<std::string>();
    if (t.find('\n') != std::string::npos) throw InputError(where_ + "." + k + " must be one line");
    return t;
  }
  std::size_t index(const char* k, std::size_t size, const char* of) const {
    if (!has(k) || !j_[k].is_number_unsigned() || j_[k].get<std::size_t>() >= size)
      throw InputError(where_ + "." + k + " must be the index of one of the " +
                       std::to_string(size) + " " + of);
    return j_[k].get<std::size_t>();
  }
  // A field absent reads as null (json's const operator[] on a missing key is undefined).
  const json& at(const char* k) const {
    static const json none;
    const auto it = j_.find(k);
    return it == j_.end() ? none : *it;
  }
  const std::string& where() const { return where_; }

 private:
  const json& j_;
  std::string where_;
};

Precision parse_precision(const std::string& t, const std::string& where) {
  for (Precision p : {Precision::fp64, Precision::fp32, Precision::tf32, Precision::tf32x3,
                      Precision::fp16, Precision::fp16x3, Precision::fp16x2, Precision::int32})
    if (t == to_string(p)) return p;
  throw InputError(where + " '" + printable(t, 40) +
                   "' is not fp64, fp32, tf32, tf32x3, fp16, fp16x3, fp16x2 or int32");
}

Backend parse_backend(const std::string& t, const std::string& where) {
  if (t == "cpu") return Backend::cpu;
  if (t == "gpu") return Backend::gpu;
  throw InputError(where + " '" + printable(t, 40) + "' is not cpu or gpu");
}

// A variant of the peer: a name of its own (never one of the study's steps), as results and
// figures show it, and the study parameters it computes at instead of the point's.
void read_variant(const json& j, std::size_t i, const Config& c, Handover& h) {
  const Fields f(j, "handover variants[" + std::to_string(i) + "]",
                 {"name", "label", "change", "backend", "precision", "params"});
  VariantSpec v;
  v.study = c.study->name();
  v.name = f.text("name");
  if (v.name.size() > kMaxVariantName)
    throw InputError(f.where() + ".name '" + printable(v.name, 40) + "' is longer than " +
                     std::to_string(kMaxVariantName) + " characters");
  if (v.name.empty() || v.name.find_first_of("/ ,=") != std::string::npos)
    throw InputError(f.where() + ".name must be a word without '/', ' ', ',' or '='");
  if (registry().variant(v.id()))
    throw InputError(f.where() + ".name '" + v.id() + "' is a step of the study, not a peer");
  for (const VariantSpec& other : h.variants)
    if (other.name == v.name) throw InputError(f.where() + ".name '" + v.name + "' is given twice");
  v.step = kPeerStep;
  v.role = Role::peer;
  v.label = f.text("label");
  v.change = f.text("change", false);
  v.backend = parse_backend(f.text("backend"), f.where() + ".backend");
  v.precision = parse_precision(f.text("precision"), f.where() + ".precision");
  Params over;
  if (f.has("params")) {
    if (!f.at("params").is_object()) throw InputError(f.where() + ".params must be an object");
    const std::vector<ParamSpec> known = c.study->data_params();
    for (const auto& item : f.at("params").items()) {
      const std::string name = item.key();
      auto spec = std::find_if(known.begin(), known.end(),
                               [&](const ParamSpec& s) { return s.name == name; });
      if (spec == known.end())
        throw InputError(f.where() + ".params: '" + printable(name, 40) +
                         "' is not a parameter of study " + v.study);
      const std::string text = json_to_param(name, item.value());
      check_param(*spec, text);
      over.set(name, text);
    }
  }
  h.variants.push_back(std::move(v));
  h.overrides.push_back(std::move(over));
}

std::vector<double> read_samples(const Fields& f) {
  const json& s = f.at("samples_ms");
  if (!s.is_array() || s.empty()) throw InputError(f.where() + ".samples_ms must be a non-empty list");
  std::vector<double> out;
  for (const json& x : s) {
    if (!x.is_number() || !std::isfinite(x.get<double>()) || x.get<double>() <= 0)
      throw InputError(f.where() + ".samples_ms holds " + printable(x.dump(), 40) +
                       ": every sample is a positive number of milliseconds");
    out.push_back(x.get<double>());
  }
  return out;
}

// A run: outputs and samples, or why the library did not run the point.
PeerRun read_run(const json& j, std::size_t i, const Config& c, const Handover& h,
                 const std::filesystem::path& dir) {
  const Fields f(j, "handover runs[" + std::to_string(i) + "]",
                 {"point", "variant", "outputs", "samples_ms", "warmup", "facts", "note",
                  "unsupported", "error"});
  PeerRun r;
  r.point = f.index("point", c.points.size(), "points of the config (`ladder plan --json`)");
  const std::string name = f.text("variant");
  auto v = std::find_if(h.variants.begin(), h.variants.end(), [&](const VariantSpec& s) { return s.name == name; });
  if (v == h.variants.end()) throw InputError(f.where() + ".variant '" + printable(name, 40) + "' is not in the handover's variants");
  r.variant = static_cast<std::size_t>(v - h.variants.begin());
  r.note = f.text("note", false);
  r.unsupported = f.text("unsupported", false);
  r.error = f.text("error", false);
  if (f.has("unsupported") + f.has("error") + f.has("outputs") != 1)
    throw InputError(f.where() + " needs exactly one of 'outputs', 'unsupported' or 'error'");
  if (!f.has("outputs")) {
    if ((f.has("unsupported") ? r.unsupported : r.error).empty())
      throw InputError(f.where() + " must say why it did not run");
    return r;
  }
  r.outputs = (dir / f.text("outputs")).string();
  try {
    read_npy_output(r.outputs);  // a malformed file is bad input, refused before anything runs
  } catch (const InputError& e) {
    throw InputError(f.where() + ".outputs: " + e.what());
  }
  r.samples_ms = read_samples(f);
  if (f.has("warmup")) {
    if (!f.at("warmup").is_number_unsigned() || f.at("warmup").get<std::size_t>() > 100000)
      throw InputError(f.where() + ".warmup must be a whole number of calls from 0 to 100000");
    r.warmup = f.at("warmup").get<int>();
  }
  if (f.has("facts")) {
    if (!f.at("facts").is_object()) throw InputError(f.where() + ".facts must be an object");
    for (const auto& [k, x] : f.at("facts").items()) {
      if (!x.is_number() || !std::isfinite(x.get<double>()))
        throw InputError(f.where() + ".facts." + printable(k, 40) + " must be a finite number");
      r.facts[k] = x.get<double>();
    }
  }
  return r;
}

// The figures lists of a config (top level and sweeps) without `ladder`.
void drop_ladder_figure(json& j) {
  auto drop = [](json& owner) {
    if (!owner.is_object() || !owner.contains("figures") || !owner["figures"].is_array()) return;
    json kept = json::array();
    for (const json& f : owner["figures"])
      if (f != "ladder") kept.push_back(f);
    owner["figures"] = kept;
  };
  drop(j);
  if (j.contains("sweeps") && j["sweeps"].is_array())
    for (json& s : j["sweeps"]) drop(s);
}

}  // namespace

Handover read_handover(const std::string& path, const Config& config) {
  const std::string what = "handover '" + printable(path, 80) + "'";
  return parse_handover(read_json_file(path, what, kMaxHandoverDepth), path, config);
}

Handover parse_handover(const json& j, const std::string& path, const Config& config) {
  const std::string what = "handover '" + printable(path, 80) + "'";
  const Fields f(j, what, {"peer", "variants", "runs"});
  Handover h;
  h.path = path;
  h.peer = f.has("peer") ? f.at("peer") : json::object();
  if (!h.peer.is_object()) throw InputError(what + ": 'peer' must be an object");
  if (!f.has("variants") || !f.at("variants").is_array() || f.at("variants").empty())
    throw InputError(what + " needs a non-empty 'variants' list");
  for (std::size_t i = 0; i < f.at("variants").size(); ++i) read_variant(f.at("variants")[i], i, config, h);
  if (!f.has("runs") || !f.at("runs").is_array() || f.at("runs").empty())
    throw InputError(what + " needs a non-empty 'runs' list");
  const auto dir = std::filesystem::path(path).parent_path();
  std::set<std::pair<std::size_t, std::size_t>> seen;
  for (std::size_t i = 0; i < f.at("runs").size(); ++i) {
    PeerRun r = read_run(f.at("runs")[i], i, config, h, dir);
    if (!seen.insert({r.point, r.variant}).second)
      throw InputError(what + ": point " + std::to_string(r.point) + " of variant " +
                       h.variants[r.variant].name + " is handed over twice");
    h.runs.push_back(std::move(r));
  }
  std::stable_sort(h.runs.begin(), h.runs.end(), [](const PeerRun& a, const PeerRun& b) {
    return a.point != b.point ? a.point < b.point : a.variant < b.variant;
  });
  return h;
}

json peer_resolved(json resolved) {
  if (resolved.is_object()) resolved.erase("timing");
  drop_ladder_figure(resolved);
  return resolved;
}

PeerConfig peer_config(const Config& config, const Handover& h) {
  PeerConfig out;
  Config& c = out.config;
  c = config;
  c.points.clear();
  c.timing = TimingMode::hot;
  c.resolved = peer_resolved(std::move(c.resolved));
  for (const PeerRun& run : h.runs) {
    auto v = std::make_unique<VariantSpec>(h.variants[run.variant]);
    v->supports = [&run](const Problem&, const Params&, const DeviceCaps&) { return run.unsupported; };
    v->prepare = [&run](const Problem&, const Params&, const DeviceCaps&) -> std::unique_ptr<Instance> {
      if (!run.error.empty()) throw std::runtime_error(run.error);
      return std::make_unique<Replay>(run);
    };
    Point pt = config.points[run.point];
    pt.name = pt.params.key();
    // Only outputs were computed at the variant's parameters: a point the library did not
    // run stays as the config has it (the parameters might not even fit it).
    if (!run.outputs.empty())
      for (const auto& [k, value] : h.overrides[run.variant].items()) pt.params.set(k, value);
    pt.variants = {v.get()};
    const int reps = std::max<int>(1, static_cast<int>(run.samples_ms.size()));
    pt.repetitions = PerBackend{reps, reps};
    pt.warmup = PerBackend{run.warmup, run.warmup};
    pt.time_budget_s = 0;  // the peer's samples are replayed as they came, never cut
    c.points.push_back(std::move(pt));
    out.variants.push_back(std::move(v));
  }
  return out;
}

}  // namespace ladder
