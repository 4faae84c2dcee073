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
#include <map>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include "../../datagen/base/atomic_file.hpp"
#include "../../datagen/base/printable.hpp"
#include "../../datagen/json_file.hpp"
#include "../config.hpp"
#include "../device_info.hpp"
#include "../ingest.hpp"
#include "../results.hpp"
#include "../reuse.hpp"
#include "../runner.hpp"
#include "../share_dir.hpp"
#include "../tally.hpp"
#include "args.hpp"
#include "build_info.hpp"
#include "child.hpp"
#include "commands.hpp"
#include "merge.hpp"
#include "out_path.hpp"
#include "reproduce.hpp"
#include "shards.hpp"

namespace ladder::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

std::size_t planned_runs(const Config& config) {
  std::size_t n = 0;
  for (const Point& pt : config.points) n += pt.variants.size();
  return n;
}

ReuseKey reuse_key(const Experiment& e, const std::string& scale, bool device_present, const std::string& device_name) {
  return {LADDER_GIT_COMMIT, scale, device_present, device_name, e.config.resolved, planned_runs(e.config)};
}

json read_found(const fs::path& file, std::string& why) {
  try {
    return read_json_file(file.string(), "it", kMaxResultsDepth);
  } catch (const InputError&) {
    why = "it cannot be read as JSON";
    return json();
  }
}

namespace {

// A peer of a study is found by convention: every peers/<study>/NAME.py not starting with
// '_' (peers/README.md); `module` is its module, peers.<study>.NAME, run from the share folder.
struct Peer {
  std::string name, study, module;
};

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Every paper experiment, loaded (and so checked) at `scale`, in the studies' order.
std::vector<Experiment> find_experiments(const fs::path& configs, const fs::path& root,
                                         const std::string& scale) {
  std::vector<Experiment> out;
  for (const auto& study : registry().studies()) {
    const fs::path dir = configs / study->name();
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    std::vector<fs::path> files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().extension() == ".json") files.push_back(it->path());
    if (ec) throw InputError("cannot list " + printable(dir.string(), 80) + ": " + ec.message());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) {
      const json j = read_json_file(f.string(), "config '" + printable(f.string(), 80) + "'", 16);
      if (!is_paper_experiment(j)) continue;
      Experiment e{load_config(f.string(), scale), "", {}};
      e.inputs = input_files(e.config);
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

// The default folder's name for a GPU ("" when there is none).
std::string device_slug(const std::string& name) {
  if (name.empty()) return "no-gpu";
  std::string s;
  for (char c : name) s += std::isalnum(static_cast<unsigned char>(c)) ? std::tolower(c) : '-';
  return safe_name(s);
}

// The results file name of a peer's run on a config.
std::string peer_file(const Experiment& e, const Peer& peer) {
  return safe_name(e.config.name) + "-" + safe_name(peer.name) + ".json";
}

std::vector<Peer> peers_of(const fs::path& root, const Experiment& e) {
  const std::string study = e.config.study->name();
  std::vector<Peer> out;
  std::error_code ec, type;
  for (fs::directory_iterator it(root / "peers" / study, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = it->path().filename().string();
    const std::string stem = it->path().stem().string();
    if (it->path().extension() == ".py" && file[0] != '_' && it->is_regular_file(type))
      out.push_back({stem, study, "peers." + study + "." + stem});
  }
  std::sort(out.begin(), out.end(), [](const Peer& a, const Peer& b) { return a.name < b.name; });
  return out;
}


// Python run from the share folder writes no bytecode beside its scripts: an installed tree
// is left as it was installed, and nothing is written outside the reproduction's folder.
const std::vector<std::string> kScriptEnv = {"PYTHONDONTWRITEBYTECODE=1"};

// Runs a script of the project (`argv`, no shell) from the share folder, where `python3 -m
// plots.report` finds the packages plots and peers; its exit status, or -1 when it could not
// start or was killed. Ctrl-C (or SIGTERM) that ended the child ends the reproduction too; any
// other signal is the child's failure alone.
int run_script(const fs::path& root, const std::vector<std::string>& argv,
               const std::string& stdout_file = "") {
  ChildOptions o;
  o.cwd = root.string();
  o.env = kScriptEnv;
  o.stdout_file = stdout_file;
  const ChildResult r = run_child(argv, o);
  if (r.signal == SIGINT || r.signal == SIGTERM) std::raise(r.signal);
  return r.status;
}

// The interpreter must be Python 3, told by what it prints, not by its exit status alone
// (`--python /bin/true` exits 0 too).
void check_python(const fs::path& root, const std::string& python) {
  ChildOptions o;
  o.cwd = root.string();
  o.env = kScriptEnv;
  o.capture = true;
  o.quiet = true;
  const ChildResult r =
      run_child({python, "-c", "import json, sys; print('ladder-python', sys.version_info[0])"}, o);
  if (r.status != 0 || r.out != "ladder-python 3\n")
    throw InputError("'" + printable(python) +
                     "' does not run Python 3 (needed for the figures and the report; --python EXE)");
}

// A file's identity and time of change, to tell that a child wrote it.
struct Stamp {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  long long mtime_ns = 0;
  off_t size = 0;
  bool operator==(const Stamp&) const = default;
};

Stamp stamp(const fs::path& f) {
  struct stat st {};
  if (::stat(f.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return {};
  return {true, st.st_dev, st.st_ino, st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec, st.st_size};
}

std::string shown(const fs::path& p) { return "'" + printable(p.string(), 120) + "'"; }

// A path as people read it: relative to the working directory when inside it.
std::string for_people(const fs::path& p) {
  std::error_code ec;
  const fs::path rel = fs::proximate(p, fs::current_path(ec), ec);
  return !ec && !rel.empty() && *rel.begin() != ".." ? rel.string() : p.string();
}

// obj[key] when obj is an object holding a string there, else "".
std::string text_field(const json& obj, const char* key) {
  if (!obj.is_object()) return "";
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

// "2 reproduces, 1 inconclusive (3 of the seeds'); ladder's checks: 1 reproduces": the
// report's verdicts as claims.json (beside REPORT.md) holds them.
std::string claims_text(const fs::path& file) {
  std::string why;
  const json doc = read_found(file, why);
  if (!doc.is_object() || !doc.contains("claims") || !doc["claims"].is_array())
    return "none read (" + (why.empty() ? "no claims in it" : why) + ")";
  static const char* const kVerdicts[] = {"reproduces", "partly", "does not reproduce", "inconclusive",
                                          "not comparable", "not measured"};
  auto by_verdict = [&doc](const std::string& source) {
    std::string out;
    std::size_t all = 0;
    for (const char* verdict : kVerdicts) {
      std::size_t n = 0;
      for (const json& c : doc["claims"])
        n += text_field(c, "source") == source && text_field(c, "verdict") == verdict;
      if (n > 0) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, verdict);
      all += n;
    }
    return std::pair{out, all};
  };
  const auto [seeds, seed_count] = by_verdict("seed");
  const auto [checks, check_count] = by_verdict("ladder");
  std::string out = seed_count > 0 ? fmt::format("{} ({} of the seeds')", seeds, seed_count) : "none of the seeds'";
  if (check_count > 0) out += "; ladder's checks: " + checks;
  return out;
}

// One folder holds one reproduction: the results files, peers' results and manifest already in
// `dir` must be of this build's commit and of `scale`, unless --force says that they may be
// replaced. Checked before anything is created. A file that cannot be read, or that names
// neither, is left to the reuse check (which runs its config again).
void check_one_reproduction(const fs::path& dir, const std::string& scale, bool force) {
  if (force) return;
  std::error_code ec, type;
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".json" && it->is_regular_file(type)) files.push_back(it->path());
  std::sort(files.begin(), files.end());
  for (const fs::path& f : files) {
    std::string why;
    const json j = read_found(f, why);
    const std::string theirs = text_field(j, "scale");
    const std::string commit = text_field(j.is_object() && j.contains("ladder") ? j["ladder"] : json(), "git_commit");
    const std::string where = "--out " + shown(dir) + " holds ";
    const std::string fix = ": give another --out, or --force to replace what is there";
    if (!theirs.empty() && theirs != scale)
      throw InputError(where + "a reproduction at the " + printable(theirs) + " scale (" +
                       printable(f.filename().string(), 80) + "), not " + scale + fix);
    if (!commit.empty() && commit != LADDER_GIT_COMMIT)
      throw InputError(where + "results of commit " + printable(commit) + " (" +
                       printable(f.filename().string(), 80) + "), not this build's " + LADDER_GIT_COMMIT + fix);
  }
}

}  // namespace

void check_outputs_in(const fs::path& folder, const std::vector<fs::path>& files,
                      const std::vector<std::string>& inputs, const std::string& what) {
  check_creatable(folder.string(), what);
  std::error_code ec;
  for (const fs::path& f : files) {
    const fs::file_status st = fs::status(f, ec);
    if (fs::exists(st) && !fs::is_regular_file(st))
      throw InputError(shown(f) + " is in the way: reproduce writes a file there, and it is " +
                       (fs::is_directory(st) ? "a directory" : "not a regular file"));
    refuse_overwriting(f.string(), inputs, what);
  }
  const fs::path partial = folder / ".partial";
  if (fs::exists(fs::symlink_status(partial, ec)) && !fs::is_directory(fs::symlink_status(partial, ec)))
    throw InputError(shown(partial) + " is in the way: reproduce stages its runs in a folder of "
                     "that name; remove it");
}

namespace {

// What reproduce will write in DIR must be writable there before anything runs: each results
// file, the manifest, the report and its claims.json absent or a regular file, the staging
// folder .partial absent or a folder, and none of them one of the inputs.
void check_outputs(const fs::path& dir, const std::vector<Experiment>& exps, const fs::path& root) {
  std::vector<fs::path> files = {dir / "reproduction.json", dir / "REPORT.md", dir / "claims.json"};
  std::vector<std::string> inputs;
  for (const Experiment& e : exps) {
    files.push_back(dir / e.file);
    for (const Peer& peer : peers_of(root, e)) files.push_back(dir / peer_file(e, peer));
    inputs.insert(inputs.end(), e.inputs.begin(), e.inputs.end());
  }
  check_outputs_in(dir, files, inputs, "--out");
}

// Every config's points and data are checked before the first run, so bad data in the last
// config is found before the first results file exists (data files are read to be checked).
void check_data(const std::vector<Experiment>& exps) {
  const auto t0 = Clock::now();
  std::size_t files = 0;
  for (const Experiment& e : exps) {
    try {
      check_config(e.config, RunOptions{});
    } catch (const InputError& err) {
      throw InputError("config '" + e.config.path + "': " + err.what());
    }
    for (const Point& pt : e.config.points) files += !pt.data.file.empty();
  }
  if (files > 0)
    fmt::print("reproduce: checked every config and read its data files in {:.1f} s\n",
               seconds_since(t0));
}

class Reproduction {
 public:
  Reproduction(const Parsed& p, std::vector<Experiment> experiments, fs::path root,
               DeviceReport device, std::string scale, fs::path dir, const fs::path& configs)
      : p_(p), exps_(std::move(experiments)), root_(std::move(root)), device_(std::move(device)),
        scale_(std::move(scale)), dir_(std::move(dir)), partial_(dir_ / ".partial") {
    for (const Experiment& e : exps_) planned_ += planned_runs(e.config);
    reused_.assign(exps_.size(), false);
    load_cost_table(configs / "costs.json");
  }

  int run() {
    // .partial/ holds only what an interrupted reproduction left, never reused: start empty.
    fs::remove_all(partial_);
    fs::create_directories(partial_);
    manifest_ = {{"scale", scale_}, {"ladder", build_json()}, {"host", host_json()},
                 {"device", device_json(device_, current_sm_clock_mhz(device_), -1)},
                 {"started_at", utc_timestamp()}, {"configs", json::array()}, {"peers", json::array()}};
    fmt::print("reproduce: {} paper experiments at the {} scale on {} into {}\n", exps_.size(),
               scale_, device_.caps.present ? device_.name : "no GPU", printable_all(for_people(dir_)));
    fmt::print("reproduce: {}\n", printable_all(cost_line_));
    bool ok = true;
    for (std::size_t i = 0; i < exps_.size(); ++i) ok = experiment(i) && ok;
    if (p_.has("profile")) ok = profiles() && ok;
    if (!p_.has("no-peers"))
      for (const Experiment& e : exps_)
        for (const Peer& peer : peers_of(root_, e)) peer_run(peer, e);
    figures();
    manifest_["finished_at"] = utc_timestamp();
    manifest_["elapsed_s"] = seconds_since(start_);
    write_file_atomically((dir_ / "reproduction.json").string(), manifest_.dump(2) + "\n");
    if (!report()) return 1;
    fs::remove_all(partial_);
    print_tally();
    return ok ? 0 : 1;
  }

 private:
  std::string python() const { return p_.get("python", "python3"); }

  // What the reproduction ends with: its runs by outcome (every config's results file, reused
  // or run), the peers by state, the report's verdicts on the claims and where it all is.
  void print_tally() const {
    Tally runs;
    for (const Experiment& e : exps_) {
      std::string unread;
      runs.add_runs(read_found(dir_ / e.file, unread));
    }
    std::map<std::string, std::size_t> peers;
    for (const json& entry : manifest_["peers"]) ++peers[entry.value("state", "")];
    std::string peer_text;
    for (const auto& [state, n] : peers) peer_text += fmt::format("{}{} {}", peer_text.empty() ? "" : ", ", n, state);
    fmt::print("reproduce: done in {}\n", duration_text(seconds_since(start_)));
    fmt::print("  runs: {} ({} config{})\n", runs.text(), exps_.size(), exps_.size() == 1 ? "" : "s");
    fmt::print("  peers: {}\n", peer_text.empty() ? "none run" : printable_all(peer_text));
    fmt::print("  claims: {}\n", claims_text(dir_ / "claims.json"));
    fmt::print("  report: {} (beside it claims.json, reproduction.json, the results files and figures/)\n",
               printable_all(for_people(dir_ / "REPORT.md")));
  }

  // plots/report.py writes DIR/REPORT.md; its exit status alone does not prove it did.
  bool report() {
    const fs::path file = dir_ / "REPORT.md";
    const Stamp before = stamp(file);
    // Its own "report: PATH" line is left in the staging folder: the tally ends with the path.
    const int rc = run_script(root_, {python(), "-m", "plots.report", dir_.string()}, (partial_ / "report.log").string());
    const Stamp after = stamp(file);
    if (rc != 0 || !after.exists || after.size == 0 || after == before) {
      fmt::print(stderr, "ladder: error: python3 -m plots.report {}\n",
                 rc != 0 ? fmt::format("failed (exit status {})", rc)
                         : "exited 0 but wrote no " + file.string());
      return false;
    }
    return true;
  }

  ReuseKey reuse_key(const Experiment& e) const {
    return cli::reuse_key(e, scale_, device_.caps.present, device_.caps.present ? device_.name : "");
  }

  // A peer's results record the config as `ladder ingest` rewrites it for a peer.
  ReuseKey peer_key(const Experiment& e) const {
    ReuseKey key = reuse_key(e);
    key.config = peer_resolved(key.config);
    return key;
  }

  // "reproduction: 41% of runs, 2m10s, ~3m05s left": the whole reproduction's share done,
  // time and estimate (the config's place is the line's label).
  std::string tail(std::size_t config_done) const {
    const std::size_t done = done_runs_ + config_done;
    const double elapsed = seconds_since(start_);
    const double left = seconds_left(config_done, elapsed);
    return fmt::format("reproduction: {:.0f}% of runs, {}, {}", 100.0 * done / std::max<std::size_t>(planned_, 1),
                       duration_text(elapsed), left >= 0 ? "~" + duration_text(left) + " left" : "estimating");
  }

  // Runs differ in cost by orders of magnitude (a skyline point takes seconds, an EED one
  // milliseconds), so the estimate weighs each config by the time it took in the committed
  // cost table at this scale, scaled by this machine's pace so far; without a time for every
  // config, by the runs left. Reused configs cost nothing. -1: no estimate yet.
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

  // Each config's time at this scale in the cost table beside the configs (costs.json, which
  // scripts/cost_table.py writes from a reference reproduction), -1 where it has none, and the
  // line that says what the estimate rests on. A missing or damaged table only costs the
  // estimate; the results archive is never read for it.
  void load_cost_table(const fs::path& file) {
    std::vector<std::string> names;
    for (const Experiment& e : exps_) names.push_back(e.config.name);
    const std::string shown = for_people(file);
    std::error_code ec;
    std::string why;
    const bool found = fs::exists(file, ec);
    const CostTimes t = cost_table_times(found ? read_found(file, why) : json(), scale_, names);
    reference_s_ = t.seconds;
    const auto unknown = std::find(reference_s_.begin(), reference_s_.end(), -1.0);
    std::string problem;
    if (!found) problem = "no " + shown;
    else if (!why.empty()) problem = shown + ": " + why;
    else if (unknown != reference_s_.end())
      problem = shown + " has no " + scale_ + "-scale time for " + names[unknown - reference_s_.begin()];
    cost_line_ = problem.empty() ? fmt::format("the time left is weighed by {}'s {}-scale times ({})", shown,
                                               scale_, t.gpu.empty() ? "a GPU it does not name" : t.gpu)
                                 : "the time left is estimated from the runs so far (" + problem + ")";
  }

  // Why the results file in DIR cannot stand for this config ("" when it can).
  ReuseVerdict judge(const Experiment& e, const fs::path& target) const {
    std::error_code ec;
    if (!fs::exists(target, ec)) return {"none yet", false, 0};
    std::string why;
    const json r = read_found(target, why);
    if (!why.empty()) return {why, false, 0};
    return judge_results(r, reuse_key(e));
  }

  bool experiment(std::size_t i) {
    current_ = i;
    Experiment& e = exps_[i];
    const fs::path target = dir_ / e.file, partial = partial_ / e.file;
    json entry = {{"study", e.config.study->name()}, {"name", e.config.name},
                  {"path", e.config.path}, {"results", e.file}};
    const std::size_t runs = planned_runs(e.config);
    const ReuseVerdict found = judge(e, target);
    if (found.why_not.empty()) {
      entry["state"] = "reused";
      entry["elapsed_s"] = found.elapsed_s;
      fmt::print("reproduce: [{}/{}] {}: reusing {} (complete, same commit, device and scale)\n",
                 i + 1, exps_.size(), printable_all(e.config.name), printable_all(target.string()));
      done_runs_ += runs;
      reused_runs_ += runs;
      reused_[i] = true;
      manifest_["configs"].push_back(entry);
      return found.all_ok;
    }
    // The config's progress line (stderr) says the rest; a file found and not reused, why.
    if (found.why_not != "none yet")
      fmt::print("reproduce: [{}/{}] {}: {}\n", i + 1, exps_.size(), printable_all(e.config.name),
                 printable_all("not reusing " + target.filename().string() + ": " + found.why_not));
    std::fflush(stdout);
    RunOptions opt;
    opt.device = device_index_;
    opt.progress_label = fmt::format("[{}/{}] {}", i + 1, exps_.size(), e.config.name);
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

  // --profile: counters for one point of each GPU step, added to each config's results file.
  // With --gpus, the configs are profiled on all of them at once, one config per GPU at a time.
  bool profiles() {
    std::vector<ProfileJob> jobs;
    for (const Experiment& e : exps_)
      jobs.push_back({&e, dir_ / e.file, partial_ / ("profile-" + e.config.name + ".log"), self_, scale_,
                      device_index_});
    const std::vector<int> devices = gpus_.empty() ? std::vector<int>{device_index_} : gpus_;
    manifest_["profiles"] = json::array();
    bool ok = true;
    for (const json& entry : profile_experiments(jobs, devices)) {
      if (entry.value("state", "") == "failed") {
        ok = false;
        fmt::print(stderr, "ladder: profiling {}: {}\n", printable_all(entry.value("config", std::string())),
                   printable_all(entry.value("why", std::string())));
      }
      manifest_["profiles"].push_back(entry);
    }
    return ok;
  }

  void peer_run(const Peer& peer, const Experiment& e) {
    const std::string file = peer_file(e, peer);
    json entry = {{"study", peer.study}, {"peer", peer.name}, {"config", e.config.name},
                  {"results", nullptr}, {"why", ""}};
    const auto t0 = Clock::now();
    const fs::path probe = partial_ / (safe_name(peer.name) + ".ready.txt");
    const int ready = run_script(root_, {python(), "-m", peer.module, "--ready"}, probe.string());
    std::string unread;
    if (ready != 0) {
      entry["state"] = "not installed";
      entry["why"] = first_line(probe);
      // The peer's hint says how to make it ready: shown whole, broken between words.
      fmt::print("reproduce: peer {} on {}: not run:\n", printable_all(peer.name), printable_all(e.config.name));
      for (const std::string& line : wrap_words(printable_all(entry["why"].get<std::string>()), line_width(STDOUT_FILENO) - 4))
        fmt::print("    {}\n", line);
    } else if (judge_peer_results(read_found(dir_ / file, unread), peer_key(e)).why_not.empty()) {
      entry["state"] = "reused";
      entry["results"] = file;
      fmt::print("reproduce: peer {} on {}: reusing {}\n", printable_all(peer.name), printable_all(e.config.name),
                 printable_all(file));
    } else {
      fmt::print("reproduce: peer {} on {}\n", printable_all(peer.name), printable_all(e.config.name));
      const int rc = run_script(root_, {python(), "-m", peer.module, e.config.path, "--out",
                                        (partial_ / file).string(), "--ladder", self_, "--quiet",
                                        "--offline", "--scale", scale_});
      std::string unreadable;
      json results = read_found(partial_ / file, unreadable);
      const std::string incomplete = unreadable.empty() ? why_incomplete(results) : unreadable;
      if (incomplete.empty()) {
        // Its results name the config as the project does, at the reproduction's scale.
        results["config_path"] = e.config.path;
        results["scale"] = scale_;
        write_file_atomically((dir_ / file).string(), results.dump(2) + "\n");
        entry["results"] = file;
      }
      // A whole file whose script exited non-zero because some of its runs did not validate
      // ran: those runs are findings about the peer, kept and reported as they are.
      const int not_passed = incomplete.empty() ? runs_not_passed(results) : 0;
      const bool ran = incomplete.empty() && (rc == 0 || not_passed > 0);
      entry["state"] = ran ? "ran" : "failed";
      if (ran && rc != 0) entry["why"] = fmt::format("{} run(s) did not pass validation", not_passed);
      else if (rc != 0) entry["why"] = fmt::format("{} exited with status {}", peer.module, rc);
      else if (!incomplete.empty()) entry["why"] = "its results file: " + incomplete;
      entry["elapsed_s"] = seconds_since(t0);
    }
    manifest_["peers"].push_back(entry);
  }

  // Runs that validated wrong or stopped with an error (not those unsupported or skipped).
  static int runs_not_passed(const json& results) {
    int n = 0;
    for (const json& r : results.value("runs", json::array()))
      if (const std::string s = r.value("status", ""); s == "incorrect" || s == "error") ++n;
    return n;
  }

  static std::string first_line(const fs::path& f) {
    std::ifstream in(f);
    std::string line;
    std::getline(in, line);
    return line.empty() ? "not ready" : printable(line, InputError::kMaxMessage);
  }

  // Every figure the results ask for, drawn under .partial/ and then swapped in whole.
  void figures() {
    std::vector<std::string> argv = {python(), "-m", "plots.draw_all"};
    for (const json& c : manifest_["configs"]) argv.push_back((dir_ / c["results"].get<std::string>()).string());
    for (const json& c : manifest_["peers"])
      if (c["results"].is_string()) argv.push_back((dir_ / c["results"].get<std::string>()).string());
    const fs::path fresh = partial_ / "figures", target = dir_ / "figures";
    fs::remove_all(fresh);
    argv.insert(argv.end(), {"--out-dir", fresh.string()});
    fmt::print("reproduce: drawing the figures\n");
    const int rc = run_script(root_, argv, (partial_ / "draw.log").string());
    manifest_["figures"] = json::array();
    std::error_code ec;
    if (rc != 0 || !fs::is_directory(fresh, ec)) {
      fmt::print(stderr, "ladder: warning: python3 -m plots.draw_all {}: the report will have no figures\n",
                 rc != 0 ? fmt::format("failed (exit status {})", rc) : std::string("drew nothing"));
      return;
    }
    // Each profiled step's counters and rooflines, where the files hold any.
    std::vector<std::string> counters = {python(), "-m", "plots.profile_figure", "--if-any", "--out-dir", fresh.string()};
    for (const json& c : manifest_["configs"]) counters.push_back((dir_ / c["results"].get<std::string>()).string());
    if (const int rc = run_script(root_, counters, (partial_ / "profile-figures.log").string()); rc != 0)
      fmt::print(stderr, "ladder: warning: python3 -m plots.profile_figure failed (exit status {}): no profile figures\n", rc);
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
  std::vector<int> gpus_;  // --gpus: where the configs ran, and where they are profiled
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
  std::string cost_line_;  // what the estimate rests on, said at the start
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

constexpr const char* kAbout =
    "Runs every paper experiment (configs/<study>/*.json with a \"reproduce\" object) at the\n"
    "scale (default paper), then the installed peers, draws every figure and writes\n"
    "DIR/REPORT.md and DIR/claims.json (default DIR: results/reproduction/<gpu>-<scale>/ under\n"
    "the working directory). Rerun with the same DIR, it reuses every complete results file of\n"
    "the same commit, device, scale and config; a DIR holding another scale's or another\n"
    "commit's files is refused unless --force. The configs, plots and peers are the share\n"
    "folder's (LADDER_SHARE, else share/ladder beside the binary, else its source tree).\n";

}  // namespace

const Command reproduce_command{
    .name = "reproduce",
    .summary = "every paper experiment, the installed peers, every figure and REPORT.md",
    .options = {{"scale", "paper|quick", "the seeds' sizes, or sizes that finish in minutes (default paper)"},
                {"out", "DIR", "the reproduction's folder (default results/reproduction/<gpu>-<scale>/)"},
                {"force", "", "write into a DIR that holds another scale's or another commit's files"},
                {"configs", "DIR", "where the paper experiments are (default the share folder's configs/)"},
                shared_option("device"), shard_option("shard"), shard_option("gpus"), shard_option("costs"),
                {"no-peers", "", "run no peer (peers/<study>/*.py), even those ready here"},
                {"profile", "", "then Nsight Compute's counters for one point of each GPU step (needs ncu)"},
                {"python", "EXE", "the Python that draws the figures and runs the peers (default python3)"}},
    .about = kAbout,
    .body = reproduce,
};

int reproduce(const Parsed& p) {
  if (!p.positional.empty())
    throw InputError("reproduce takes no positional arguments, got '" + printable(p.positional[0]) + "'");
  const std::string scale = parse_scale(p.get("scale", "paper"), "--scale");
  const fs::path root = share_dir().path;
  const fs::path configs = p.has("configs") ? fs::absolute(p.get("configs")) : root / "configs";
  if (!fs::is_directory(configs))
    throw InputError("--configs '" + printable(configs.string(), 80) + "' is not a directory");
  std::vector<Experiment> exps = find_experiments(configs, root, scale);
  for (const char* other : {"shard", "device"})
    if (p.has("gpus") && p.has(other))
      throw InputError(std::string("--gpus cannot be given with --") + other + ": each GPU runs a shard");
  if (p.has("profile") && p.has("shard"))
    throw InputError("--profile is for the whole reproduction: a shard profiles nothing");
  if (p.has("profile") && find_ncu(p).empty())
    throw InputError("--profile needs Nsight Compute: no ncu on PATH or in the CUDA Toolkit");
  if (p.has("costs") && !p.has("shard") && !p.has("gpus"))
    throw InputError("--costs balances shards: give it with --shard or --gpus");
  // The figures, the report and the peers are Python: find out now, not after the runs (a
  // shard has none of them).
  if (!p.has("shard")) check_python(root, p.get("python", "python3"));
  const std::vector<int> gpus = p.has("gpus") ? gpus_option(p) : std::vector<int>{};
  const int device = p.has("device") ? integer_option(p, "device", 0) : gpus.empty() ? 0 : gpus[0];
  // --gpus leaves every GPU to its children until they are done: names only, no context.
  std::optional<DeviceReport> dev;
  const bool device_given = p.has("device") || !gpus.empty();  // a runtime that cannot start is an error
  if (gpus.empty()) dev = probe_device(device, device_given);
  const std::string gpu_name = dev ? (dev->caps.present ? dev->name : "") : device_names()[gpus[0]];
  if (p.has("out") && p.get("out").empty()) throw InputError("--out needs a folder name");
  const fs::path dir = fs::absolute(p.has("out") ? fs::path(p.get("out"))
                                                 : fs::path("results") / "reproduction" / (device_slug(gpu_name) + "-" + scale));
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw InputError("--out '" + printable(dir.string(), 80) + "' exists and is not a directory");
  check_one_reproduction(dir, scale, p.has("force"));
  check_outputs(dir, exps, root);
  costs_option(p);  // a bad --costs is refused before anything is created
  const ShardInfo shard = p.has("shard") ? parse_shard(p.get("shard")) : ShardInfo{};
  if (shard.active()) check_shard_outputs(dir, exps, shard.index, shard.count, false);
  for (std::size_t k = 0; k < gpus.size(); ++k) check_shard_outputs(dir, exps, k, gpus.size(), true);
  check_data(exps);
  if (shard.active()) return reproduce_shard(p, exps, shard.index, shard.count, scale, dir, device);
  if (!gpus.empty()) {
    if (!reproduce_on_gpus(p, exps, gpus, scale, dir)) return 1;
    dev = probe_device(device, device_given);  // the shards are done: the peers, figures and report run here
  }
  prepare_results_file((dir / "reproduction.json").string());
  Reproduction r(p, std::move(exps), root, std::move(*dev), scale, dir, configs);
  r.device_index_ = device;
  r.gpus_ = gpus;
  r.self_ = fs::canonical("/proc/self/exe").string();
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  return r.run();
}

}  // namespace ladder::cli
