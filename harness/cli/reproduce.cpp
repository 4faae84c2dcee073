// `ladder reproduce`: every study's paper experiments (the configs under configs/<study>/ that
// carry a "reproduce" object), at the paper or quick scale, then the peers whose packages are
// installed, every figure, and DIR/REPORT.md (plots/report.py) with the seeds' numbers beside
// ours.
//
// Resume: a results file in DIR that is complete and came from the same commit, device, scale
// and config is reused, and the line says so. Runs in progress are written under
// DIR/.partial/ and moved into DIR only once complete, so an interrupted reproduction leaves
// in DIR only whole results files (and the report of an earlier, finished one, if any).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "../../datagen/base/atomic_file.hpp"
#include "../../datagen/base/printable.hpp"
#include "../../datagen/json_file.hpp"
#include "../config.hpp"
#include "../device_info.hpp"
#include "../results.hpp"
#include "../runner.hpp"
#include "args.hpp"
#include "build_info.hpp"
#include "commands.hpp"
#include "out_path.hpp"

namespace ladder::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

struct Experiment {
  Config config;
  std::string file;  // results file name inside DIR
  json entry;        // its line of the manifest
};

// A peer script and the configs (by study) it runs on, with flags so that it never downloads
// or installs anything and checks a bounded number of cells with its Python oracle (the
// oracles run at about 50 ns a cell: unbounded, they would outlast the experiments).
struct Peer {
  std::string name, study, script;
  std::vector<std::string> flags;
};
const std::vector<Peer> kPeers = {
    {"cutwed", "twed", "peers/cutwed.py", {"--no-fetch", "--max-cells", "268435456"}},
    {"rapidfuzz", "eed", "peers/rapidfuzz_eed.py", {"--no-install", "--max-cells", "4194304"}},
    {"stringzilla", "eed", "peers/stringzilla_eed.py", {"--no-fetch", "--max-cells", "4194304"}},
};

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::string duration_text(double s) {
  const long n = std::lround(s);
  return n >= 60 ? fmt::format("{}m{:02d}s", n / 60, n % 60) : fmt::format("{}s", n);
}

// The project's folder, whose plots/ and peers/ scripts draw and compare: the working
// directory when it is one, else the source tree this binary was built from.
fs::path project_root() {
  for (const fs::path root : {fs::current_path(), fs::path(LADDER_SOURCE_DIR)})
    if (fs::is_directory(root / "configs") && fs::exists(root / "plots" / "report.py")) return root;
  throw InputError("no plots/report.py here or in the source tree; run from the project's folder");
}

// Every paper experiment, loaded (and so checked) at `scale`, in the studies' order.
std::vector<Experiment> find_experiments(const fs::path& configs, const fs::path& root,
                                         const std::string& scale) {
  std::vector<Experiment> out;
  for (const auto& study : registry().studies()) {
    const fs::path dir = configs / study->name();
    if (!fs::is_directory(dir)) continue;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      const json j = read_json_file(f.string(), "config '" + printable(f.string(), 80) + "'", 16);
      if (!is_paper_experiment(j)) continue;
      Experiment e{load_config(f.string(), scale), "", json::object()};
      // Results name the config as the project does (configs/<study>/NAME.json), not by
      // where this machine keeps it.
      e.config.path = fs::proximate(f, root).string();
      e.file = safe_name(e.config.name) + ".json";
      for (const Experiment& other : out)
        if (other.file == e.file)
          throw InputError("two paper experiments are named '" + e.config.name + "'");
      out.push_back(std::move(e));
    }
  }
  if (out.empty()) throw InputError("no paper experiment under " + printable(configs.string(), 80));
  return out;
}

std::string device_slug(const DeviceReport& d) {
  if (!d.caps.present) return "no-gpu";
  std::string s;
  for (char c : d.name) s += std::isalnum(static_cast<unsigned char>(c)) ? std::tolower(c) : '-';
  return safe_name(s);
}

// Why a results file cannot stand for this run ("" when it can).
std::string why_not_reusable(const fs::path& file, const json& config, const std::string& scale,
                             const DeviceReport& device) {
  json r;
  try {
    r = read_results(file.string());
  } catch (const InputError& e) {
    return e.what();
  }
  const json dev = r.value("device", json::object());
  if (!r.value("complete", false)) return "incomplete";
  // A build that does not know its commit cannot tell that the file's code is its own.
  if (std::string(LADDER_GIT_COMMIT) == "unknown") return "results of an unknown commit";
  if (r.value("ladder", json::object()).value("git_commit", "") != LADDER_GIT_COMMIT)
    return "another commit";
  if (r.value("scale", "") != scale) return "another scale";
  if (dev.value("present", false) != device.caps.present || dev.value("name", "") != device.name)
    return "another device";
  if (r.value("config", json()) != config) return "another config";
  return "";
}

// Runs `argv` (a Python script of the project) from the project root; its exit status, or -1
// when it could not start. The child keeps SIGINT so that Ctrl-C stops it too.
int run_script(const fs::path& root, const std::vector<std::string>& argv,
               const std::string& stdout_file = "", bool silent = false) {
  std::string cmd = "cd " + std::string("'") + root.string() + "' &&";
  for (const std::string& a : argv) {
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    cmd += " " + q + "'";
  }
  if (!stdout_file.empty()) cmd += " > '" + stdout_file + "'";
  if (silent) cmd += " 2>/dev/null";
  std::fflush(stdout);
  const int rc = std::system(cmd.c_str());
  if (rc == -1) return -1;
  // Ctrl-C (or SIGTERM) that ended the child ends the reproduction too; any other signal is
  // the child's failure alone.
  if (WIFSIGNALED(rc) && (WTERMSIG(rc) == SIGINT || WTERMSIG(rc) == SIGTERM)) std::raise(WTERMSIG(rc));
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

class Reproduction {
 public:
  Reproduction(const Parsed& p, std::vector<Experiment> experiments, fs::path root,
               DeviceReport device, std::string scale, fs::path dir)
      : p_(p), exps_(std::move(experiments)), root_(std::move(root)), device_(std::move(device)),
        scale_(std::move(scale)), dir_(std::move(dir)), partial_(dir_ / ".partial") {
    for (const Experiment& e : exps_) planned_ += planned_runs(e.config);
    reused_.assign(exps_.size(), false);
    load_reference_times();
  }

  int run() {
    fs::create_directories(partial_);
    manifest_ = {{"scale", scale_}, {"ladder", build_json()}, {"host", host_json()},
                 {"device", device_json(device_, current_sm_clock_mhz(device_), -1)},
                 {"started_at", utc_timestamp()}, {"configs", json::array()}, {"peers", json::array()}};
    fmt::print("reproduce: {} paper experiments at the {} scale on {} into {}\n", exps_.size(),
               scale_, device_.caps.present ? device_.name : "no GPU", dir_.string());
    bool ok = true;
    for (std::size_t i = 0; i < exps_.size(); ++i) ok = experiment(i) && ok;
    if (!p_.has("no-peers"))
      for (const Experiment& e : exps_)
        for (const Peer& peer : kPeers)
          if (peer.study == e.config.study->name()) peer_run(peer, e);
    figures();
    manifest_["finished_at"] = utc_timestamp();
    manifest_["elapsed_s"] = seconds_since(start_);
    write_file_atomically((dir_ / "reproduction.json").string(), manifest_.dump(2) + "\n");
    const int rc = run_script(root_, {python(), "plots/report.py", dir_.string()});
    if (rc != 0) {
      fmt::print(stderr, "ladder: error: plots/report.py failed (exit status {})\n", rc);
      return 1;
    }
    fs::remove_all(partial_);
    fmt::print("reproduce: done in {}; report {}\n", duration_text(seconds_since(start_)),
               (dir_ / "REPORT.md").string());
    return ok ? 0 : 1;
  }

 private:
  std::string python() const { return p_.get("python", "python3"); }

  static std::size_t planned_runs(const Config& c) {
    std::size_t n = 0;
    for (const Point& pt : c.points) n += pt.variants.size();
    return n;
  }

  // "; reproduction: config 3/7, 41% of runs, 2m10s, ~3m05s left": the whole reproduction's
  // place, time and estimate.
  std::string tail(std::size_t config_done) const {
    const std::size_t done = done_runs_ + config_done;
    const double elapsed = seconds_since(start_);
    const double left = seconds_left(config_done, elapsed);
    return fmt::format("; reproduction: config {}/{}, {:.0f}% of runs, {}, {}", current_ + 1,
                       exps_.size(), 100.0 * done / std::max<std::size_t>(planned_, 1),
                       duration_text(elapsed),
                       left >= 0 ? "~" + duration_text(left) + " left" : "estimating");
  }

  // Runs differ in cost by orders of magnitude (a skyline point takes seconds, an EED one
  // milliseconds), so the estimate weighs each config by the time it took in the committed
  // reference reproduction at this scale, scaled by this machine's pace so far; without a
  // reference time for every config, by the runs left. Reused configs cost nothing. -1: no
  // estimate yet.
  double seconds_left(std::size_t config_done, double elapsed) const {
    const double fraction = double(config_done) / std::max<std::size_t>(planned_runs(exps_[current_].config), 1);
    double expected_done = 0, expected_left = 0;
    bool weighed = true;
    for (std::size_t i = 0; i < exps_.size(); ++i) {
      const double ref = reference_s_[i];
      weighed = weighed && ref >= 0;
      if (i < current_) expected_done += reused_[i] ? 0 : ref;
      if (i == current_) expected_done += fraction * ref, expected_left += (1 - fraction) * ref;
      if (i > current_) expected_left += ref;
    }
    if (weighed && expected_done > 0) return elapsed / expected_done * expected_left;
    const std::size_t done = done_runs_ + config_done, ran = done - reused_runs_;
    return ran > 0 ? elapsed / ran * (planned_ - done) : -1;
  }

  // Each config's time in results/reference/*/reproduction/<scale>/reproduction.json of the
  // project (the first reference that has them all), -1 where unknown.
  void load_reference_times() {
    reference_s_.assign(exps_.size(), -1.0);
    const fs::path refs = root_ / "results" / "reference";
    if (!fs::is_directory(refs)) return;
    for (const auto& gpu : fs::directory_iterator(refs)) {
      const fs::path f = gpu.path() / "reproduction" / scale_ / "reproduction.json";
      if (!fs::is_regular_file(f)) continue;
      std::vector<double> times(exps_.size(), -1.0);
      try {
        const json m = read_json_file(f.string(), "reference reproduction", 16);
        for (const json& c : m.value("configs", json::array()))
          for (std::size_t i = 0; i < exps_.size(); ++i)
            if (c.value("name", "") == exps_[i].config.name && c.value("elapsed_s", json()).is_number())
              times[i] = c["elapsed_s"].get<double>();
      } catch (const InputError&) {
        continue;  // a damaged reference only costs the estimate
      }
      if (std::all_of(times.begin(), times.end(), [](double t) { return t >= 0; })) {
        reference_s_ = times;
        return;
      }
    }
  }

  bool experiment(std::size_t i) {
    current_ = i;
    Experiment& e = exps_[i];
    const fs::path target = dir_ / e.file, partial = partial_ / e.file;
    json entry = {{"study", e.config.study->name()}, {"name", e.config.name},
                  {"path", e.config.path}, {"results", e.file}};
    const std::size_t runs = planned_runs(e.config);
    const std::string why = fs::exists(target)
                                ? why_not_reusable(target, e.config.resolved, scale_, device_)
                                : "none yet";
    if (why.empty()) {
      const json r = read_results(target.string());
      entry["state"] = "reused";
      entry["elapsed_s"] = std::max(0.0, seconds_between(r.value("started_at", ""),
                                                           r.value("finished_at", "")));
      fmt::print("reproduce: [{}/{}] {}: reusing {} (complete, same commit, device and scale)\n",
                 i + 1, exps_.size(), e.config.name, target.string());
      done_runs_ += runs;
      reused_runs_ += runs;
      reused_[i] = true;
      manifest_["configs"].push_back(entry);
      return r.value("summary", json::object()).value("incorrect", 0) == 0 &&
             r.value("summary", json::object()).value("error", 0) == 0;
    }
    fmt::print("reproduce: [{}/{}] {} ({} runs; {} has {})\n", i + 1, exps_.size(),
               e.config.name, runs, target.filename().string(), why);
    RunOptions opt;
    opt.device = device_index_;
    opt.progress_label = e.config.name;
    opt.progress_tail = [this](std::size_t done, std::size_t) { return tail(done); };
    opt.on_run = [&partial](const RunReport& so_far) { write_results(partial.string(), so_far); };
    const auto t0 = Clock::now();
    RunReport rep = run_config(e.config, opt);
    write_results(partial.string(), rep);
    fs::rename(partial, target);  // .partial/ is inside DIR: one file system, so atomic
    done_runs_ += runs;
    entry["state"] = "ran";
    entry["elapsed_s"] = seconds_since(t0);
    manifest_["configs"].push_back(entry);
    return rep.all_ok();
  }

  void peer_run(const Peer& peer, const Experiment& e) {
    const std::string file = safe_name(e.config.name) + "-" + peer.name + ".json";
    json entry = {{"study", peer.study}, {"peer", peer.name}, {"config", e.config.name},
                  {"results", nullptr}, {"why", ""}};
    const auto t0 = Clock::now();
    const fs::path probe = partial_ / (peer.name + ".installed.txt");
    const int ready = run_script(root_, {python(), "peers/installed.py", peer.name}, probe.string());
    if (ready != 0) {
      entry["state"] = "not installed";
      entry["why"] = first_line(probe);
      fmt::print("reproduce: peer {} on {}: not run ({})\n", peer.name, e.config.name,
                 entry["why"].get<std::string>());
    } else if (reusable_peer(dir_ / file, e.config.resolved)) {
      entry["state"] = "reused";
      entry["results"] = file;
      fmt::print("reproduce: peer {} on {}: reusing {}\n", peer.name, e.config.name, file);
    } else {
      // The peer reads the config as it runs at this scale, written beside its results.
      const fs::path config = partial_ / (safe_name(e.config.name) + ".config.json");
      write_file_atomically(config.string(), e.config.resolved.dump(2) + "\n");
      fmt::print("reproduce: peer {} on {}\n", peer.name, e.config.name);
      std::vector<std::string> argv = {python(), peer.script, config.string(), "--out",
                                       (partial_ / file).string(), "--ladder", self_, "--quiet"};
      argv.insert(argv.end(), peer.flags.begin(), peer.flags.end());
      const int rc = run_script(root_, argv);
      json results = fs::exists(partial_ / file)
                         ? read_json_file((partial_ / file).string(), "peer results", 64)
                         : json::object();
      const bool complete = results.value("complete", false);
      if (complete) {
        // The peer read a copy of the config under .partial/: its results name the config
        // and the scale that copy stands for.
        results["config_path"] = e.config.path;
        results["scale"] = scale_;
        write_file_atomically((dir_ / file).string(), results.dump(2) + "\n");
        entry["results"] = file;
      }
      entry["state"] = complete && rc == 0 ? "ran" : "failed";
      if (rc != 0) entry["why"] = fmt::format("{} exited with status {}", peer.script, rc);
      entry["elapsed_s"] = seconds_since(t0);
    }
    manifest_["peers"].push_back(entry);
  }

  // A peer's results carry no ladder commit of their own run: complete, same config and
  // device name are what we can check.
  bool reusable_peer(const fs::path& file, const json& config) const {
    if (!fs::exists(file)) return false;
    try {
      const json r = read_results(file.string());
      return r.value("complete", false) && r.value("config", json()) == config &&
             r.value("device", json::object()).value("name", "") == device_.name;
    } catch (const InputError&) {
      return false;
    }
  }

  static std::string first_line(const fs::path& f) {
    std::ifstream in(f);
    std::string line;
    std::getline(in, line);
    return line.empty() ? "not ready" : line;
  }

  // Every figure the results ask for, drawn under .partial/ and then swapped in whole.
  void figures() {
    std::vector<std::string> argv = {python(), "plots/draw_all.py"};
    for (const json& c : manifest_["configs"]) argv.push_back((dir_ / c["results"].get<std::string>()).string());
    for (const json& c : manifest_["peers"])
      if (c["results"].is_string()) argv.push_back((dir_ / c["results"].get<std::string>()).string());
    const fs::path fresh = partial_ / "figures", target = dir_ / "figures";
    fs::remove_all(fresh);
    argv.insert(argv.end(), {"--out-dir", fresh.string()});
    fmt::print("reproduce: drawing the figures\n");
    const int rc = run_script(root_, argv, (partial_ / "draw.log").string());
    manifest_["figures"] = json::array();
    if (rc != 0) {
      fmt::print(stderr, "ladder: warning: plots/draw_all.py failed (exit status {}): the report "
                         "will have no figures\n", rc);
      return;
    }
    fs::remove_all(target);
    if (fs::exists(fresh)) fs::rename(fresh, target);
    std::vector<std::string> names;
    if (fs::exists(target))
      for (const auto& f : fs::directory_iterator(target)) names.push_back("figures/" + f.path().filename().string());
    std::sort(names.begin(), names.end());
    manifest_["figures"] = names;
  }

 public:
  int device_index_ = 0;
  std::string self_;

 private:
  const Parsed& p_;
  std::vector<Experiment> exps_;
  fs::path root_;
  DeviceReport device_;
  std::string scale_;
  fs::path dir_, partial_;
  json manifest_;
  Clock::time_point start_ = Clock::now();
  std::size_t planned_ = 0, done_runs_ = 0, reused_runs_ = 0, current_ = 0;
  std::vector<double> reference_s_;
  std::vector<bool> reused_;
};

// Ctrl-C (or SIGTERM) ends the reproduction at once: every results file in DIR is whole, the
// run in progress stays under DIR/.partial/, and the next `reproduce` with the same DIR resumes.
void on_interrupt(int sig) {
  static const char msg[] =
      "\nladder: reproduction interrupted; complete results stay in place: rerun the same command "
      "to resume\n";
  [[maybe_unused]] ssize_t n = write(STDERR_FILENO, msg, sizeof msg - 1);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

constexpr const char* kHelp =
    "usage: ladder reproduce [--scale paper|quick] [--out DIR] [--configs DIR] [--device N]\n"
    "                        [--no-peers] [--python EXE]\n"
    "Runs every paper experiment (configs/<study>/*.json with a \"reproduce\" object) at the\n"
    "scale (default paper), then the installed peers, draws every figure and writes\n"
    "DIR/REPORT.md (default DIR: results/reproduction/<gpu>/). Rerun with the same DIR, it\n"
    "reuses every complete results file of the same commit, device, scale and config.\n";

}  // namespace

int reproduce(const Args& args) {
  Parsed p = parse_args(args, {"scale", "out", "configs", "device", "python"}, {"no-peers", "help"});
  if (p.has("help")) {
    fmt::print("{}", kHelp);
    return 0;
  }
  if (!p.positional.empty())
    throw InputError("reproduce takes no positional arguments, got '" + printable(p.positional[0]) + "'");
  const std::string scale = parse_scale(p.get("scale", "paper"), "--scale");
  const fs::path root = project_root();
  const fs::path configs = p.has("configs") ? fs::absolute(p.get("configs")) : root / "configs";
  if (!fs::is_directory(configs))
    throw InputError("--configs '" + printable(configs.string(), 80) + "' is not a directory");
  std::vector<Experiment> exps = find_experiments(configs, root, scale);
  // The figures, the report and the peers are Python: find out now, not after the runs.
  const std::string python = p.get("python", "python3");
  if (run_script(root, {python, "-c", "import json"}, "/dev/null", true) != 0)
    throw InputError("'" + printable(python) + "' does not run Python 3 (needed for the report; --python EXE)");
  const int device = p.has("device") ? integer_option(p, "device", 0) : 0;
  DeviceReport dev = probe_device(device);
  const fs::path dir = fs::absolute(p.has("out") ? fs::path(p.get("out"))
                                                 : root / "results" / "reproduction" / device_slug(dev));
  if (fs::exists(dir) && !fs::is_directory(dir))
    throw InputError("--out '" + printable(dir.string(), 80) + "' exists and is not a directory");
  prepare_results_file((dir / "reproduction.json").string());
  Reproduction r(p, std::move(exps), root, std::move(dev), scale, dir);
  r.device_index_ = device;
  r.self_ = fs::canonical("/proc/self/exe").string();
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  return r.run();
}

}  // namespace ladder::cli
