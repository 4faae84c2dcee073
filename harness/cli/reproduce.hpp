// What `ladder reproduce` (reproduce.cpp) shares with its shards (reproduce_shards.cpp): the
// paper experiments it found and how it reads the files it finds.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../config.hpp"
#include "../reuse.hpp"
#include "args.hpp"

namespace ladder::cli {

struct Experiment {
  Config config;
  std::string file;                 // results file name inside DIR
  std::vector<std::string> inputs;  // the files it reads, config included
};

// How many runs the config plans (every point's variants).
std::size_t planned_runs(const Config& config);

// What the experiment's results file must match to be reused: this build, SCALE, the device
// (present or not, and its name) and the config as it runs.
ReuseKey reuse_key(const Experiment& e, const std::string& scale, bool device_present, const std::string& device_name);

// A JSON file found in DIR, read without trusting it: null when it cannot be read as JSON
// (`why` says why).
nlohmann::json read_found(const std::filesystem::path& file, std::string& why);

// What reproduce writes in `folder`, refused (InputError) before anything is created when it
// cannot be written: the folder itself (check_creatable, `what` begins the message), each of
// `files` absent or a regular file and none of the `inputs`, and its staging folder .partial
// absent or a folder.
void check_outputs_in(const std::filesystem::path& folder, const std::vector<std::filesystem::path>& files,
                      const std::vector<std::string>& inputs, const std::string& what);

// check_outputs_in for shard K of N under DIR (DIR/shards/K-of-N/ and its config files) and,
// with `log`, the log file --gpus writes beside that folder.
void check_shard_outputs(const std::filesystem::path& dir, const std::vector<Experiment>& exps, std::size_t index,
                         std::size_t count, bool log);

// `reproduce --shard K/N`: shard K's runs of every paper experiment into DIR/shards/K-of-N/,
// balanced by `p`'s --costs; exit status 0 or 1.
int reproduce_shard(const Parsed& p, const std::vector<Experiment>& exps, std::size_t index, std::size_t count,
                    const std::string& scale, const std::filesystem::path& dir, int device);

// `reproduce --gpus`: a `reproduce --shard k/N` per GPU, merged into DIR's per-config files;
// false when runs are missing (named on stderr). Nothing runs when every config's file in DIR
// is already complete for this build, scale and GPU model (from any earlier reproduction,
// sharded or not): `reproduce --gpus all --profile` then only profiles on every GPU.
bool reproduce_on_gpus(const Parsed& p, const std::vector<Experiment>& exps, const std::vector<int>& gpus,
                       const std::string& scale, const std::filesystem::path& dir);

// The runs `reproduce --profile` profiles in a results file: for each GPU step that passed, its
// run at the point where most steps passed, among the points the config's `profile` choice
// ({"sweep", "point"}: null for all) allows; a step missing there at its last allowed run, else
// at its last one. Run indices, ascending.
std::vector<std::size_t> profile_choice(const nlohmann::json& results, const nlohmann::json& choice);

// Of `runs` (run indices), those whose profile does not yet hold metric set `set` ("why",
// "sass"), ascending: what a resumed `reproduce --profile` still asks ncu for.
std::vector<std::size_t> profile_lacking(const nlohmann::json& results, const std::vector<std::size_t>& runs,
                                         const std::string& set);

struct ProfileJob {
  const Experiment* experiment = nullptr;
  std::filesystem::path target;  // its results file in DIR
  std::filesystem::path log;     // `ladder profile`'s output
  std::string self, scale;       // this binary; the reproduction's scale
  int device = 0;
};

// `ladder profile --into` the experiment's results file, `why` then `sass`, for the runs
// profile_choice picks that lack each set (profile_lacking); the manifest's entry for it (state
// profiled, reused, none or failed, why, runs, elapsed_s).
nlohmann::json profile_experiment(const ProfileJob& job);

// Every job, on DEVICES at once (one job per device at a time, taken in order as devices free
// up; each job's `device` is set to the one it ran on): the entries, in the jobs' order.
std::vector<nlohmann::json> profile_experiments(std::vector<ProfileJob> jobs, const std::vector<int>& devices);

}  // namespace ladder::cli
