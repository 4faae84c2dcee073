#include "process_child.hpp"

#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>

#include "../../datagen/base/printable.hpp"
#include "../../datagen/numbers.hpp"
#include "../process_facts.hpp"
#include "../results.hpp"
#include "child.hpp"
#include "commands.hpp"

namespace ladder::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

volatile std::sig_atomic_t g_stop = 0;       // the signal that asked us to stop
volatile std::sig_atomic_t g_child_pid = 0;  // the child running now (0: none)

void on_stop(int sig) {
  g_stop = sig;
  if (g_child_pid > 0) kill(g_child_pid, SIGTERM);
}

std::string cpus_text(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + (j > i ? fmt::format("{}-{}", cpus[i], cpus[j]) : std::to_string(cpus[i]));
    i = j;
  }
  return out.empty() ? "none" : out;
}

}  // namespace

OptionSpec processes_option(const std::string& name) {
  static const std::vector<OptionSpec> options = {
      {"processes", "K", "run K processes of the config one after another, each a sample, joined into one file"},
      {"cpus", "LIST", "pin every process to these CPUs (0-3,8)"},
  };
  const auto it = std::find_if(options.begin(), options.end(), [&](const OptionSpec& o) { return o.name == name; });
  if (it == options.end()) throw std::logic_error("no processes option --" + name);
  return *it;
}

std::size_t processes_count(const Parsed& p, std::size_t lo) {
  const std::string text = p.get("processes");
  std::int64_t k = -1;
  try {
    k = parse_int64(text, "--processes");
  } catch (const InputError&) {
    throw InputError("--processes '" + printable(text, 40) + "' is not a whole number of processes");
  }
  if (k < std::int64_t(lo) || k > std::int64_t(kMaxProcesses))
    throw InputError(fmt::format("--processes {}: give {} to {} processes", k, lo, kMaxProcesses));
  return std::size_t(k);
}

std::vector<int> cpus_option(const Parsed& p) {
  if (!p.has("cpus")) return {};
  const std::vector<int> cpus = parse_cpu_list(p.get("cpus")), ours = allowed_cpus();
  for (int c : cpus)
    if (std::find(ours.begin(), ours.end(), c) == ours.end())
      throw InputError(fmt::format("--cpus {}: CPU {} is not one this process may use ({})", printable(p.get("cpus"), 40),
                                   c, cpus_text(ours)));
  return cpus;
}

ProcessRecord run_process_child(const std::vector<std::string>& argv, const std::string& log,
                                const std::vector<int>& cpus) {
  ChildOptions o;
  o.stdout_file = log;
  o.stderr_to_stdout = true;
  o.cpus = cpus;
  ProcessRecord r;
  const std::vector<double> load = load_average();
  const auto start = std::chrono::steady_clock::now();
  const std::string started_at = utc_timestamp();
  const int pid = start_child(argv, o);
  ChildState s;
  if (pid > 0) {
    g_child_pid = pid;
    if (g_stop) kill(pid, SIGTERM);  // a signal that came as it started
    s = wait_child(pid, true);
    g_child_pid = 0;
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  r.status = s.result.status;
  r.signal = s.result.signal;
  r.recorded = {{"pid", pid > 0 ? json(pid) : json(nullptr)},
                {"started_at", started_at},
                {"finished_at", utc_timestamp()},
                {"exit_status", r.status >= 0 ? json(r.status) : json(nullptr)},
                {"load_avg", load.empty() ? json(nullptr) : json(load)},
                {"seconds", r.seconds}};
  if (r.signal) r.recorded["signal"] = r.signal;
  return r;
}

StopSignals::StopSignals() {
  g_stop = 0;
  old_int_ = std::signal(SIGINT, on_stop);
  old_term_ = std::signal(SIGTERM, on_stop);
}

StopSignals::~StopSignals() {
  if (!restored_) {
    std::signal(SIGINT, old_int_);
    std::signal(SIGTERM, old_term_);
  }
}

bool StopSignals::stopped() const { return g_stop != 0; }

void StopSignals::finish() {
  std::signal(SIGINT, old_int_);
  std::signal(SIGTERM, old_term_);
  restored_ = true;
  if (g_stop) std::raise(g_stop);
}

ProcessPart read_part(const std::string& path, const json& recorded) {
  ProcessPart part;
  part.path = path;
  part.results = read_results(path);
  part.recorded = recorded;
  return part;
}

std::string parts_folder(const std::string& out, const std::string& extension) {
  return fs::path(out).replace_extension(extension).string();
}

}  // namespace ladder::cli
