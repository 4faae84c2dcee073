#include "reuse.hpp"

#include <cmath>
#include <map>
#include <set>

#include "../datagen/base/errors.hpp"
#include "results.hpp"

namespace ladder {
namespace {

using json = nlohmann::json;

// obj[key] when obj is an object holding it, else null: reading a field never throws.
const json& field(const json& obj, const char* key) {
  static const json none;
  if (!obj.is_object()) return none;
  const auto it = obj.find(key);
  return it == obj.end() ? none : *it;
}

bool is_text(const json& v, const std::string& want) { return v.is_string() && v.get<std::string>() == want; }

// The schema every results reader checks (names, a numeric median per timed run).
std::string schema_problem(const json& r) {
  try {
    check_results(r, "it");
  } catch (const InputError& e) {
    return e.what();  // "it is not a ladder results file: <the field amiss>"
  }
  return "";
}

// How many runs have each status; "" when every status is one ladder writes.
std::string count_statuses(const json& runs, std::map<std::string, std::size_t>& counts) {
  static const std::set<std::string> known = {"passed", "incorrect", "unsupported", "skipped", "error"};
  for (const json& run : runs) {
    const json& s = field(run, "status");
    if (!s.is_string() || !known.count(s.get<std::string>())) return "a run has no valid status";
    ++counts[s.get<std::string>()];
  }
  return "";
}

// The summary must be the runs' own counts: a hand-edited one could hide a failure.
std::string summary_mismatch(const json& summary, const std::map<std::string, std::size_t>& counts) {
  if (!summary.is_object()) return "its summary is not an object";
  for (const auto& [status, n] : summary.items())
    if (!n.is_number_unsigned()) return "its summary count '" + status + "' is not a count";
  for (const auto& [status, n] : counts)
    if (field(summary, status.c_str()) != json(n)) return "its summary does not match its runs";
  if (summary.size() != counts.size()) return "its summary does not match its runs";
  return "";
}

// Valid and complete, whatever it was run for.
std::string completeness_problem(const json& r, std::size_t planned, bool& all_ok) {
  if (std::string why = why_incomplete(r); !why.empty()) return why;
  const json& runs = field(r, "runs");
  if (field(r, "runs_planned") != json(planned) || runs.size() != planned)
    return "it does not hold the " + std::to_string(planned) + " runs the config plans";
  if (std::string why = summary_problem(r); !why.empty()) return why;
  const json& summary = field(r, "summary");
  all_ok = !summary.contains("incorrect") && !summary.contains("error");
  return "";
}

// The device's name as a results file records it: "" where there was none (no GPU), false
// when the field is of another type.
bool device_name(const json& r, std::string& name) {
  const json& n = field(field(r, "device"), "name");
  name = n.is_string() ? n.get<std::string>() : "";
  return n.is_null() || n.is_string();
}

std::string device_problem(const json& r, const ReuseKey& want) {
  const json& dev = field(r, "device");
  std::string name;
  if (!dev.is_object() || !field(dev, "present").is_boolean() || !device_name(r, name))
    return "its device is not recorded";
  if (field(dev, "present").get<bool>() != want.device_present || name != want.device_name)
    return "another device";
  return "";
}

std::string config_problem(const json& r, const ReuseKey& want) {
  if (field(r, "config") != want.config) return "another config";
  const json& study = field(want.config, "study");
  for (const json& run : field(r, "runs"))
    if (field(run, "study") != study) return "a run of another study";
  return "";
}

double elapsed_of(const json& r) {
  const json &a = field(r, "started_at"), &b = field(r, "finished_at");
  if (!a.is_string() || !b.is_string()) return 0;
  return std::max(0.0, seconds_between(a.get<std::string>(), b.get<std::string>()));
}

}  // namespace

ReuseVerdict judge_results(const json& r, const ReuseKey& want) {
  ReuseVerdict v;
  v.why_not = completeness_problem(r, want.planned, v.all_ok);
  // A build that does not know its commit cannot tell that the file's code is its own.
  if (v.why_not.empty() && want.commit == "unknown") v.why_not = "this build's commit is unknown";
  if (v.why_not.empty() && !is_text(field(field(r, "ladder"), "git_commit"), want.commit))
    v.why_not = "another commit";
  if (v.why_not.empty() && !is_text(field(r, "scale"), want.scale)) v.why_not = "another scale";
  if (v.why_not.empty()) v.why_not = device_problem(r, want);
  if (v.why_not.empty()) v.why_not = config_problem(r, want);
  if (v.why_not.empty()) v.elapsed_s = elapsed_of(r);
  return v;
}

std::string summary_problem(const json& r) {
  std::map<std::string, std::size_t> counts;
  if (std::string why = count_statuses(field(r, "runs"), counts); !why.empty()) return why;
  return summary_mismatch(field(r, "summary"), counts);
}

std::string why_incomplete(const json& r) {
  if (std::string why = schema_problem(r); !why.empty()) return why;
  const json& complete = field(r, "complete");
  if (!complete.is_boolean()) return "its 'complete' is not true or false";
  return complete.get<bool>() ? "" : "it is incomplete";
}

ReuseVerdict judge_peer_results(const json& r, const ReuseKey& want) {
  ReuseVerdict v;
  if (v.why_not = why_incomplete(r); !v.why_not.empty()) return v;
  if (want.commit == "unknown") return v.why_not = "this build's commit is unknown", v;
  if (!is_text(field(field(r, "ladder"), "git_commit"), want.commit)) return v.why_not = "another commit", v;
  if (!is_text(field(r, "scale"), want.scale)) return v.why_not = "another scale", v;
  if (field(r, "config") != want.config) return v.why_not = "another config", v;
  std::string name;
  if (!device_name(r, name) || name != want.device_name) return v.why_not = "another device", v;
  v.elapsed_s = elapsed_of(r);
  v.all_ok = true;
  return v;
}

std::vector<double> manifest_times(const json& manifest, const std::vector<std::string>& names) {
  std::vector<double> times(names.size(), -1.0);
  const json& configs = field(manifest, "configs");
  if (!configs.is_array()) return times;
  for (const json& c : configs) {
    const json &name = field(c, "name"), &s = field(c, "elapsed_s");
    if (!name.is_string() || !s.is_number() || !std::isfinite(s.get<double>()) || s.get<double>() < 0)
      continue;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (name.get<std::string>() == names[i]) times[i] = s.get<double>();
  }
  return times;
}

CostTimes cost_table_times(const json& table, const std::string& scale, const std::vector<std::string>& names) {
  const json& entry = field(field(table, "scales"), scale.c_str());
  const json& gpu = field(entry, "gpu");
  return {manifest_times(entry, names), gpu.is_string() ? gpu.get<std::string>() : ""};
}

}  // namespace ladder
