// What `run --processes` and `ab` share: their options, one child `ladder run` at a time with
// what the parent records of it, and Ctrl-C. The processes run one after another (never two at
// once: they would share the GPU and the cores they measure), each writing its own results file
// atomically, so that whatever stops them leaves only whole files.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../processes.hpp"
#include "args.hpp"

namespace ladder::cli {

OptionSpec processes_option(const std::string& name);  // "processes" or "cpus"

// --processes K: a whole number from `lo` to kMaxProcesses; throws InputError.
std::size_t processes_count(const Parsed& p, std::size_t lo);
// --cpus LIST, each a CPU this process may use (empty when not given); throws InputError.
std::vector<int> cpus_option(const Parsed& p);
// The rounds a process takes its GPU samples in unless --rounds is given (`run --rounds`). On
// an H200, TWED's 28 host-bound smoke runs (thousands of launches a call) had a median spread
// of process medians of 10.5% over 30 processes taken in one round and 6.7% over 15 taken in
// five, for the same samples and wall time; pinning the cores changed nothing (10.8%).
// results/reference/h200/development/dimensioning/README.md has the figures.
constexpr int kProcessRounds = 5;


// One child process as the parent saw it: "pid", "started_at", "finished_at", "exit_status"
// (null when a signal ended it), "signal" (when one did), "load_avg" (at its start), "seconds".
struct ProcessRecord {
  nlohmann::json recorded;
  int status = -1;  // exit status; -1 when it did not start or a signal ended it
  int signal = 0;
  double seconds = 0;
};

// Runs `argv` (no shell) with standard output and error into `log`, on `cpus` (empty: ours),
// and waits for it.
ProcessRecord run_process_child(const std::vector<std::string>& argv, const std::string& log,
                                const std::vector<int>& cpus);

// While one lives, SIGINT and SIGTERM do not end this process: they are noted, passed on to
// the running child as SIGTERM (Ctrl-C reaches it anyway; a SIGTERM sent to us alone must
// too), and the caller stops once the child has ended. finish() restores the handlers and, if a
// signal came, ends this process by it.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  bool stopped() const;
  void finish();

 private:
  void (*old_int_)(int);
  void (*old_term_)(int);
  bool restored_ = false;
};

// A process's results file read back for the merge, with what the parent recorded of it.
ProcessPart read_part(const std::string& path, const nlohmann::json& recorded);

// "a/b.json" -> "a/b.processes": where the parts of OUT are kept until merged.
std::string parts_folder(const std::string& out, const std::string& extension);

}  // namespace ladder::cli
