// Fuzz target: the shards `ladder merge` joins. The input is up to 8 results files one after the
// other, separated by NUL bytes; they are written to a folder, which merge_shards reads as
// `ladder merge OUT FOLDER` does: every file through read_results and check_shard (the shard
// block: index, count, owners, runs_total, plan hash, reproduction), every pair through the
// checks that they belong to one plan, then joined and written. InputError (of one printable
// line) is the expected answer to shards that do not merge; anything else escaping (another
// exception, a crash, a sanitizer report) is a finding. Also: what merge writes is itself a
// results file (read_results takes it back), with each planned run at most once, in run_index
// order, all of them when it says complete, and it says complete exactly when merge does; each
// config's shards go to a file of their own.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "datagen/base/errors.hpp"
#include "fuzz_input.hpp"
#include "harness/cli/merge.hpp"
#include "harness/results.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using ladder::fuzz::broken_promise;

constexpr std::size_t kMaxShards = 8;

const ladder::fuzz::ScratchDir& scratch() {
  static const ladder::fuzz::ScratchDir dir;
  return dir;
}

// One merged file, as merge promises it.
void check_merged(const std::string& file, bool merge_complete, bool reproduction) {
  json r;
  try {
    r = ladder::read_results(file);
  } catch (const ladder::InputError& e) {
    broken_promise("merge_shards", std::string("a merged file that is not a results file: ") + e.what());
  }
  const json planned = r.value("runs_planned", json());
  if (!planned.is_number_unsigned()) broken_promise("merge_shards", "runs_planned is not a count");
  std::set<std::size_t> seen;
  std::size_t last = 0;
  for (const json& run : r["runs"]) {
    const json i = run.value("run_index", json());
    if (!i.is_number_unsigned() || i.get<std::size_t>() >= planned.get<std::size_t>())
      broken_promise("merge_shards", "a run_index outside the plan");
    if (!seen.empty() && i.get<std::size_t>() <= last)
      broken_promise("merge_shards", "runs out of run_index order, or one run twice");
    last = i.get<std::size_t>();
    seen.insert(last);
  }
  const bool complete = r.value("complete", json()) == json(true);
  if (complete && seen.size() != planned.get<std::size_t>())
    broken_promise("merge_shards", "a file that says complete without every planned run");
  // A reproduction's files are complete one by one; the merge only when all are.
  if (reproduction ? merge_complete && !complete : complete != merge_complete)
    broken_promise("merge_shards", "a file whose `complete` disagrees with the merge's outcome");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::vector<std::string> files =
      ladder::fuzz::input_files(ladder::fuzz::input_text(data, size), kMaxShards);
  const fs::path in = scratch().fresh("shards"), out_dir = scratch().fresh("out");
  for (std::size_t i = 0; i < files.size(); ++i)
    ladder::fuzz::write_bytes(in / ("shard" + std::to_string(i) + ".json"), files[i]);
  const std::string out = (out_dir / "merged.json").string();
  try {
    const ladder::cli::MergeOutcome m = ladder::cli::merge_shards(out, {in.string()});
    if (m.complete != m.missing.empty()) broken_promise("merge_shards", "complete with shards missing");
    const bool reproduction = m.written.size() != 1 || m.written.front() != out;
    if (std::set<std::string>(m.written.begin(), m.written.end()).size() != m.written.size())
      broken_promise("merge_shards", "two configs' shards merged into one file");
    for (const std::string& f : m.written) check_merged(f, m.complete, reproduction);
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message("merge_shards", e);
    std::error_code ec;
    if (!fs::is_empty(out_dir, ec)) broken_promise("merge_shards", "refused, but wrote into OUT's folder");
  }
  return 0;
}
