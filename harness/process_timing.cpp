#include "process_timing.hpp"

#include <cmath>

namespace ladder {
namespace {

using json = nlohmann::json;

bool positive(const json& x) { return x.is_number() && std::isfinite(x.get<double>()) && x.get<double>() > 0; }

// A list of positive, finite numbers, or nothing.
std::vector<double> positives(const json& list) {
  std::vector<double> out;
  if (!list.is_array()) return out;
  for (const json& x : list) {
    if (!positive(x)) return {};
    out.push_back(x.get<double>());
  }
  return out;
}

const json& field(const json& obj, const char* key) {
  static const json absent;
  return obj.is_object() && obj.contains(key) ? obj[key] : absent;
}

// timing.processes: each entry's median, samples and process index, or nothing when an entry
// lacks a positive median.
ProcessTiming from_entries(const json& entries) {
  ProcessTiming t;
  if (!entries.is_array() || entries.empty()) return t;
  bool all_samples = true;
  for (std::size_t j = 0; j < entries.size(); ++j) {
    const json& e = entries[j];
    if (!positive(field(e, "median"))) return {};
    t.medians.push_back(field(e, "median").get<double>());
    const json& index = field(e, "process");
    t.process.push_back(index.is_number_unsigned() ? index.get<std::size_t>() : j);
    std::vector<double> s = positives(field(e, "samples"));
    all_samples = all_samples && !s.empty();
    t.samples.push_back(std::move(s));
  }
  if (!all_samples) t.samples.clear();
  t.recorded = true;
  return t;
}

}  // namespace

ProcessTiming process_timing(const json& timing) {
  ProcessTiming entries = from_entries(field(timing, "processes"));
  if (std::vector<double> medians = positives(field(timing, "process_medians")); !medians.empty()) {
    ProcessTiming t;
    t.medians = std::move(medians);
    t.recorded = true;
    // The entries, where they are the same processes, still give samples and indices.
    if (entries.medians.size() == t.medians.size()) {
      t.samples = std::move(entries.samples);
      t.process = std::move(entries.process);
    } else {
      for (std::size_t j = 0; j < t.medians.size(); ++j) t.process.push_back(j);
    }
    return t;
  }
  if (entries.recorded) return entries;
  ProcessTiming t;
  if (const json& m = field(timing, "median"); positive(m)) {
    t.medians = {m.get<double>()};
    t.process = {0};
  }
  return t;
}

std::map<std::size_t, double> order_positions(const json& results) {
  std::map<std::size_t, double> out;
  const json& list = field(field(results, "processes"), "list");
  if (!list.is_array()) return out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& index = field(list[i], "index");
    const json& position = field(list[i], "order_position");
    if (position.is_number()) out[index.is_number_unsigned() ? index.get<std::size_t>() : i] = position.get<double>();
  }
  return out;
}

std::size_t process_count(const json& results) {
  const json& block = field(results, "processes");
  if (const json& count = field(block, "count"); count.is_number_unsigned() && count.get<std::size_t>() > 0)
    return count.get<std::size_t>();
  if (const json& list = field(block, "list"); list.is_array() && !list.empty()) return list.size();
  return 1;
}

}  // namespace ladder
