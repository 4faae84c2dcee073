// A timed run as the process-level contract reads it from a results file: one median per
// process (the observations compare tests), each process's samples where the file keeps them
// (for the variance components), and which process of the file's `processes.list` each is
// (for the run order). Schema 2 files record K processes a run (timing.process_medians,
// timing.processes); a schema 1 or one-process file is K = 1 with its median. Read
// defensively: a field of another type or a value that is not a positive, finite number reads
// as absent, and the next source is used.
#pragma once
#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

namespace ladder {

struct ProcessTiming {
  std::vector<double> medians;               // one a process; K = medians.size()
  std::vector<std::vector<double>> samples;  // by process, when every process lists its own; else empty
  std::vector<std::size_t> process;          // the processes.list index of each median
  bool recorded = false;                     // from the file's per-process fields (not the run's median)
};

// From timing.process_medians, else timing.processes[].median, else [timing.median]; empty
// medians when the run has none of them (not timed).
ProcessTiming process_timing(const nlohmann::json& timing);

// processes.list's order_position by process index: the place of each process in the run
// order (an A/B interleaving counts both sides). Empty when the file records none.
std::map<std::size_t, double> order_positions(const nlohmann::json& results);

// The file's process count (processes.count, else the list's length); 1 for a one-process
// file.
std::size_t process_count(const nlohmann::json& results);

}  // namespace ladder
