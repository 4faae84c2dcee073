#include "processes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>

#include "../datagen/base/errors.hpp"
#include "../datagen/base/printable.hpp"
#include "results.hpp"
#include "stats.hpp"
#include "json_at.hpp"

namespace ladder {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string shown(const std::string& path) { return "'" + printable(path, 120) + "'"; }


// JSON has no NaN or infinity; such values are written as null.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

// The fields K processes of one config must share, each named as the error names it.
struct SharedField {
  const char* name;
  const char* key;
  const char* member = nullptr;  // key.member when set
};
const SharedField kShared[] = {
    {"config name (config.name)", "config", "name"},
    {"ladder.git_commit", "ladder", "git_commit"},
    {"scale", "scale"},
    {"config", "config"},
    {"runs_planned", "runs_planned"},
    {"validation_mode", "validation_mode"},
    {"timing_mode", "timing_mode"},
    {"GPU model (device.name)", "device", "name"},
};

const json& shared_field(const json& results, const SharedField& f) {
  return f.member ? json_at(results, {f.key, f.member}) : json_at(results, {f.key});
}

// A file that is not one process's results of a whole config is refused.
void check_part(const ProcessPart& p) {
  if (p.results.contains("shard"))
    throw InputError(shown(p.path) + " is a shard's results (shard): merge shards with `ladder merge` first");
  if (p.results.contains("processes"))
    throw InputError(shown(p.path) + " already joins several processes (processes): give one-process files");
}

void check_together(const ProcessPart& a, const ProcessPart& b) {
  for (const SharedField& f : kShared) {
    const json &x = shared_field(a.results, f), &y = shared_field(b.results, f);
    if (x != y)
      throw InputError(fmt::format("{} and {} are not processes of one config on one GPU model: their {} differ "
                                   "({} and {})", shown(a.path), shown(b.path), f.name, printable(x.dump(), 60),
                                   printable(y.dump(), 60)));
  }
}

// A run's place in its plan: run_index, or its place in the file for files without one.
std::size_t index_of(const json& run, std::size_t position) {
  const json& i = json_at(run, {"run_index"});
  return i.is_number_integer() && i.get<std::int64_t>() >= 0 ? i.get<std::size_t>() : position;
}

// The fields that name a run: the same run_index must name the same run in every process.
const char* const kIdentity[] = {"study", "variant", "sweep", "point"};

// Each process's runs by run_index; refuses an index twice in a file, or naming another run
// than in an earlier file.
using RunTable = std::map<std::size_t, std::vector<const json*>>;

RunTable table_runs(const std::vector<ProcessPart>& parts) {
  RunTable table;
  std::map<std::size_t, std::size_t> first_file;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const json& runs = parts[k].results["runs"];
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const std::size_t r = index_of(runs[i], i);
      auto& slots = table[r];
      slots.resize(parts.size(), nullptr);
      if (slots[k]) throw InputError(fmt::format("{} holds run {} twice (run_index)", shown(parts[k].path), r));
      slots[k] = &runs[i];
      const auto [it, fresh] = first_file.emplace(r, k);
      if (fresh) continue;
      const json& earlier = *slots[it->second];
      for (const char* key : kIdentity)
        if (json_at(earlier, {key}) != json_at(runs[i], {key}))
          throw InputError(fmt::format("{} and {} hold different runs as run {}: their {}s differ ({} and {})",
                                       shown(parts[it->second].path), shown(parts[k].path), r, key,
                                       printable(json_at(earlier, {key}).dump(), 60),
                                       printable(json_at(runs[i], {key}).dump(), 60)));
    }
  }
  return table;
}

// A timed run's samples in one process: each a finite time of 0 ms or more (a file's median
// alone when it kept no samples).
std::vector<double> samples_of(const json& timing, const std::string& where) {
  std::vector<double> out;
  const json& s = json_at(timing, {"samples"});
  if (!s.is_null() && !s.is_array()) throw InputError(where + ".samples is not a list");
  if (s.is_array())
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!s[i].is_number() || !std::isfinite(s[i].get<double>()) || s[i].get<double>() < 0)
        throw InputError(fmt::format("{}.samples[{}] is {}, not a time in ms", where, i, printable(s[i].dump(), 40)));
      out.push_back(s[i].get<double>());
    }
  if (out.empty()) {
    const double m = timing["median"].get<double>();  // numeric: check_results saw to it
    if (!std::isfinite(m) || m < 0) throw InputError(fmt::format("{}.median is not a time in ms", where));
    out.push_back(m);
  }
  return out;
}

// Each stage's median across the processes that timed it.
json stage_medians(const std::vector<const json*>& timed) {
  std::map<std::string, std::vector<double>> by_stage;
  for (const json* t : timed) {
    const json& stages = json_at(*t, {"stage_medians"});
    if (!stages.is_object()) continue;
    for (const auto& [stage, v] : stages.items())
      if (v.is_number()) by_stage[stage].push_back(v.get<double>());
  }
  json out = json::object();
  for (const auto& [stage, v] : by_stage) out[stage] = stats::median(v);
  return out;
}

// The statistics of the samples as one list: what readers of one-process files read.
void pooled_fields(json& t, const std::vector<double>& all) {
  const double mean = stats::mean(all), sd = stats::sample_sd(all);
  const auto [lo, hi] = std::minmax_element(all.begin(), all.end());
  t["samples"] = all;
  t["min"] = *lo;
  t["max"] = *hi;
  t["mean"] = number(mean);
  t["stddev"] = number(sd);
  t["cv"] = number(mean > 0 ? sd / mean : NAN);
}

// Variance components and the geometric mean need logarithms: only when every time is above 0.
void log_fields(json& t, const std::vector<std::vector<double>>& by_process, const std::vector<double>& medians) {
  const bool positive = std::all_of(by_process.begin(), by_process.end(), [](const std::vector<double>& v) {
    return std::all_of(v.begin(), v.end(), [](double x) { return x > 0; });
  });
  if (!positive) {
    for (const char* key : {"geomean_of_process_medians", "sd_log_between", "sd_log_within", "sd_log_process", "icc"})
      t[key] = nullptr;
    return;
  }
  std::vector<double> logs;
  for (double m : medians) logs.push_back(std::log(m));
  const stats::Components c = stats::variance_components(by_process);
  t["geomean_of_process_medians"] = number(std::exp(stats::mean(logs)));
  t["sd_log_between"] = number(c.sd_log_between);
  t["sd_log_within"] = number(c.sd_log_within);
  t["sd_log_process"] = number(c.sd_log_process);
  t["icc"] = number(c.icc);
}

// A run's metrics at the merged median: a rate is work over time, so it scales inversely.
json scaled_metrics(json metrics, const std::string& metric, double was_ms, double now_ms) {
  if (!metrics.is_object() || was_ms <= 0 || now_ms <= 0) return metrics;
  const double f = was_ms / now_ms;
  for (const std::string key : {metric, std::string("pct_of_peak")})
    if (metrics.contains(key) && metrics[key].is_number()) metrics[key] = metrics[key].get<double>() * f;
  return metrics;
}

// The status of a run across processes: incorrect or error in any process wins (incorrect
// first: a wrong answer is the worse news), its reason naming the process.
void merge_status(json& run, const std::vector<const json*>& slots) {
  for (const char* bad : {"incorrect", "error"})
    for (std::size_t k = 0; k < slots.size(); ++k) {
      if (!slots[k] || json_at(*slots[k], {"status"}) != json(bad)) continue;
      const json& reason = json_at(*slots[k], {"reason"});
      run["status"] = bad;
      run["reason"] = fmt::format("process {} of {}: {}", k, slots.size(), reason.is_string() ? reason.get<std::string>() : "");
      if (slots[k]->contains("validation")) run["validation"] = (*slots[k])["validation"];
      return;
    }
}

// One run joined across processes: the first process's record, with the status, timing,
// metrics and wall time of all.
json merge_run(const std::vector<const json*>& slots, std::size_t index) {
  const json* base = *std::find_if(slots.begin(), slots.end(), [](const json* s) { return s != nullptr; });
  json run = *base;
  merge_status(run, slots);
  std::vector<json> timings(slots.size());
  std::vector<double> walls;
  const json* timed_base = nullptr;
  for (std::size_t k = 0; k < slots.size(); ++k) {
    if (!slots[k]) continue;
    const json& t = json_at(*slots[k], {"timing"});
    if (t.is_object()) {
      timings[k] = t;
      if (!timed_base) timed_base = slots[k];
    }
    const json& w = json_at(*slots[k], {"wall_s"});
    if (w.is_number()) walls.push_back(w.get<double>());
  }
  if (!walls.empty()) run["wall_s"] = stats::median(walls);
  if (!timed_base) return run;
  run["timing"] = joined_timing(timings, fmt::format("run {}'s timing", index));
  const json& metric = json_at(*timed_base, {"metric"});
  run["metrics"] = scaled_metrics(json_at(*timed_base, {"metrics"}), metric.is_string() ? metric.get<std::string>() : "",
                                  (*timed_base)["timing"]["median"].get<double>(), run["timing"]["median"].get<double>());
  return run;
}

std::string earliest(const std::vector<ProcessPart>& parts, const char* key, bool latest) {
  std::string out;
  for (const ProcessPart& p : parts) {
    const json& t = json_at(p.results, {key});
    if (!t.is_string() || t.get<std::string>().empty()) continue;
    if (out.empty() || (latest ? t.get<std::string>() > out : t.get<std::string>() < out)) out = t;
  }
  return out;
}

// What the parent recorded of a process under `key`, else what its file says (`in_file`), else
// `fallback`.
json pick(const ProcessPart& p, const char* key, const json& in_file, const json& fallback) {
  if (p.recorded.is_object() && p.recorded.contains(key)) return p.recorded[key];
  return in_file.is_null() ? fallback : in_file;
}

json process_entry(const ProcessPart& p, std::size_t k) {
  const json& r = p.results;
  const json none;
  json e = {{"index", k},
          {"order_position", pick(p, "order_position", none, k)},
          {"file", fs::path(p.path).filename().string()},
          {"pid", pick(p, "pid", json_at(r, {"process", "pid"}), none)},
          {"started_at", pick(p, "started_at", json_at(r, {"started_at"}), none)},
          {"finished_at", pick(p, "finished_at", json_at(r, {"finished_at"}), none)},
          {"complete", json_at(r, {"complete"}) == json(true)},
          {"cpus_allowed", pick(p, "cpus_allowed", json_at(r, {"process", "cpus_allowed"}), none)},
          {"cpu_start", pick(p, "cpu_start", json_at(r, {"process", "cpu_start"}), -1)},
          {"cpu_end", pick(p, "cpu_end", json_at(r, {"process", "cpu_end"}), -1)},
          {"sm_clock_mhz_start", pick(p, "sm_clock_mhz_start", json_at(r, {"device", "sm_clock_mhz_start"}), -1)},
          {"sm_clock_mhz_end", pick(p, "sm_clock_mhz_end", json_at(r, {"device", "sm_clock_mhz_end"}), -1)},
          {"gpu_temp_c_start", pick(p, "gpu_temp_c_start", json_at(r, {"process", "gpu_temp_c_start"}), -1)},
          {"clocks_event_reasons", pick(p, "clocks_event_reasons", json_at(r, {"process", "clocks_event_reasons"}), none)},
          {"load_avg", pick(p, "load_avg", json_at(r, {"process", "load_avg"}), none)},
          {"exit_status", pick(p, "exit_status", none, none)}};
  if (p.recorded.is_object() && p.recorded.contains("name")) e["name"] = p.recorded["name"];  // "A0" (ab)
  return e;
}

json processes_block(const std::vector<ProcessPart>& parts, const ProcessesInfo& info) {
  json list = json::array();
  for (std::size_t k = 0; k < parts.size(); ++k) list.push_back(process_entry(parts[k], k));
  json binary = {{"path", json_at(info.binary, {"path"})}, {"sha256", json_at(info.binary, {"sha256"})},
                 {"git_commit", json_at(parts.front().results, {"ladder", "git_commit"})}};
  json block = {{"count", parts.size()}, {"mode", info.mode}};
  if (info.mode == "ab") block.update({{"side", info.side}, {"seed", info.seed}, {"order", info.order}});
  block["binary"] = binary;
  block["list"] = list;
  return block;
}

// Every process's warnings, each saying whose.
json warnings_of(const std::vector<ProcessPart>& parts) {
  json out = json::array();
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const json& w = json_at(parts[k].results, {"warnings"});
    if (!w.is_array()) continue;
    for (const json& line : w)
      if (line.is_string()) out.push_back(fmt::format("process {}: {}", k, line.get<std::string>()));
  }
  return out;
}

}  // namespace

json joined_timing(const std::vector<json>& timings, const std::string& where) {
  std::vector<std::vector<double>> by_process;
  std::vector<double> medians, all;
  std::vector<const json*> timed;
  json processes = json::array();
  for (std::size_t k = 0; k < timings.size(); ++k) {
    if (!timings[k].is_object()) continue;
    std::vector<double> s = samples_of(timings[k], fmt::format("{} in process {}", where, k));
    const double m = stats::median(s);
    json entry = {{"process", k}, {"samples", s}, {"median", m}};
    // What the runner recorded of this process's sampling (rounds, a blocked start's device
    // times, a planted wait) stays with the process it describes.
    for (const char* key : {"sample_rounds", "round_seed", "device_samples", "device_median", "device_timeouts",
                            "device_skipped", "planted"})
      if (timings[k].contains(key)) entry[key] = timings[k][key];
    processes.push_back(std::move(entry));
    medians.push_back(m);
    all.insert(all.end(), s.begin(), s.end());
    by_process.push_back(std::move(s));
    timed.push_back(&timings[k]);
  }
  if (timed.empty()) return nullptr;
  json t = json::object();
  for (const char* key : {"unit", "mode", "warmup", "time_budget_s", "repetitions_planned", "samples_rule", "rounds"})
    if (timed.front()->contains(key)) t[key] = (*timed.front())[key];
  t["processes"] = processes;
  t["process_medians"] = medians;
  t["median"] = stats::median(medians);
  log_fields(t, by_process, medians);
  pooled_fields(t, all);
  if (json stages = stage_medians(timed); !stages.empty()) t["stage_medians"] = stages;
  return t;
}

json merge_processes(const std::vector<ProcessPart>& parts, const ProcessesInfo& info) {
  if (parts.empty()) throw InputError("no process's results to merge");
  if (parts.size() > kMaxProcesses)
    throw InputError(fmt::format("{} processes' results: at most {} merge into one file", parts.size(), kMaxProcesses));
  for (const ProcessPart& p : parts) check_part(p);
  for (std::size_t k = 1; k < parts.size(); ++k) check_together(parts.front(), parts[k]);
  const RunTable table = table_runs(parts);
  json out = parts.front().results;
  for (const char* key : {"process", "warnings", "shards", "scheduler"}) out.erase(key);
  out["schema_version"] = kSchemaVersion;
  out["runs"] = json::array();
  json summary = json::object();
  bool every_run_everywhere = true;
  for (const auto& [index, slots] : table) {
    every_run_everywhere &= std::all_of(slots.begin(), slots.end(), [](const json* s) { return s != nullptr; });
    json run = merge_run(slots, index);
    const json& st = json_at(run, {"status"});
    if (st.is_string()) summary[st.get<std::string>()] = summary.value(st.get<std::string>(), 0) + 1;
    out["runs"].push_back(std::move(run));
  }
  const bool complete = every_run_everywhere && out["runs"].size() == json_at(out, {"runs_planned"}) &&
                        std::all_of(parts.begin(), parts.end(), [](const ProcessPart& p) {
                          return json_at(p.results, {"complete"}) == json(true);
                        });
  out["summary"] = summary;
  out["complete"] = complete;
  out["started_at"] = earliest(parts, "started_at", false);
  out["finished_at"] = complete ? earliest(parts, "finished_at", true) : "";
  if (out["device"].is_object() && out["device"].contains("sm_clock_mhz_end"))
    out["device"]["sm_clock_mhz_end"] = json_at(parts.back().results, {"device", "sm_clock_mhz_end"});
  out["warnings"] = warnings_of(parts);
  out["processes"] = processes_block(parts, info);
  return out;
}

}  // namespace ladder
