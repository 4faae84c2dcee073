#include "ncu_profile.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "../datagen/base/errors.hpp"
#include "../datagen/base/printable.hpp"

namespace ladder {
namespace {

using json = nlohmann::json;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- CSV -----------------------------------------------------------------------------------

// RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks.
std::vector<std::vector<std::string>> csv_rows(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false, row_has_data = false;
  auto end_field = [&] { rows.back().push_back(field); field.clear(); };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c != '"') field += c;
      else if (i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
      else quoted = false;
    } else if (c == '"') {
      quoted = row_has_data = true;
    } else if (c == ',') {
      end_field();
      row_has_data = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (row_has_data || !field.empty()) end_field(), rows.emplace_back();
      row_has_data = false;
    } else {
      field += c;
      row_has_data = true;
    }
  }
  if (quoted) throw InputError("ncu CSV: a quoted field is not closed");
  if (row_has_data || !field.empty()) end_field();
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

// ncu prints a leading '<' of "<unnamed>" (anonymous namespaces) as nothing.
std::string kernel_name(std::string name) {
  if (name.rfind("unnamed>::", 0) == 0) name.insert(0, "<");
  return name;
}

bool is_metric(const std::string& column) { return column.find("__") != std::string::npos; }

// Device attributes and launch settings may be words ("PolicySpread"); they are not counters.
bool may_be_text(const std::string& metric) {
  return metric.rfind("device__attribute_", 0) == 0 || metric.rfind("launch__", 0) == 0;
}

// ---- folding -------------------------------------------------------------------------------

enum class Fold { sum, max, min, weighted };

// Counters (.sum, and .avg of a counter: per-unit averages of sums add up) are summed; rates,
// ratios and percentages of peak are weighted by duration; .max and .min stay extremes.
Fold fold_of(const std::string& metric) {
  for (const char* rate : {".pct_of_peak", ".per_second", ".per_cycle", ".ratio", ".pct"})
    if (metric.find(rate) != std::string::npos) return Fold::weighted;
  if (metric.size() > 4 && metric.compare(metric.size() - 4, 4, ".max") == 0) return Fold::max;
  if (metric.size() > 4 && metric.compare(metric.size() - 4, 4, ".min") == 0) return Fold::min;
  return Fold::sum;
}

constexpr const char* kDuration = "gpu__time_duration.sum";

double duration_of(const NcuResult& r) {
  const auto it = r.values.find(kDuration);
  return it == r.values.end() || !std::isfinite(it->second) ? 0.0 : it->second;
}

// Each metric every result has a number for, folded; device attributes and launch settings
// describe the launch, not the work, and are left out.
json fold_raw(const std::vector<NcuResult>& results) {
  std::set<std::string> names;
  for (const NcuResult& r : results)
    for (const auto& [m, v] : r.values)
      if (!may_be_text(m)) names.insert(m);
  json raw = json::object();
  for (const std::string& m : names) {
    double total = 0, weight = 0, weighted = 0, lo = INFINITY, hi = -INFINITY;
    bool complete = true;
    for (const NcuResult& r : results) {
      const auto it = r.values.find(m);
      if (it == r.values.end() || !std::isfinite(it->second)) { complete = false; break; }
      const double v = it->second, w = duration_of(r);
      total += v, lo = std::min(lo, v), hi = std::max(hi, v), weight += w, weighted += w * v;
    }
    if (!complete) continue;
    double folded = total;
    switch (fold_of(m)) {
      case Fold::sum: break;
      case Fold::max: folded = hi; break;
      case Fold::min: folded = lo; break;
      case Fold::weighted:  // without durations (none collected), the plain mean
        folded = weight > 0 ? weighted / weight : total / static_cast<double>(results.size());
        break;
    }
    if (std::isfinite(folded)) raw[m] = folded;  // a sum past double's range says nothing
  }
  return raw;
}

const json* find(const json& raw, const std::string& m) {
  const auto it = raw.find(m);
  return it == raw.end() ? nullptr : &*it;
}

void put_finite(json& out, const std::string& key, double v) {
  if (std::isfinite(v)) out[key] = v;
}

// raw[a] / raw[b] where both exist and b > 0.
void put_ratio(json& out, const char* key, const json& raw, const std::string& a, const std::string& b,
               double scale = 1.0) {
  const json *num = find(raw, a), *den = find(raw, b);
  if (num && den && den->get<double>() > 0) put_finite(out, key, scale * num->get<double>() / den->get<double>());
}

void put_copy(json& out, const char* key, const json& raw, const std::string& m) {
  if (const json* v = find(raw, m)) out[key] = *v;
}

// "X" of a metric named head + X + tail, "" for any other name.
std::string middle(const std::string& m, const std::string& head, const std::string& tail) {
  if (m.size() <= head.size() + tail.size() || m.rfind(head, 0) != 0 ||
      m.compare(m.size() - tail.size(), tail.size(), tail) != 0)
    return "";
  return m.substr(head.size(), m.size() - head.size() - tail.size());
}

json speed_of_light(const json& raw) {
  json sol = json::object();
  put_copy(sol, "sm_pct", raw, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
  put_copy(sol, "memory_pct", raw, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed");
  put_copy(sol, "dram_pct", raw, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed");
  put_copy(sol, "l2_pct", raw, "lts__throughput.avg.pct_of_peak_sustained_elapsed");
  put_copy(sol, "l1_pct", raw, "l1tex__throughput.avg.pct_of_peak_sustained_active");
  return sol;
}

json bytes_per_level(const json& raw) {
  json bytes = json::object();
  if (find(raw, "dram__bytes.sum")) put_copy(bytes, "dram", raw, "dram__bytes.sum");
  else if (find(raw, "dram__bytes_read.sum") && find(raw, "dram__bytes_write.sum"))
    put_finite(bytes, "dram", raw["dram__bytes_read.sum"].get<double>() + raw["dram__bytes_write.sum"].get<double>());
  put_copy(bytes, "l2", raw, "lts__t_bytes.sum");
  put_copy(bytes, "l1", raw, "l1tex__t_bytes.sum");
  put_copy(bytes, "shared", raw, "smsp__sass_data_bytes_mem_shared.sum");
  return bytes;
}

// "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active" -> {"fma": pct}.
json pipes(const json& raw) {
  static const std::string head = "sm__inst_executed_pipe_", tail = ".avg.pct_of_peak_sustained_active";
  json out = json::object();
  for (const auto& [m, v] : raw.items())
    if (const std::string pipe = middle(m, head, tail); !pipe.empty()) out[pipe] = v;
  return out;
}

// Stall cycles per issued instruction by reason, from each result's ratio times its issued
// instructions (the ratio's denominator), summed, over the summed denominators.
json stalls(const std::vector<NcuResult>& results) {
  static const std::string head = "smsp__average_warps_issue_stalled_", tail = "_per_issue_active.ratio";
  static const std::string issued = "smsp__issue_active.sum";
  std::map<std::string, double> numerators;
  double denominator = 0;
  for (const NcuResult& r : results) {
    const auto d = r.values.find(issued);
    if (d == r.values.end() || !std::isfinite(d->second)) return json::object();
    denominator += d->second;
    for (const auto& [m, v] : r.values)
      if (const std::string reason = middle(m, head, tail); !reason.empty() && std::isfinite(v))
        numerators[reason] += v * d->second;
  }
  json out = json::object();
  if (denominator > 0)
    for (const auto& [reason, n] : numerators) put_finite(out, reason, n / denominator);
  return out;
}

// Counts per unit of the run's work: instructions, bytes and each SASS operation counted.
json per_work(const json& raw, double work) {
  json out = json::object();
  if (!(work > 0)) return out;
  auto put = [&](const std::string& key, const std::string& m) {
    if (const json* v = find(raw, m)) put_finite(out, key, v->get<double>() / work);
  };
  put("warp_instructions", "smsp__inst_executed.sum");
  put("thread_instructions", "smsp__thread_inst_executed.sum");
  put("dram_bytes", "dram__bytes.sum");
  put("l2_bytes", "lts__t_bytes.sum");
  static const std::string head = "smsp__sass_thread_inst_executed_op_", tail = "_pred_on.sum";
  for (const auto& [m, v] : raw.items())
    if (const std::string op = middle(m, head, tail); !op.empty()) put_finite(out, op, v.get<double>() / work);
  return out;
}

json derived(const std::vector<NcuResult>& results, const json& raw, double work) {
  json d = json::object();
  put_copy(d, "duration_ns", raw, kDuration);
  d["speed_of_light_pct"] = speed_of_light(raw);
  d["bytes"] = bytes_per_level(raw);
  put_copy(d, "achieved_occupancy_pct", raw, "sm__warps_active.avg.pct_of_peak_sustained_active");
  put_copy(d, "issue_slots_pct", raw, "smsp__issue_active.avg.pct_of_peak_sustained_active");
  d["pipes_pct"] = pipes(raw);
  d["stalls_per_instruction"] = stalls(results);
  put_ratio(d, "shared_conflict_share", raw, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
  put_ratio(d, "branch_uniformity", raw, "smsp__sass_branch_targets_threads_uniform.sum",
            "smsp__sass_branch_targets.sum");
  d["per_work_unit"] = per_work(raw, work);
  for (auto it = d.begin(); it != d.end();)  // an empty group says nothing: leave it out
    it = it->is_object() && it->empty() ? d.erase(it) : std::next(it);
  return d;
}

}  // namespace

double ncu_number(const std::string& cell, const std::string& metric) {
  if (cell.empty() || cell == "n/a" || cell == "no data") return kNaN;
  std::string digits;
  for (char c : cell)
    if (c != ',') digits += c;
  std::size_t used = 0;
  double v = kNaN;
  try {
    v = std::stod(digits, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != digits.size() || !std::isfinite(v))
    throw InputError("ncu CSV: metric " + printable(metric, 120) + " has '" + printable(cell, 60) +
                     "', not a number");
  return v;
}

std::vector<NcuResult> parse_ncu_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows = csv_rows(text);
  // ncu's own lines ("==PROF== ...", "==WARNING== ...") may precede the table.
  auto header = std::find_if(rows.begin(), rows.end(), [](const std::vector<std::string>& r) {
    return std::find(r.begin(), r.end(), "ID") != r.end() &&
           std::find(r.begin(), r.end(), "Kernel Name") != r.end();
  });
  if (header == rows.end()) throw InputError("ncu CSV: no header with ID and Kernel Name columns");
  const std::vector<std::string>& names = *header;
  if (std::next(header) == rows.end()) throw InputError("ncu CSV: no units row after the header");
  const std::vector<std::string>& units = *std::next(header);
  if (units.size() != names.size())
    throw InputError("ncu CSV: the units row has " + std::to_string(units.size()) + " cells for " +
                     std::to_string(names.size()) + " columns");
  const std::size_t name_col = std::find(names.begin(), names.end(), "Kernel Name") - names.begin();
  const std::size_t nvtx_col = std::find_if(names.begin(), names.end(), [](const std::string& n) {
                                 return n.find("Push/Pop_Range") != std::string::npos;
                               }) - names.begin();
  std::vector<NcuResult> out;
  for (auto row = std::next(header, 2); row != rows.end(); ++row) {
    if (row->size() != names.size())
      throw InputError("ncu CSV: result " + std::to_string(out.size() + 1) + " has " +
                       std::to_string(row->size()) + " cells for " + std::to_string(names.size()) +
                       " columns");
    NcuResult r;
    r.name = kernel_name((*row)[name_col]);
    if (nvtx_col < names.size()) r.nvtx = (*row)[nvtx_col];
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (!is_metric(names[i])) continue;
      if (may_be_text(names[i])) {
        try {
          r.values[names[i]] = ncu_number((*row)[i], names[i]);
        } catch (const InputError&) {
          continue;  // a word ("PolicySpread"): a setting, not a number
        }
      } else {
        r.values[names[i]] = ncu_number((*row)[i], names[i]);
      }
      r.units[names[i]] = units[i];
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::optional<std::size_t> nvtx_run_index(const std::string& nvtx) {
  // ncu prints each open range as "DOMAIN:MESSAGE:..." ("<default domain>:r12:none:..."); a
  // step's own range, "study.variant", never looks like "r" and digits.
  // Read by hand, as ":r", 1 to 15 digits, ":" (ncu's text is the file's; std::regex matches
  // recursively and long text overflowed its stack).
  std::optional<std::size_t> found;
  for (std::size_t at = nvtx.find(":r"); at != std::string::npos;) {
    const std::size_t from = at + 2, to = nvtx.find_first_not_of("0123456789", from);
    if (to == std::string::npos || nvtx[to] != ':' || to == from || to - from > 15) {
      at = nvtx.find(":r", at + 1);
      continue;
    }
    const std::size_t k = std::stoull(nvtx.substr(from, to - from));
    if (found && *found != k) return std::nullopt;
    found = k;
    at = nvtx.find(":r", to + 1);  // the next range after this one's closing ':'
  }
  return found;
}

LaunchSplit split_launches(const std::vector<NcuResult>& got, const std::vector<std::size_t>& order,
                           std::size_t cap, std::size_t keep) {
  std::map<std::size_t, std::size_t> position;
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  LaunchSplit split;
  std::size_t at = 0;  // position of the run the latest result belongs to
  for (const NcuResult& r : got) {
    const std::optional<std::size_t> k = nvtx_run_index(r.nvtx);
    if (!k || !position.contains(*k) || position[*k] < at) return {{}, order};
    at = position[*k];
    split.results[*k].push_back(r);
  }
  for (const std::size_t k : order) split.results.try_emplace(k);
  if (got.size() < cap) return split;
  // The cap was reached: the run it stopped in is whole only if it shows more than `keep`
  // launches already; the runs after it were not profiled.
  for (std::size_t i = at; i < order.size(); ++i) {
    if (i == at && split.results[order[i]].size() > keep) continue;
    split.results.erase(order[i]);
    split.again.push_back(order[i]);
  }
  return split;
}

json fold_profile(const std::vector<NcuResult>& results, const NcuCollection& how, double work,
                  const std::string& work_unit) {
  json p = {{"tool", "Nsight Compute"},
            {"tool_version", how.tool_version},
            {"replay_mode", how.replay_mode},
            {"cache_control", how.cache_control},
            {"clock_control", how.clock_control},
            {"metric_set", how.metric_set},
            {"results", results.size()},
            {"work", work},
            {"work_unit", work_unit}};
  std::vector<std::string> names;
  for (const NcuResult& r : results) names.push_back(r.name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  p["kernels"] = names;
  p["raw"] = fold_raw(results);
  p["derived"] = derived(results, p["raw"], work);
  return p;
}

namespace {

// `into` gains every key of `from` it lacks, objects merged key by key.
void add_missing(json& into, const json& from) {
  for (const auto& [key, value] : from.items())
    if (!into.contains(key)) into[key] = value;
    else if (into[key].is_object() && value.is_object()) add_missing(into[key], value);
}

json collection_of(const json& profile) {
  json c = profile;
  for (const char* shared : {"tool", "work", "work_unit", "collections", "missing"}) c.erase(shared);
  return c;
}

std::string joined_field(const json& collections, const char* key) {
  std::string out;
  for (const json& c : collections) {
    const std::string v = c.value(key, std::string("?"));
    if (out.find(v) == std::string::npos) out += (out.empty() ? "" : "+") + v;
  }
  return out;
}

// The sets an earlier profile lacks, with why: its own `missing`, and the set of a skipped one.
json missing_of(const json& earlier) {
  json missing = earlier.is_object() && earlier.contains("missing") ? earlier["missing"] : json::object();
  if (earlier.is_object() && earlier.contains("skipped") && earlier.contains("metric_set"))
    missing[earlier["metric_set"].get<std::string>()] = earlier["skipped"];
  return missing;
}

bool has_set(const json& profile, const std::string& set) {
  if (!profile.is_object() || !profile.contains("derived")) return false;
  if (!profile.contains("collections")) return profile.value("metric_set", "") == set;
  for (const json& c : profile["collections"])
    if (c.value("metric_set", "") == set) return true;
  return false;
}

}  // namespace

json skip_collection(const json& earlier, const std::string& set, const std::string& reason) {
  if (has_set(earlier, set)) return earlier;
  if (earlier.is_object() && earlier.contains("derived")) {
    json out = earlier;
    out["missing"][set] = reason;
    return out;
  }
  json missing = missing_of(earlier);
  missing[set] = reason;
  return {{"skipped", reason}, {"metric_set", set}, {"missing", missing}};
}

json combine_profiles(const json& earlier, const json& added) {
  json missing = missing_of(earlier);
  missing.erase(added.value("metric_set", ""));
  if (!earlier.is_object() || !earlier.contains("derived")) {
    json out = added;
    if (!missing.empty()) out["missing"] = missing;
    return out;
  }
  json collections = earlier.contains("collections") ? earlier["collections"] : json::array({collection_of(earlier)});
  const std::string set = added.value("metric_set", "");
  json kept = json::array();
  for (const json& c : collections)
    if (c.value("metric_set", "") != set) kept.push_back(c);
  kept.push_back(collection_of(added));
  json out = {{"tool", added.value("tool", "")}, {"work", added.value("work", 0.0)},
              {"work_unit", added.value("work_unit", "")}, {"collections", kept}};
  out["tool_version"] = joined_field(kept, "tool_version");
  out["replay_mode"] = joined_field(kept, "replay_mode");
  out["cache_control"] = joined_field(kept, "cache_control");
  out["clock_control"] = joined_field(kept, "clock_control");
  out["metric_set"] = joined_field(kept, "metric_set");
  // Rebuilt from each kept collection's own derived values, so that a replaced set's values
  // leave with it: range replay's first, as they cover the whole run (kernel replay may have
  // profiled only its first launches), so that counts, bytes and duration agree.
  json derived = json::object();
  for (const bool range : {true, false})
    for (const json& c : kept)
      if ((c.value("replay_mode", "") == "range") == range) add_missing(derived, c.value("derived", json::object()));
  out["derived"] = derived;
  if (!missing.empty()) out["missing"] = missing;
  return out;
}

}  // namespace ladder
