// K processes of one config joined into one results file. The samples a process takes share its
// state (clocks, memory placement, code layout), so the unit a comparison tests is the process:
// `run --processes K`, `merge --processes` and `ab` run (or read) one-process results files of
// one config and join the same runs across them. Each timed run's timing then holds every
// process's samples and median, the median of those medians, their geometric mean and the
// variance components on the log scale (harness/stats.hpp); the file gets a `processes` block
// saying how and where each process ran. (The shard merge, harness/cli/merge.cpp, joins
// disjoint runs instead.)
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ladder {

// The most processes one file joins (`--processes K`, `merge --processes`).
constexpr std::size_t kMaxProcesses = 1000;

// One process's results file and what the process that started it recorded of it (each field
// optional: "pid", "started_at", "finished_at", "exit_status", "load_avg", "order_position",
// "name"); it wins over what the file says of itself.
struct ProcessPart {
  std::string path;  // as errors name it
  nlohmann::json results;
  nlohmann::json recorded = nlohmann::json::object();
};

// How the processes were run: "repeat" (one binary, one after another) or "ab" (two binaries
// interleaved; `side`, `seed` and `order` then say which side this file is and how they were
// interleaved). `binary`: {"path", "sha256"} of the program that ran (null where unknown); its
// git_commit is the files'.
struct ProcessesInfo {
  std::string mode = "repeat";
  std::string side;
  nlohmann::json seed;
  nlohmann::json order;
  nlohmann::json binary = nlohmann::json::object();
};

// Joins `parts` (each through check_results, in process order) into one K-process results
// file. Parts of different config names, commits, scales, configs, planned runs, validation
// or timing modes or GPU models, a shard's file, a file already of K processes, a run_index
// given twice in one file or naming different runs in two, or a timed run whose samples are
// not times are refused with an InputError naming both files (or the file) and the field. A
// run incorrect or errored in any process has that status (the reason names the process);
// the file is complete when every part is and holds every run.
nlohmann::json merge_processes(const std::vector<ProcessPart>& parts, const ProcessesInfo& info);

// The process-level timing of one run from its timing objects by process (each a one-process
// file's `timing`; null where the process did not time it; the first timed one gives the
// fields all processes share: unit, mode, warmup, budget). Process numbers are the vector's
// indices; `where` names the run in errors (a sample that is not a time in ms).
nlohmann::json joined_timing(const std::vector<nlohmann::json>& timings, const std::string& where);

}  // namespace ladder
