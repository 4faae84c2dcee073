// `ladder ab BIN_A BIN_B CONFIG --processes K`: two ladder binaries compared process against
// process. Both are copied to paths of equal length (DIR/a/ladder, DIR/b/ladder) and run with
// the same environment, working directory, options and cores, 2K processes in K blocks each AB
// or BA by a seeded coin, so that drift in the machine falls on both sides alike. Each process
// writes DIR/parts/<side>-<i>.json; then DIR/A.json and DIR/B.json join each side's processes
// (K-process files, harness/processes.hpp), DIR/ab.json records the order, seed, binaries and
// each process's start and end, and the comparison of B against A is printed.
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <random>

#include "../../datagen/base/atomic_file.hpp"
#include "../../datagen/base/printable.hpp"
#include "../../datagen/numbers.hpp"
#include "../results.hpp"
#include "../sha256.hpp"
#include "child.hpp"
#include "commands.hpp"
#include "out_path.hpp"
#include "process_child.hpp"
#include "shards.hpp"

namespace ladder::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

const char* const kSides[] = {"A", "B"};

// What `run --help` of a binary declares, read from its help text: options a binary of
// another commit may lack.
struct RunOptionsOf {
  bool process_samples = false, plant = false, rounds = false;
};

RunOptionsOf declared_by(const std::string& binary) {
  ChildOptions o;
  o.capture = true;
  o.quiet = true;
  const ChildResult r = run_child({binary, "run", "--help"}, o);
  if (r.status != 0 || r.out.find("usage: ladder run") == std::string::npos)
    throw InputError("'" + printable(binary, 120) + "' is not a ladder binary: `run --help` did not say so");
  return {r.out.find("--process-samples") != std::string::npos, r.out.find("--plant") != std::string::npos,
          r.out.find("--rounds") != std::string::npos};
}

void check_binary(const std::string& path, const char* which) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec) || access(path.c_str(), X_OK) != 0)
    throw InputError(fmt::format("{} '{}' is not an executable file", which, printable(path, 120)));
}

std::uint64_t seed_option(const Parsed& p) {
  if (!p.has("seed")) {
    // From the clock and the system's entropy: recorded, so that the order can be replayed.
    std::random_device rd;
    return (std::uint64_t(rd()) << 32 | rd()) ^ std::uint64_t(std::time(nullptr));
  }
  const std::string text = p.get("seed");
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos ||
      (text.size() == 20 && text > "18446744073709551615"))
    throw InputError("--seed '" + printable(text, 40) + "' is not a whole number from 0 to 18446744073709551615");
  return std::stoull(text);
}

// --plant RE:FACTOR as far as ab can tell: a pattern and a factor above 1 (the runner checks
// the rest).
void check_plant(const Parsed& p) {
  if (!p.has("plant")) return;
  const std::string text = p.get("plant");
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw InputError("--plant '" + printable(text, 60) + "' is not RE:FACTOR");
  const double f = parse_double(text.substr(colon + 1), "--plant FACTOR");
  if (!(f > 1)) throw InputError("--plant '" + printable(text, 60) + "': FACTOR must be above 1 (a slowdown)");
}

// DIR: new, or an empty folder.
std::string out_dir(const Parsed& p, const Config& config) {
  std::string dir = p.get("out");
  if (dir.empty()) {
    char stamp[32];
    const std::time_t t = std::time(nullptr);
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::gmtime(&t));
    dir = "results/ab-" + safe_name(config.name) + "-" + stamp;
  }
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir, ec)) && !(fs::is_directory(dir, ec) && fs::is_empty(dir, ec)))
    throw InputError("--out '" + printable(dir, 120) + "' exists and is not an empty folder: ab writes a new one");
  check_creatable(dir, "--out '" + printable(dir, 120) + "'");
  return dir;
}

// One of the two programs compared.
struct Side {
  std::string name, original, copy, sha256;
  std::vector<std::string> extra;  // options for this side alone (--plant on B)
};

// The interleaving: K blocks, each AB or BA by the seeded coin (the low bit of mt19937_64,
// whose output the standard fixes, so a seed gives the same order everywhere).
std::vector<std::pair<int, std::size_t>> interleave(std::size_t k, std::uint64_t seed) {
  std::mt19937_64 coin(seed);
  std::vector<std::pair<int, std::size_t>> order;
  for (std::size_t i = 0; i < k; ++i) {
    const int first = int(coin() & 1);
    order.push_back({first, i});
    order.push_back({1 - first, i});
  }
  return order;
}

std::string order_name(const std::pair<int, std::size_t>& o) { return kSides[o.first] + std::to_string(o.second); }

class Ab {
 public:
  Ab(const Parsed& p, const Config& config, std::size_t k, std::uint64_t seed, std::string dir,
     std::vector<int> cpus)
      : p_(p), config_(config), k_(k), seed_(seed), dir_(std::move(dir)), cpus_(std::move(cpus)) {}

  int run(const std::string& bin_a, const std::string& bin_b) {
    const RunOptionsOf a = declared_by(bin_a), b = declared_by(bin_b);
    if (p_.has("plant") && !b.plant)
      throw InputError("--plant: BIN_B's `run` has no --plant option (a test build's)");
    // The same options on both sides: more samples a process only where both take them.
    if (a.process_samples && b.process_samples && !p_.has("repetitions")) common_.push_back("--process-samples");
    if (p_.has("rounds") && !(a.rounds && b.rounds))
      throw InputError("--rounds: BIN_A's or BIN_B's `run` has no --rounds option (an older build)");
    if (a.rounds && b.rounds && !p_.has("rounds"))
      common_.insert(common_.end(), {"--rounds", std::to_string(kProcessRounds)});
    const std::vector<std::string> given = pass_on(p_, {"processes", "seed", "cpus", "out", "plant", "quiet"});
    common_.insert(common_.end(), given.begin(), given.end());
    StopSignals stop;  // from here on a signal stops at the next whole file
    prepare(bin_a, bin_b);
    const int status = measure(stop);
    if (stop.stopped() || status != 0) {
      write_manifest(false);
      fmt::print(stderr, "\nladder: {}; A.json and B.json are written only once every process has run: the "
                         "processes' whole files and ab.json stay in {}\n",
                 stop.stopped() ? "interrupted" : stopped_, printable_all(dir_));
      stop.finish();
      return status;
    }
    stop.finish();
    for (int s = 0; s < 2; ++s) join(s);
    write_manifest(true);
    // The copies served the equal-length paths; ab.json keeps their SHA-256, and two copies of
    // a build are 100+ MB a comparison.
    std::error_code ec;
    for (const char* copy : {"a", "b"}) fs::remove_all(fs::path(dir_) / copy, ec);
    fmt::print("\nA: {}\nB: {}\nab: {} ({} processes a side, seed {})\n", printable_all(sides_[0].original),
               printable_all(sides_[1].original), printable_all((fs::path(dir_) / "ab.json").string()), k_, seed_);
    Parsed c;
    c.positional = {(fs::path(dir_) / "A.json").string(), (fs::path(dir_) / "B.json").string()};
    const int compared = compare(c);
    return any_run_failed_ ? 1 : compared;
  }

 private:
  void prepare(const std::string& bin_a, const std::string& bin_b) {
    fs::create_directories(fs::path(dir_) / "parts");
    const std::string bins[] = {bin_a, bin_b};
    for (int s = 0; s < 2; ++s) {
      Side& side = sides_[s];
      side.name = kSides[s];
      side.original = fs::absolute(bins[s]).lexically_normal().string();
      const fs::path copy = fs::path(dir_) / (s == 0 ? "a" : "b") / "ladder";
      fs::create_directories(copy.parent_path());
      fs::copy_file(bins[s], copy);
      side.copy = fs::absolute(copy).string();
      side.sha256 = sha256_file(side.copy);
    }
    if (p_.has("plant")) sides_[1].extra = {"--plant", p_.get("plant")};
  }

  std::vector<std::string> argv(const Side& side, const std::string& part) const {
    std::vector<std::string> a = {side.copy, "run", p_.positional[2], "--out", part, "--quiet"};
    a.insert(a.end(), common_.begin(), common_.end());
    a.insert(a.end(), side.extra.begin(), side.extra.end());
    return a;
  }

  // One process of side `s` into `name`.json; false (and why in stopped_) when it failed.
  bool one(int s, const std::string& name, json& entry, StopSignals& stop) {
    if (stop.stopped()) return false;
    const fs::path part = fs::path(dir_) / "parts" / (name + ".json");
    const ProcessRecord r = run_process_child(argv(sides_[s], part.string()),
                                              (fs::path(dir_) / "parts" / (name + ".log")).string(), cpus_);
    entry = r.recorded;
    entry["side"] = kSides[s];
    entry["file"] = "parts/" + name + ".json";
    if (stop.stopped()) return false;
    std::error_code ec;
    if ((r.status != 0 && r.status != 1) || !fs::exists(part, ec)) {
      stopped_ = fmt::format("process {} of side {} {} (log parts/{}.log)", name, kSides[s],
                             r.signal ? fmt::format("ended by signal {}", r.signal)
                                      : fmt::format("exited with status {}", r.status),
                             name);
      status_ = r.status > 1 ? r.status : 1;
      return false;
    }
    any_run_failed_ |= r.status == 1;
    return true;
  }

  // One process of each side first, not kept: their times project the whole.
  bool warm_up(StopSignals& stop) {
    double seconds = 0;
    for (int s = 0; s < 2; ++s) {
      const std::string name = std::string("warmup-") + kSides[s];
      json entry;
      if (!one(s, name, entry, stop)) return false;
      seconds += entry["seconds"].get<double>();
      warmup_.push_back(entry);
      std::error_code ec;
      fs::remove(fs::path(dir_) / "parts" / (name + ".json"), ec);
      fs::remove(fs::path(dir_) / "parts" / (name + ".log"), ec);
    }
    fmt::print(stderr, "ab: warm-up: one process of each side took {}; {} more of each are projected to take ~{}\n",
               duration_text(seconds), k_, duration_text(seconds * double(k_)));
    return true;
  }

  int measure(StopSignals& stop) {
    started_at_ = utc_timestamp();
    if (!warm_up(stop)) return stop.stopped() ? 0 : status_;
    const auto order = interleave(k_, seed_);
    const auto start = Clock::now();
    for (std::size_t pos = 0; pos < order.size(); ++pos) {
      const auto [s, i] = order[pos];
      const std::string name = std::string(kSides[s]) + "-" + std::to_string(i);
      json entry;
      const bool ok = one(s, name, entry, stop);
      if (entry.is_null()) return 0;  // stopped before it started
      entry.update({{"name", order_name(order[pos])}, {"index", i}, {"order_position", pos}});
      list_.push_back(entry);
      const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      if (!p_.has("quiet"))
        fmt::print(stderr, "ab: process {} of {} ({}) done in {} (exit {}), elapsed {}, {}\n", pos + 1,
                   order.size(), order_name(order[pos]), duration_text(entry["seconds"].get<double>()),
                   entry["exit_status"].dump(), duration_text(elapsed),
                   pos + 1 == order.size() ? "done"
                                           : "~" + duration_text(elapsed / double(pos + 1) *
                                                                 double(order.size() - pos - 1)) + " left");
      if (!ok) return stop.stopped() ? 0 : status_;
    }
    finished_at_ = utc_timestamp();
    return 0;
  }

  // Side s's processes (in their index order) joined into DIR/A.json or DIR/B.json.
  void join(int s) {
    std::vector<ProcessPart> parts(k_);
    for (const json& e : list_)
      if (e["side"] == kSides[s])
        parts[e["index"].get<std::size_t>()] = read_part((fs::path(dir_) / e["file"].get<std::string>()).string(), e);
    ProcessesInfo info;
    info.mode = "ab";
    info.side = kSides[s];
    info.seed = seed_;
    info.order = order_names();
    info.binary = {{"path", s == 0 ? "a/ladder" : "b/ladder"}, {"sha256", sides_[s].sha256}};
    const json merged = merge_processes(parts, info);
    write_file_atomically((fs::path(dir_) / (std::string(kSides[s]) + ".json")).string(), merged.dump(2) + "\n");
  }

  json order_names() const {
    json names = json::array();
    for (const auto& o : interleave(k_, seed_)) names.push_back(order_name(o));
    return names;
  }

  void write_manifest(bool complete) const {
    json binaries = json::object();
    for (const Side& s : sides_)
      binaries[s.name] = {{"path", s.original}, {"copy", s.name == "A" ? "a/ladder" : "b/ladder"},
                          {"sha256", s.sha256}};
    json m = {{"config", p_.positional[2]},
              {"config_name", config_.name},
              {"processes", k_},
              {"seed", seed_},
              {"order", order_names()},
              {"options", common_},
              {"cpus", cpus_},
              {"working_directory", fs::current_path().string()},
              {"binaries", binaries},
              {"warmup", warmup_},
              {"list", list_},
              {"started_at", started_at_},
              {"finished_at", finished_at_},
              {"complete", complete}};
    if (complete) m["files"] = {{"A", "A.json"}, {"B", "B.json"}};
    else m["stopped"] = stopped_.empty() ? "interrupted" : stopped_;
    write_file_atomically((fs::path(dir_) / "ab.json").string(), m.dump(2) + "\n");
  }

  const Parsed& p_;
  const Config& config_;
  std::size_t k_;
  std::uint64_t seed_;
  std::string dir_;
  std::vector<int> cpus_;
  Side sides_[2];
  std::vector<std::string> common_;
  json warmup_ = json::array(), list_ = json::array();
  std::string started_at_, finished_at_, stopped_;
  int status_ = 0;
  bool any_run_failed_ = false;
};

int ab(const Parsed& p) {
  if (p.positional.size() != 3) throw InputError("ab needs BIN_A, BIN_B and CONFIG");
  const std::size_t k = processes_count(p, 2);
  const std::uint64_t seed = seed_option(p);
  check_binary(p.positional[0], "BIN_A");
  check_binary(p.positional[1], "BIN_B");
  check_plant(p);
  const std::vector<int> cpus = cpus_option(p);
  Parsed run = p;  // CONFIG as `run` takes it, with the options both sides get
  run.positional = {p.positional[2]};
  const Config config = config_from_options(run);
  check_config(config, run_options(run));
  const std::string dir = out_dir(p, config);
  return Ab(p, config, k, seed, dir, cpus).run(p.positional[0], p.positional[1]);
}

}  // namespace

const Command ab_command{
    .name = "ab",
    .summary = "compare two ladder binaries on a config: K processes a side, interleaved",
    .positionals = {"BIN_A", "BIN_B", "CONFIG"},
    .options = {{"processes", "K", "processes a side (2 to 1000; 10 makes a sound comparison)", true},
                {"seed", "S", "the seed of the AB/BA order (default: from the clock; recorded)"},
                processes_option("cpus"),
                {"out", "DIR", "a new (or empty) folder for everything (default results/ab-<name>-<UTC time>)"},
                shared_option("filter"), shared_option("scale"), shared_option("validate"),
                shared_option("repetitions"), shared_option("warmup"), shared_option("timing"),
                shared_option("device"), shared_option("quiet"),
                {"rounds", "R", "each point's GPU samples in R rounds on both sides (default 5 where both builds know rounds)"},
                {"plant", "RE:FACTOR", "tests: slow B's steps matching RE by FACTOR inside their timed window"}},
    .about = "Runs CONFIG with two ladder binaries, process against process: both are copied to DIR/a/ladder\n"
             "and DIR/b/ladder and run with the same environment, working directory, options and cores.\n"
             "One process of each side runs first (not kept) to project the time; then 2K processes in K\n"
             "blocks, each AB or BA by a coin seeded with S, each into DIR/parts/<side>-<i>.json. DIR/A.json\n"
             "and DIR/B.json join each side's processes (written only once every process has run; a\n"
             "stopped ab leaves its parts and ab.json, all whole), DIR/ab.json records the order, seed,\n"
             "the binaries' paths and SHA-256 and each process's start and end (the copies are removed\n"
             "once A.json and B.json are written), and `ladder compare`\n"
             "of B against A is printed. Exit status: 0 done, 1 a run failed or a process did, 2 bad\n"
             "input (nothing created).\n",
    .body = ab,
};

}  // namespace ladder::cli
