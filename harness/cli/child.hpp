// Child processes of `ladder reproduce` (the Python figures, report and peers): started from an
// argument vector, never through a shell, so that no folder or file name (quotes, spaces, `$`,
// backticks, newlines) can be read as a command.
#pragma once
#include <string>
#include <vector>

namespace ladder::cli {

struct ChildOptions {
  std::string cwd;          // the child's working directory ("" keeps ours)
  std::string stdout_file;  // its standard output goes to this file (created or truncated)
  bool capture = false;     // else its standard output is collected into ChildResult::out
  bool quiet = false;       // its standard error goes to /dev/null
  bool stderr_to_stdout = false;  // its standard error goes where its standard output goes
  std::vector<std::string> env;   // NAME=VALUE entries added to (or replacing in) ours
  std::vector<int> cpus;          // the cores it may run on (empty: ours)
};

struct ChildResult {
  int status = -1;  // the exit status; -1 when it could not start or ended by a signal
  int signal = 0;   // the signal that ended it, if one did
  std::string out;  // what it wrote to standard output, with `capture` (at most 64 KiB)
};

// Runs argv[0] (searched on PATH when it has no '/') with arguments argv[1...] and waits for it.
// The child gets default signal dispositions, so Ctrl-C reaches it as it reaches ladder.
ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& options = {});

// The same, without waiting: the child's process id, or -1 when it could not start (`capture`
// is not available here).
int start_child(const std::vector<std::string>& argv, const ChildOptions& options = {});
// Waits for child `pid` (`block` false: returns at once, status -1 and running true while it
// runs).
struct ChildState {
  bool running = false;
  ChildResult result;
};
ChildState wait_child(int pid, bool block);

}  // namespace ladder::cli
