// `ladder run CONFIG --processes K [--cpus LIST]`: K processes of one config, one after another,
// each a `ladder run` of its own into a part file beside OUT, joined into OUT (a K-process
// results file, harness/processes.hpp). Every input is checked here before the first process
// starts; the parts and their logs stay in OUT's name with .processes until they are joined,
// and are kept when a process failed or the run was stopped.
#include <fmt/format.h>
#include <sched.h>

#include <chrono>
#include <filesystem>

#include "../../datagen/base/atomic_file.hpp"
#include "../../datagen/base/printable.hpp"
#include "../results.hpp"
#include "../sha256.hpp"
#include "commands.hpp"
#include "out_path.hpp"
#include "process_child.hpp"
#include "shards.hpp"
#include "summary.hpp"

namespace ladder::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Options that split a config, select runs or leave it untimed: none makes K samples of one
// config.
constexpr const char* kRefused[][2] = {
    {"gpus", "each process runs the whole config on one GPU"},
    {"shard", "each process runs the whole config"},
    {"costs", "it balances shards"},
    {"runs", "each process runs the whole config (use --filter)"},
    {"profile", "profiled runs are not timed"},
    {"dump-outputs", "every process would write the same outputs"},
};

void refuse_options(const Parsed& p) {
  if (!p.has("processes")) throw InputError("--cpus pins the processes of --processes K: give it with --processes");
  for (const auto& [name, why] : kRefused)
    if (p.has(name)) throw InputError(fmt::format("--processes cannot be given with --{}: {}", name, why));
}

// The child's command line: this binary's `run` with the options given, into `part`. The
// processes take more samples of GPU runs than the config's count (--process-samples) unless
// a count was given, and take them in kProcessRounds rounds unless --rounds was given (the
// children are this binary: its run has both options).
std::vector<std::string> child_argv(const Parsed& p, const std::string& self, const std::string& part) {
  std::vector<std::string> argv = {self, "run", p.positional.at(0), "--out", part, "--quiet"};
  const std::vector<std::string> more = pass_on(p, {"processes", "cpus", "out", "quiet"});
  argv.insert(argv.end(), more.begin(), more.end());
  if (!p.has("repetitions") && !p.has("process-samples")) argv.push_back("--process-samples");
  if (!p.has("rounds"))
    argv.insert(argv.end(), {"--rounds", std::to_string(kProcessRounds)});
  return argv;
}

struct Outcome {
  std::vector<ProcessPart> parts;
  std::string failed;  // why the processes stopped early ("" when all ran)
  int status = 0;      // the exit status a failed process asks for
  bool any_run_failed = false;
};

Outcome run_all(const Parsed& p, const std::string& dir, std::size_t k, const std::vector<int>& cpus,
                const std::string& what, StopSignals& stop) {
  const std::string self = fs::canonical("/proc/self/exe").string();
  const auto start = std::chrono::steady_clock::now();
  Outcome o;
  for (std::size_t i = 0; i < k && !stop.stopped(); ++i) {
    const std::string part = (fs::path(dir) / fmt::format("process-{}.json", i)).string();
    const std::string log = (fs::path(dir) / fmt::format("process-{}.log", i)).string();
    const ProcessRecord r = run_process_child(child_argv(p, self, part), log, cpus);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!p.has("quiet"))
      fmt::print(stderr, "{}: process {} of {} done in {} (exit {}), elapsed {}, {}\n", what, i + 1, k,
                 duration_text(r.seconds), r.status, duration_text(elapsed),
                 i + 1 == k ? "done" : "~" + duration_text(elapsed / double(i + 1) * double(k - i - 1)) + " left");
    if (stop.stopped()) break;
    std::error_code ec;
    if ((r.status != 0 && r.status != 1) || !fs::exists(part, ec)) {
      o.failed = fmt::format("process {} of {} {} (log {})", i + 1, k,
                             r.signal ? fmt::format("ended by signal {}", r.signal)
                                      : fmt::format("exited with status {}", r.status),
                             printable_all(log));
      o.status = r.status > 1 ? r.status : 1;
      return o;
    }
    o.any_run_failed |= r.status == 1;
    o.parts.push_back(read_part(part, r.recorded));
  }
  return o;
}

// The processes' files joined into OUT; the parts removed once it is written.
json join(const std::vector<ProcessPart>& parts, const std::string& out, const std::string& dir) {
  ProcessesInfo info;
  const std::string self = fs::canonical("/proc/self/exe").string();
  info.binary = {{"path", self}, {"sha256", sha256_file(self)}};
  const json merged = merge_processes(parts, info);
  prepare_results_file(out);
  write_file_atomically(out, merged.dump(2) + "\n");
  fs::remove_all(dir);
  return merged;
}

bool all_ok(const json& merged) {
  const json& s = merged["summary"];
  return !s.contains("incorrect") && !s.contains("error");
}

}  // namespace

int run_processes(const Parsed& p, const Config& config) {
  refuse_options(p);
  const std::size_t k = processes_count(p, 1);
  const std::vector<int> cpus = cpus_option(p);
  if (k == 1) {  // today's run, in this process (pinned as asked)
    if (!cpus.empty()) {
      cpu_set_t set;
      CPU_ZERO(&set);
      for (int c : cpus) CPU_SET(c, &set);
      sched_setaffinity(0, sizeof set, &set);
    }
    return run_here(p, config);
  }
  const RunOptions opt = run_options(p);
  const std::string shown = p.has("out") ? p.get("out") : default_out(config);
  const std::string out = results_target(shown);
  check_out_creatable(out);
  refuse_overwriting(out, input_files(config), "--out");
  const std::string dir = parts_folder(out, ".processes");
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir, ec)))
    throw InputError("'" + printable(dir, 120) + "' is in the way: --processes keeps its parts there; remove it");
  check_config(config, opt);
  fs::create_directories(dir);
  const std::string what = "run " + printable_all(config.name);
  StopSignals stop;
  Outcome o = run_all(p, dir, k, cpus, what, stop);
  if (stop.stopped())
    fmt::print(stderr, "\nladder: interrupted; nothing was joined into {}: the processes' whole files stay in {}\n",
               printable_all(shown), printable_all(dir));
  stop.finish();  // ends this process by the signal that stopped it, if one did
  if (!o.failed.empty()) {
    fmt::print(stderr, "ladder: {}; nothing was joined: the other processes' files stay in {}\n", o.failed,
               printable_all(dir));
    return o.status;
  }
  const json merged = join(o.parts, out, dir);
  for (const json& w : merged["warnings"]) fmt::print(stderr, "ladder: warning: {}\n", printable_all(w.get<std::string>()));
  print_results_summary(merged);
  print_tally(merged);
  fmt::print("results: {} ({} processes)\n", shown, k);
  if (o.any_run_failed || !all_ok(merged)) {
    fmt::print(stderr, "ladder: some runs failed validation or errored (see results)\n");
    return 1;
  }
  return 0;
}

}  // namespace ladder::cli
