#include "plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <regex>

#include "../datagen/base/errors.hpp"

namespace ladder {
namespace {

// std::regex compiles and matches recursively: a bounded pattern keeps a hostile one from the
// stack, and the subjects it meets are variant ids, bounded too (a handover's names are).
std::optional<std::regex> filter_regex(const std::string& filter) {
  if (filter.empty()) return std::nullopt;  // every variant
  if (filter.size() > 256) throw InputError("--filter is longer than 256 characters");
  try {
    return std::regex(filter);
  } catch (const std::regex_error&) {
    throw InputError("--filter '" + filter + "' is not a valid regular expression");
  }
}

}  // namespace

std::string stable_hash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : text) h = (h ^ ch) * 1099511628211ull;
  return fmt::format("{:016x}", h);
}

std::string data_source_key(const Study& study, const Point& point) {
  std::vector<std::string> names;
  for (const auto& p : study.data_params()) names.push_back(p.name);
  return point.data.generator + "|" + point.data.file + "|" + point.params.key(names);
}

std::vector<PlannedRun> plan_runs(const Config& c, const std::string& filter,
                                  const std::optional<Validation>& validation) {
  const std::optional<std::regex> re = filter_regex(filter);
  std::vector<PlannedRun> plan;
  std::string last_source;
  for (std::size_t i = 0; i < c.points.size(); ++i) {
    const Point& pt = c.points[i];
    const std::string source = data_source_key(*c.study, pt);
    for (const VariantSpec* v : pt.variants) {
      if (re && !std::regex_search(v->id(), *re)) continue;
      PlannedRun r;
      r.index = plan.size();
      r.point = i;
      r.variant = v;
      r.params = resolve(*c.study, v, pt.params, pt.data.file.empty());
      r.data_group = plan.empty() ? 0 : plan.back().data_group + (source != last_source);
      r.validation = validation.value_or(pt.validation.value_or(c.validation));
      r.repetitions = pt.repetitions.value_or(c.repetitions)[v->backend];
      r.warmup = pt.warmup.value_or(c.warmup)[v->backend];
      r.time_budget_s = pt.time_budget_s.value_or(c.time_budget_s);
      last_source = source;
      plan.push_back(std::move(r));
    }
  }
  if (plan.empty()) throw InputError("--filter '" + filter + "' selects no variant");
  return plan;
}

std::vector<PlannedRun> keep_runs(std::vector<PlannedRun> plan, const std::vector<RunRange>& wanted) {
  std::vector<RunRange> ranges = wanted;
  std::sort(ranges.begin(), ranges.end(), [](const RunRange& a, const RunRange& b) { return a.first < b.first; });
  const auto beyond = std::max_element(ranges.begin(), ranges.end(),
                                       [](const RunRange& a, const RunRange& b) { return a.last < b.last; });
  if (beyond != ranges.end() && beyond->last >= plan.size())
    throw InputError(fmt::format("--runs: the plan has runs 0 to {}, not {} (`ladder plan` lists them)",
                                 plan.size() - 1, beyond->last));
  // Sorted by start, each range's end raised to the furthest end so far: index k is wanted when
  // the last range starting at or before k reaches it.
  for (std::size_t i = 1; i < ranges.size(); ++i) ranges[i].last = std::max(ranges[i].last, ranges[i - 1].last);
  std::erase_if(plan, [&](const PlannedRun& r) {
    const auto after = std::upper_bound(ranges.begin(), ranges.end(), r.index,
                                        [](std::size_t k, const RunRange& x) { return k < x.first; });
    return after == ranges.begin() || std::prev(after)->last < r.index;
  });
  return plan;
}

}  // namespace ladder
