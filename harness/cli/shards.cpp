#include "shards.hpp"

#include <fmt/format.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "../../datagen/base/printable.hpp"
#include "../../datagen/numbers.hpp"
#include "../device_info.hpp"
#include "child.hpp"
#include "commands.hpp"

namespace ladder::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop = 0;  // the signal that asked the children to stop
void on_stop(int sig) { g_stop = sig; }

// The first CPU of the physical core `cpu` belongs to (its hyper-threads share one); `cpu`
// itself where the kernel does not say.
int core_of(int cpu) {
  std::ifstream in(fmt::format("/sys/devices/system/cpu/cpu{}/topology/thread_siblings_list", cpu));
  int first = cpu;
  return in >> first ? first : cpu;
}

// This process's CPUs grouped by physical core, cores in order: each child gets whole cores,
// so that no two children's threads share one (a CPU baseline next door would slow a GPU
// step's launches).
std::vector<std::vector<int>> our_cores() {
  cpu_set_t set;
  std::map<int, std::vector<int>> cores;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cores[core_of(c)].push_back(c);
  std::vector<std::vector<int>> out;
  for (auto& [first, cpus] : cores) out.push_back(std::move(cpus));
  return out;
}

// The runs a child's results hold so far, as (config name, run_index), read without trusting
// the files: one being replaced is read next time.
void runs_in(const fs::path& file, std::set<std::pair<std::string, std::size_t>>& done) {
  try {
    std::ifstream in(file);
    const json r = json::parse(in);
    const json& c = r.at("config");
    const std::string name = c.contains("name") ? c["name"].get<std::string>() : c.at("study").get<std::string>();
    for (const json& run : r.at("runs")) done.insert({name, run.at("run_index").get<std::size_t>()});
  } catch (const std::exception&) {
  }
}

std::set<std::pair<std::string, std::size_t>> runs_done(const std::string& watch) {
  std::set<std::pair<std::string, std::size_t>> done;
  std::error_code ec;
  if (!fs::is_directory(watch, ec)) {
    if (fs::exists(watch, ec)) runs_in(watch, done);
    return done;
  }
  for (fs::recursive_directory_iterator it(watch, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json") runs_in(it->path(), done);
  return done;
}

class CombinedProgress {
 public:
  CombinedProgress(const std::vector<ShardChild>& children, const std::string& what,
                   const std::vector<std::vector<double>>& costs, const std::vector<std::string>& names)
      : children_(children), what_(what), costs_(costs), names_(names) {}

  // One line when something changed, at most every few seconds.
  void update(std::size_t running, bool force) {
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    if (!force && elapsed - shown_at_ < 5) return;
    std::size_t runs = 0, total = 0;
    double left = 0;
    bool estimated = true;
    for (std::size_t k = 0; k < children_.size(); ++k) {
      const auto done = runs_done(children_[k].watch);
      double cost = 0;
      for (const auto& [config, index] : done) cost += cost_of(config, index);
      runs += done.size(), total += children_[k].runs;
      // Each child's pace so far, on its own remaining cost; the slowest decides.
      if (done.size() < children_[k].runs) {
        if (cost > 0) left = std::max(left, elapsed / cost * std::max(0.0, children_[k].cost - cost));
        else estimated = false;
      }
    }
    if (!force && runs == last_runs_) return;
    last_runs_ = runs, shown_at_ = elapsed;
    fmt::print(stderr, "{}: {}/{} runs ({:.0f}%), {} of {} shards running, elapsed {}, {}\n", what_, runs,
               total, 100.0 * runs / std::max<std::size_t>(total, 1), running, children_.size(),
               duration_text(elapsed), running == 0 ? "done" : estimated ? "~" + duration_text(left) + " left" : "estimating");
  }

 private:
  double cost_of(const std::string& config, std::size_t index) const {
    for (std::size_t c = 0; c < names_.size(); ++c)
      if (names_[c] == config && index < costs_[c].size()) return costs_[c][index];
    return 0;
  }

  const std::vector<ShardChild>& children_;
  std::string what_;
  const std::vector<std::vector<double>>& costs_;
  const std::vector<std::string>& names_;
  Clock::time_point start_ = Clock::now();
  double shown_at_ = -1e9;
  std::size_t last_runs_ = std::size_t(-1);
};

}  // namespace

OptionSpec shard_option(const std::string& name) {
  static const std::vector<OptionSpec> options = {
      {"shard", "K/N", "run only shard K (0 to N-1) of N: whole data groups, balanced by cost"},
      {"costs", "FILE|DIR", "earlier results (a file or a reproduction) whose run times balance shards"},
      {"gpus", "all|LIST", "one process per GPU (all, or indices like 0,2), each a shard; merged at the end"},
  };
  const auto it = std::find_if(options.begin(), options.end(), [&](const OptionSpec& o) { return o.name == name; });
  if (it == options.end()) throw std::logic_error("no shard option --" + name);
  return *it;
}

MeasuredCosts costs_option(const Parsed& p) {
  return p.has("costs") ? MeasuredCosts::read(p.get("costs")) : MeasuredCosts{};
}

std::vector<int> gpus_option(const Parsed& p) {
  const std::string text = p.get("gpus");
  // The list's own mistakes first: bad input on any machine, before the CUDA runtime is asked.
  std::vector<std::int64_t> listed;
  std::set<std::int64_t> seen;
  if (text != "all") {
    std::string rest = text + ",";
    for (std::size_t at; (at = rest.find(',')) != std::string::npos; rest.erase(0, at + 1)) {
      std::int64_t g = -1;
      try {
        g = parse_int64(rest.substr(0, at), "--gpus");
      } catch (const InputError&) {
        throw InputError("--gpus '" + printable(text, 40) + "' is not all or a list of GPU indices like 0,2");
      }
      if (!seen.insert(g).second)
        throw InputError("--gpus " + printable(text, 40) + " names GPU " + std::to_string(g) + " twice");
      listed.push_back(g);
    }
  }
  const std::vector<std::string> names = device_names(true);
  const std::string here = names.empty() ? "this machine has no CUDA device"
                                         : fmt::format("this machine has {} GPU{} (0 to {})", names.size(),
                                                       names.size() == 1 ? "" : "s", names.size() - 1);
  std::vector<int> gpus;
  if (text == "all")
    for (std::size_t i = 0; i < names.size(); ++i) gpus.push_back(int(i));
  for (const std::int64_t g : listed) {
    if (g < 0 || g >= std::int64_t(names.size()))
      throw InputError("--gpus " + printable(text, 40) + ": GPU " + std::to_string(g) + " is not here: " + here);
    gpus.push_back(int(g));
  }
  if (gpus.empty()) throw InputError("--gpus " + printable(text, 40) + ": " + here);
  for (int g : gpus)
    if (names[g] != names[gpus[0]])
      throw InputError(fmt::format("--gpus {}: GPU {} is an {} and GPU {} an {}: results record one GPU model; "
                                   "run each model's GPUs apart", printable(text, 40), gpus[0], names[gpus[0]], g,
                                   names[g]));
  return gpus;
}

std::vector<std::string> pass_on(const Parsed& p, const std::vector<std::string>& drop) {
  std::vector<std::string> args;
  for (const auto& [name, value] : p.options)
    if (std::find(drop.begin(), drop.end(), name) == drop.end()) args.insert(args.end(), {"--" + name, value});
  for (const std::string& flag : p.flags)
    if (std::find(drop.begin(), drop.end(), flag) == drop.end()) args.push_back("--" + flag);
  return args;
}

std::vector<int> run_shard_children(const std::vector<ShardChild>& children, const std::string& what,
                                    const std::vector<std::vector<double>>& costs,
                                    const std::vector<std::string>& config_names) {
  const std::vector<std::vector<int>> cores = our_cores();
  const std::size_t n = children.size();
  std::vector<int> pids(n, -1), status(n, -1);
  g_stop = 0;
  auto old_int = std::signal(SIGINT, on_stop), old_term = std::signal(SIGTERM, on_stop);
  for (std::size_t k = 0; k < n; ++k) {
    ChildOptions o;
    o.stdout_file = children[k].log;
    o.stderr_to_stdout = true;
    // A contiguous share of our physical cores, at least one: CPU baselines of one child do
    // not slow another's.
    const std::size_t lo = cores.size() * k / n, hi = std::max(lo + 1, cores.size() * (k + 1) / n);
    for (std::size_t c = lo; c < hi && c < cores.size(); ++c) o.cpus.insert(o.cpus.end(), cores[c].begin(), cores[c].end());
    o.env.push_back("OMP_NUM_THREADS=" + std::to_string(std::max<std::size_t>(o.cpus.size(), 1)));
    pids[k] = start_child(children[k].argv, o);
    if (pids[k] < 0) fmt::print(stderr, "ladder: could not start shard {} ({})\n", k, children[k].argv[0]);
  }
  fmt::print(stderr, "{}: {} shards started, {} physical cores each; logs {}\n", what, n,
             std::max<std::size_t>(cores.size() / std::max<std::size_t>(n, 1), 1),
             fs::path(children.front().log).parent_path().string());
  CombinedProgress progress(children, what, costs, config_names);
  bool signalled = false;
  for (;;) {
    std::size_t running = 0;
    for (std::size_t k = 0; k < n; ++k) {
      if (pids[k] < 0) continue;
      const ChildState s = wait_child(pids[k], false);
      if (s.running) {
        ++running;
        continue;
      }
      status[k] = s.result.status;
      pids[k] = -1;
    }
    if (g_stop && !signalled) {
      signalled = true;  // Ctrl-C reached the children too; SIGTERM only us: pass it on
      for (int pid : pids)
        if (pid > 0) kill(pid, SIGTERM);
    }
    progress.update(running, running == 0);
    if (running == 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  if (g_stop) {
    fmt::print(stderr, "\nladder: interrupted; every shard's results file is whole: rerun the same command\n");
    std::raise(g_stop);
  }
  return status;
}

}  // namespace ladder::cli
