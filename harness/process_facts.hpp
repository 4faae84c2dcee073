// What a process of `ladder run` records of the conditions it ran in: the cores it could use
// and the one it ran on, the load on the machine and the GPU's temperature when it started, and
// whether NVML said the GPU slowed itself down. Processes of one config are the samples of the
// timing contract (harness/processes.hpp): these facts tell a slow process's circumstances from
// a slow process, and `run` warns when they put its times in doubt.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "device_info.hpp"

namespace ladder {

struct ProcessFacts {
  long pid = -1;
  int cpu_start = -1, cpu_end = -1;  // the core it ran on at the start and at the end
  std::vector<int> cpus_allowed;     // its affinity
  std::vector<double> load_avg;      // /proc/loadavg's 1, 5 and 15 minute loads at the start
  int gpu_temp_c_start = -1;         // -1: unknown (no GPU, no NVML)
  long long slowdowns = -1;          // the slowdown bits NVML reported after any run; -1 unknown
};

// At the start (once every input is checked): pid, core, affinity, load and the temperature of
// CUDA device `device` (-1 for none).
ProcessFacts process_start(int device);
// After each run: ORs in the slowdown reasons NVML gives now.
void note_slowdowns(ProcessFacts& f, const DeviceReport& device);
// At the end: the core it ran on.
void process_end(ProcessFacts& f);

// The `process` block of a one-process results file.
nlohmann::json process_json(const ProcessFacts& f);

// NVML's slowdown reasons that put times in doubt (thermal, power brake, hardware slowdown), by
// name ("HW thermal slowdown, power brake"); "" when none of those bits is set.
std::string slowdown_names(long long reasons);

// The warnings a run gets (one line each, no "warning:" prefix): an SM clock that moved more
// than 2% from start to end (either unknown: none), NVML slowdowns, and a 1-minute load at
// the start above half the cores this process may use.
std::vector<std::string> process_warnings(const ProcessFacts& f, int clock_start_mhz, int clock_end_mhz);

// /proc/loadavg's first three numbers; empty when the text is not that.
std::vector<double> parse_loadavg(const std::string& text);
std::vector<double> load_average();  // this machine's now (empty: unknown)
std::vector<int> allowed_cpus();     // this process's affinity, in order

// "0-3,8": CPU numbers and ranges A-B (A <= B), each below 1024, none twice; throws InputError
// naming `option`.
std::vector<int> parse_cpu_list(const std::string& text, const std::string& option = "--cpus");

}  // namespace ladder
