#include "results.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>

#include "../datagen/base/atomic_file.hpp"
#include "build_info.hpp"
#include "../datagen/base/errors.hpp"
#include "../datagen/json_file.hpp"
#include "../datagen/numbers.hpp"

namespace ladder {
namespace {

using json = nlohmann::json;

// JSON has no NaN or infinity; such values are written as null.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

// One bound on the run's throughput, in the metric's unit: its value (null when unknown or
// not claimed), name, rule or why there is none, and the traffic a memory bound counts.
json bound_json(const Bound& b) {
  json j = {{"peak", b.known() ? json(b.peak) : json(nullptr)}};
  if (!b.name.empty()) j["limit"] = b.name;
  if (!b.rule.empty()) j["rule"] = b.rule;
  if (!b.reason.empty()) j["reason"] = b.reason;
  if (b.bytes > 0) j["bytes"] = b.bytes;
  return j;
}

// Both bounds the limit (`peak`) is the least of, and which one it is ("compute", "memory";
// null when no limit is known).
json bounds_json(const Work& w) {
  return {{"compute", bound_json(w.compute)},
          {"memory", bound_json(w.memory)},
          {"binds", w.binds.empty() ? json(nullptr) : json(w.binds)}};
}

json run_json(const RunRecord& r) {
  json params = json::object();
  for (const auto& [k, v] : r.params.items()) params[k] = v;
  json j = {{"run_index", r.run_index},
            {"study", r.variant->study},
            {"variant", r.variant->name},
            {"step", r.variant->step},
            {"label", r.variant->label},
            {"role", to_string(r.variant->role)},
            {"change", r.variant->change},
            {"backend", to_string(r.variant->backend)},
            {"precision", to_string(r.variant->precision)},
            {"metric", r.work.metric},
            {"point", r.point},
            {"sweep", r.sweep},
            {"params", params},
            {"status", to_string(r.status)},
            {"reason", r.reason},
            {"data", r.data},
            {"extras", r.extras},
            {"facts", r.facts}};
  j["validation"] = {{"mode", r.validation.text()},
                     {"checked", r.check.checked},
                     {"failures", r.check.failures},
                     {"max_abs_error", number(r.check.max_abs)},
                     {"max_rel_error", number(r.check.max_rel)},
                     {"tolerance", {{"abs", r.tolerance.abs},
                                    {"rel", r.tolerance.rel},
                                    {"rule", r.tolerance.rule}}}};
  if (!r.note.empty()) j["note"] = r.note;
  if (r.wall_s >= 0) j["wall_s"] = r.wall_s;
  if (!r.emulated.empty()) j["emulated"] = r.emulated;
  if (!r.samples_ms.empty()) {
    const auto [lo, hi] = std::minmax_element(r.samples_ms.begin(), r.samples_ms.end());
    const double med = median_of(r.samples_ms);
    j["timing"] = {{"unit", "ms"},
                   {"mode", to_string(r.timing)},
                   {"warmup", r.warmup},
                   {"samples", r.samples_ms},
                   {"median", med},
                   {"min", *lo},
                   {"max", *hi},
                   {"mean", number(r.stats.mean)},
                   {"stddev", number(r.stats.stddev)},
                   {"cv", number(r.stats.cv)}};
    if (r.time_budget_s > 0) {
      j["timing"]["time_budget_s"] = r.time_budget_s;
      j["timing"]["repetitions_planned"] = r.repetitions_planned;
    }
    if (!r.stage_samples_ms.empty()) {
      json stages = json::object();
      for (const auto& [stage, v] : r.stage_samples_ms) stages[stage] = median_of(v);
      j["timing"]["stage_medians"] = stages;
    }
    j["timing"].update(sampling_json(r));  // nothing for a run taken without the sampling options
    json m = json::object();
    if (const double value = r.work.rate(med); value > 0) {
      m[r.work.metric] = value;
      m["unit"] = r.work.unit;
      m["work"] = r.work.amount;
      if (r.work.peak > 0) {
        m["peak"] = r.work.peak;
        m["peak_rule"] = r.work.peak_rule;
        m["limit"] = r.work.peak_name;
        m["pct_of_peak"] = 100.0 * value / r.work.peak;
      } else if (!r.work.peak_reason.empty()) {
        m["pct_of_peak"] = nullptr;  // the study claims a limit, but not one known here
        m["peak_reason"] = r.work.peak_reason;
      }
      if (r.work.peak > 0 || !r.work.peak_reason.empty() || !r.work.compute.reason.empty() ||
          r.work.memory.bytes > 0)
        m["bounds"] = bounds_json(r.work);
    }
    j["metrics"] = m;
  } else {
    j["timing"] = nullptr;
    j["metrics"] = json::object();
  }
  return j;
}

}  // namespace

std::string utc_timestamp() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

double seconds_between(const std::string& start, const std::string& end) {
  auto parse = [](const std::string& text) {
    std::tm tm{};
    const char* rest = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return rest && *rest == '\0' ? static_cast<double>(timegm(&tm)) : -1.0;
  };
  const double a = parse(start), b = parse(end);
  return a >= 0 && b >= a ? b - a : -1.0;
}

json build_json() {
  return {{"version", LADDER_VERSION},
          {"git_commit", LADDER_GIT_COMMIT},
          {"build_type", LADDER_BUILD_TYPE},
          {"cuda_arch", LADDER_CUDA_ARCH}};
}

json results_json(const RunReport& report) {
  json runs = json::array();
  json counts = json::object();
  for (const auto& r : report.runs) {
    runs.push_back(run_json(r));
    counts[to_string(r.status)] = counts.value(to_string(r.status), 0) + 1;
  }
  json out = {{"schema_version", kSchemaVersion},
          {"ladder", build_json()},
          {"host", host_json()},
          {"device", device_json(report.device, report.clock_start_mhz, report.clock_end_mhz)},
          {"config", report.config.resolved},
          {"config_path", report.config.path},
          {"validation_mode", report.validation.text()},
          {"profile", report.options.profile},
          {"timing_mode", to_string(report.config.timing)},
          {"started_at", report.started_at},
          {"finished_at", report.finished_at},
          {"runs_planned", report.planned},
          {"complete", report.runs.size() == report.planned && !report.finished_at.empty()},
          {"summary", counts},
          {"runs", runs}};
  // Which reproduction scale the config ran at (`--scale`, `ladder reproduce`), when any.
  if (!report.config.scale.empty()) out["scale"] = report.config.scale;
  if (!report.peer.is_null()) out["peer"] = report.peer;
  if (json s = scheduler_json(); !s.is_null()) out["scheduler"] = s;
  if (const ShardInfo& s = report.options.shard; s.active()) {
    out["shard"] = {{"index", s.index}, {"count", s.count}, {"plan_hash", s.plan_hash},
                    {"runs_total", s.owners.size()}, {"owners", s.owners}};
    if (!s.reproduction.empty()) out["shard"]["reproduction"] = s.reproduction;
  }
  return out;
}

void write_results(const std::string& path, const RunReport& report, const json& more) {
  json out = results_json(report);
  for (const auto& [key, value] : more.items()) out[key] = value;
  write_file_atomically(path, out.dump(2) + "\n");
}

namespace {

// Why run `i` of a results file is not one every reader can take ("" when it is): it names its
// study, variant and point (and its sweep, if any) as text, and a timed run (timing not null)
// has a numeric median.
std::string run_problem(const json& r, std::size_t i) {
  const std::string run = "runs[" + std::to_string(i) + "]";
  if (!r.is_object()) return run + " is not an object";
  for (const char* key : {"study", "variant", "point"})
    if (!r.contains(key) || !r[key].is_string()) return run + " has no '" + key + "' text";
  if (r.contains("sweep") && !r["sweep"].is_string()) return run + "'s 'sweep' is not text";
  const json* t = r.contains("timing") ? &r["timing"] : nullptr;
  if (t && !t->is_null() && !(t->is_object() && t->contains("median") && (*t)["median"].is_number()))
    return run + "'s 'timing' has no numeric median";
  return "";
}

// The first field that keeps `j` from being a results file, named ("" when there is none).
std::string schema_problem(const json& j) {
  if (!j.is_object()) return "it is not a JSON object";
  const std::string readable = fmt::format("{} to {}", kOldestSchemaVersion, kSchemaVersion);
  if (!j.contains("schema_version")) return "it has no schema_version (this ladder reads " + readable + ")";
  const json& v = j["schema_version"];
  if (!v.is_number_integer() || v.get<std::int64_t>() < kOldestSchemaVersion || v.get<std::int64_t>() > kSchemaVersion)
    return "its schema_version is " + printable(v.dump(), 40) + ", and this ladder reads " + readable;
  if (!j.contains("runs") || !j["runs"].is_array()) return "its 'runs' is not a list";
  for (std::size_t i = 0; i < j["runs"].size(); ++i)
    if (std::string why = run_problem(j["runs"][i], i); !why.empty()) return why;
  return "";
}

}  // namespace

json check_results(const json& j, const std::string& what) {
  if (std::string why = schema_problem(j); !why.empty())
    throw InputError(what + " is not a ladder results file: " + why);
  return j;
}

json read_results(const std::string& path) {
  const std::string what = "results file '" + printable(path, 80) + "'";
  return check_results(read_json_file(path, what, kMaxResultsDepth), what);
}

}  // namespace ladder
