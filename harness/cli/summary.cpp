#include "summary.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "../../datagen/base/printable.hpp"
#include "../stats.hpp"
#include "commands.hpp"
#include "../json_at.hpp"

namespace ladder::cli {
namespace {

using json = nlohmann::json;


std::string text(const json& v) { return v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump(); }

std::vector<double> numbers(const json& list) {
  std::vector<double> out;
  if (list.is_array())
    for (const json& x : list)
      if (x.is_number()) out.push_back(x.get<double>());
  return out;
}

SummaryRow row_of(const json& run, bool by_process) {
  SummaryRow r;
  r.id = text(json_at(run, {"study"})) + "/" + text(json_at(run, {"variant"}));
  r.step = text(json_at(run, {"step"}));
  r.point = text(json_at(run, {"point"}));
  r.status = text(json_at(run, {"status"}));
  if (!text(json_at(run, {"emulated"})).empty()) r.status += " (emulated)";
  const json& t = json_at(run, {"timing"});
  if (!t.is_object() || !json_at(t, {"median"}).is_number()) return r;
  r.median_ms = t["median"].get<double>();
  r.spread_pct = by_process ? geomean_interval_pct(numbers(json_at(t, {"process_medians"})))
                            : half_range_pct(numbers(json_at(t, {"samples"})));
  const json& m = json_at(run, {"metrics"});
  const std::string metric = text(json_at(run, {"metric"}));
  const json& value = json_at(m, {metric.c_str()});
  if (value.is_number() && value.get<double>() > 0) {
    r.throughput = fmt::format("{:.4g} {}", value.get<double>(), text(json_at(m, {"unit"})));
    const json& pct = json_at(m, {"pct_of_peak"});
    // " mem": the limit is the memory bound (harness/hardware.hpp), not the compute one.
    const bool memory = json_at(m, {"bounds", "binds"}) == json("memory");
    if (pct.is_number())
      r.pct_of_peak = fmt::format("{:.1f}{}", pct.get<double>(), memory ? " mem" : "");
    else if (m.is_object() && m.contains("pct_of_peak")) r.pct_of_peak = "?";
  }
  return r;
}

}  // namespace

double half_range_pct(const std::vector<double>& samples) {
  if (samples.size() < 2) return -1;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  const double m = stats::median(samples);
  return m > 0 ? 100 * (*hi - *lo) / 2 / m : -1;
}

double geomean_interval_pct(const std::vector<double>& medians) {
  if (medians.size() < 2 || std::any_of(medians.begin(), medians.end(), [](double m) { return !(m > 0); }))
    return -1;
  std::vector<double> logs;
  for (double m : medians) logs.push_back(std::log(m));
  const double k = double(logs.size()), se = stats::sample_sd(logs) / std::sqrt(k);
  return 100 * (std::exp(stats::t_quantile(0.975, k - 1) * se) - 1);
}

void print_run_table(const std::vector<SummaryRow>& rows, const std::vector<std::string>& failures,
                     const std::vector<std::string>& notes, const std::string& spread_note) {
  std::vector<std::vector<std::string>> cells;
  bool spread = false;
  for (const SummaryRow& r : rows) {
    const std::string med = r.median_ms < 0 ? "-" : fmt::format("{:.4g}", r.median_ms);
    const std::string pm = r.spread_pct < 0 ? "" : fmt::format("±{:.1f}%", r.spread_pct);
    spread |= !pm.empty();
    cells.push_back({r.id, r.step, r.point, r.status, med, pm, r.throughput, r.pct_of_peak});
  }
  fmt::print("\n");
  print_table({"variant", "step", "point", "status", "median ms", "±", "throughput", "% limit"},
              cells,
              {false, true, false, false, true, true, true, true});
  for (const auto& f : failures) fmt::print("  {}\n", printable_all(f));
  if (spread) fmt::print("  ±: {}\n", spread_note);
  for (const auto& n : notes) fmt::print("  note: {}\n", printable_all(n));
}

void print_results_summary(const json& results) {
  const json& processes = json_at(results, {"processes"});
  const bool by_process = processes.is_object();
  std::vector<SummaryRow> rows;
  std::vector<std::string> failures;
  if (json_at(results, {"runs"}).is_array())
    for (const json& run : results["runs"]) {
      rows.push_back(row_of(run, by_process));
      const std::string st = text(json_at(run, {"status"}));
      if (st == "incorrect" || st == "error")
        failures.push_back(rows.back().id + " " + rows.back().point + ": " + text(json_at(run, {"reason"})));
    }
  const std::string k = by_process ? text(json_at(processes, {"count"})) : "1";
  print_run_table(rows, failures, {},
                  by_process ? "the 95% interval of the geometric mean of the " + k + " processes' medians"
                             : "half the range of the run's samples (one process)");
}

}  // namespace ladder::cli
