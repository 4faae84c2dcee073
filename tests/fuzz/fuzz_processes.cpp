// Fuzz target: the process-level readers and the join of processes (harness/process_timing.cpp,
// harness/processes.cpp). The text goes through the JSON reader with the results depth limit
// and check_results, as read_results reads it; then every run's timing is read as compare
// reads it (process medians, their samples and processes), the file's order and process count
// too, and the file is joined with itself as `merge --processes` would join two processes.
// InputError (of one printable line) is the expected answer to bad input; anything else
// escaping is a finding. Also: every process median read is a positive, finite number, a
// run's samples (when read) are one list per median, a join that succeeds passes check_results
// and gives each timed run at most two process medians whose median is the run's median.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "datagen/base/errors.hpp"
#include "datagen/json_file.hpp"
#include "fuzz_input.hpp"
#include "fuzz_results_input.hpp"
#include "harness/process_timing.hpp"
#include "harness/processes.hpp"
#include "harness/results.hpp"
#include "harness/stats.hpp"

namespace {

using nlohmann::json;
using ladder::fuzz::broken_promise;

void check_reading(const json& results) {
  (void)ladder::order_positions(results);
  (void)ladder::process_count(results);
  for (const json& run : results["runs"]) {
    if (!run.is_object() || !run.contains("timing")) continue;
    const ladder::ProcessTiming t = ladder::process_timing(run["timing"]);
    for (double m : t.medians)
      if (!(m > 0) || !std::isfinite(m)) broken_promise("process_timing", "a process median that is not a time");
    if (!t.samples.empty() && t.samples.size() != t.medians.size())
      broken_promise("process_timing", "samples for another number of processes than medians");
    if (!t.process.empty() && t.process.size() != t.medians.size())
      broken_promise("process_timing", "process indices for another number of processes than medians");
  }
}

void check_join(const json& results) {
  const std::vector<ladder::ProcessPart> parts = {{"a.json", results}, {"b.json", results}};
  const json merged = ladder::merge_processes(parts, {});
  try {
    (void)ladder::check_results(merged, "the joined file");
  } catch (const ladder::InputError& e) {
    broken_promise("merge_processes", std::string("a join check_results refuses: ") + e.what());
  }
  for (const json& run : merged["runs"]) {
    if (!run.is_object() || !run.contains("timing") || !run["timing"].is_object()) continue;
    const json& t = run["timing"];
    if (!t.contains("process_medians")) continue;
    const std::vector<double> medians = t["process_medians"].get<std::vector<double>>();
    if (medians.empty() || medians.size() > 2) broken_promise("merge_processes", "not one or two process medians");
    if (t["median"].get<double>() != ladder::stats::median(medians))
      broken_promise("merge_processes", "a median that is not the median of the process medians");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::optional<json> read = ladder::fuzz::read_results_text(ladder::fuzz::input_text(data, size));
  if (!read) return 0;
  const json& results = *read;
  check_reading(results);
  try {
    check_join(results);
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("merge_processes", e);
  }
  return 0;
}
