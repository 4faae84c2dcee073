// Fuzz target: results files and manifests as `ladder reproduce` finds them in its output folder
// and in the project. The text goes through the JSON reader with the results depth limit, then
// through every judgement reproduce makes of what it found (judge_results for its own results,
// judge_peer_results for a peer's, why_incomplete for a peer's fresh output, manifest_times for
// a manifest's times, cost_table_times for the cost table). Those must never throw, whatever the value; InputError from the JSON
// reader is the expected answer to text that is not JSON. Also: a file judged reusable really
// is the complete results of the key it was judged against.
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/json_file.hpp"
#include "fuzz_input.hpp"
#include "harness/results.hpp"
#include "harness/reuse.hpp"

namespace {

using nlohmann::json;

// The key of the corpus's reusable seeds (corpus/reuse/reusable_*.json).
ladder::ReuseKey key() {
  ladder::ReuseKey k;
  k.commit = "abc123";
  k.scale = "quick";
  k.device_present = false;
  k.config = {{"name", "fuzz"}, {"study", "dtw"}};
  k.planned = 1;
  return k;
}

void judge_all(const json& j) {
  using ladder::fuzz::broken_promise;
  const ladder::ReuseKey k = key();
  const ladder::ReuseVerdict v = ladder::judge_results(j, k);
  if (v.why_not.empty()) {
    if (j.value("complete", false) != true || j["runs"].size() != k.planned || j["config"] != k.config)
      broken_promise("judge_results", "reused a file that is not complete results of the key");
    if (!(v.elapsed_s >= 0)) broken_promise("judge_results", "a negative elapsed time");
  }
  (void)ladder::judge_peer_results(j, k);
  (void)ladder::why_incomplete(j);
  for (double t : ladder::manifest_times(j, {"fuzz", "dtw-paper", ""}))
    if (!(t >= 0 || t == -1)) broken_promise("manifest_times", "a time that is neither known nor -1");
  for (const char* scale : {"paper", "quick", ""}) {
    const ladder::CostTimes c = ladder::cost_table_times(j, scale, {"fuzz", "dtw-paper"});
    if (c.seconds.size() != 2) broken_promise("cost_table_times", "not a time for each name");
    for (double t : c.seconds)
      if (!(t >= 0 || t == -1)) broken_promise("cost_table_times", "a time that is neither known nor -1");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string text = ladder::fuzz::input_text(data, size);
  json j;
  try {
    j = ladder::parse_json_text(text, "found", ladder::kMaxResultsDepth);
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("parse_json_text", e);
    return 0;
  }
  judge_all(j);  // anything escaping here is a finding
  return 0;
}
