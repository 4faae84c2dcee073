// `ladder reproduce` spread over processes: one shard of every paper experiment's plan
// (--shard K/N, a task of a Slurm array), and one shard per GPU of this machine (--gpus),
// merged into the files a plain `reproduce` reuses.
#include <fmt/format.h>

#include <algorithm>

#include "../../datagen/base/printable.hpp"
#include "../device_info.hpp"
#include "../results.hpp"
#include "../reuse.hpp"
#include "../runner.hpp"
#include "build_info.hpp"
#include "merge.hpp"
#include "reproduce.hpp"
#include "shards.hpp"

namespace ladder::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Every paper experiment's plan, split into `count` shards (harness/shard.hpp).
struct Split {
  std::vector<PlanToSplit> plans;
  std::vector<std::string> names;
  std::vector<ShardInfo> shards;  // for shard `index`, one per experiment
  std::vector<std::vector<double>> costs;
};

Split split_experiments(const std::vector<Experiment>& exps, std::size_t index, std::size_t count,
                        const MeasuredCosts& costs) {
  Split s;
  for (const Experiment& e : exps) {
    s.plans.push_back({&e.config, plan_runs(e.config, "")});
    s.names.push_back(e.config.name);
  }
  s.shards = split_plans(s.plans, index, count, costs);
  for (ShardInfo& info : s.shards) info.reproduction = s.names;
  s.costs = run_costs(s.plans, costs);
  return s;
}

// Whether every experiment's file in DIR is complete for this build, SCALE and GPU model, so
// that no shard has anything to run.
bool all_reusable(const std::vector<Experiment>& exps, const std::string& scale, const std::string& gpu_name,
                  const fs::path& dir) {
  for (const Experiment& e : exps) {
    std::string why;
    const json r = read_found(dir / e.file, why);
    if (!why.empty() || !judge_results(r, reuse_key(e, scale, true, gpu_name)).why_not.empty()) return false;
  }
  return true;
}

}  // namespace

void check_shard_outputs(const fs::path& dir, const std::vector<Experiment>& exps, std::size_t index,
                         std::size_t count, bool log) {
  const fs::path folder = shard_folder(dir.string(), index, count);
  std::vector<fs::path> files;
  std::vector<std::string> inputs;
  for (const Experiment& e : exps) {
    files.push_back(folder / e.file);
    inputs.insert(inputs.end(), e.inputs.begin(), e.inputs.end());
  }
  if (log) files.push_back(folder.string() + ".log");
  check_outputs_in(folder, files, inputs, fmt::format("reproduce: shard {}/{}", index, count));
}

// `reproduce --shard K/N`: shard K's runs of every paper experiment, one results file per
// config in DIR/shards/K-of-N/ (an empty one where it has no run), staged in its .partial/;
// no peers, figures or report: `ladder merge DIR DIR/shards` joins the shards, and a plain
// `reproduce` then adds the rest. A complete file of the same shard, commit and device is
// kept, so rerunning a shard that was stopped resumes it.
int reproduce_shard(const Parsed& p, const std::vector<Experiment>& exps, std::size_t index, std::size_t count,
                    const std::string& scale, const fs::path& dir, int device) {
  const Split split = split_experiments(exps, index, count, costs_option(p));
  const ShardInfo& first = split.shards.front();
  const fs::path folder = shard_folder(dir.string(), first.index, first.count), partial = folder / ".partial";
  const DeviceReport dev = probe_device(device, p.has("device"));
  fs::remove_all(partial);
  fs::create_directories(partial);
  bool ok = true;
  for (std::size_t i = 0; i < exps.size(); ++i) {
    const Experiment& e = exps[i];
    const ShardInfo& shard = split.shards[i];
    const fs::path target = folder / e.file, staged = partial / e.file;
    const std::size_t runs = std::count(shard.owners.begin(), shard.owners.end(), shard.index);
    std::string why;
    const json found = fs::exists(target) ? read_found(target, why) : json();
    const ReuseKey key{LADDER_GIT_COMMIT, scale, dev.caps.present, dev.caps.present ? dev.name : "",
                       e.config.resolved, runs};
    if (!found.is_null() && judge_results(found, key).why_not.empty() &&
        found.value("shard", json()).value("plan_hash", "") == shard.plan_hash) {
      fmt::print("reproduce: shard {}/{}: {}: reusing {}\n", shard.index, shard.count, printable_all(e.config.name),
                 printable_all(target.string()));
      continue;
    }
    fmt::print("reproduce: shard {}/{}: {} ({} of {} runs)\n", shard.index, shard.count, printable_all(e.config.name), runs,
               shard.owners.size());
    RunOptions opt;
    opt.device = device;
    opt.shard = shard;
    opt.progress_label = e.config.name;
    opt.on_run = [&staged](const RunReport& so_far) { write_results(staged.string(), so_far); };
    const RunReport rep = run_config(e.config, opt);
    write_results(staged.string(), rep);
    fs::rename(staged, target);
    ok = rep.all_ok() && ok;
  }
  fs::remove_all(partial);
  fmt::print("reproduce: shard {}/{} done in {}; when every shard is: ladder merge {} {}\n", first.index,
             first.count, folder.string(), dir.string(), (dir / "shards").string());
  return ok ? 0 : 1;
}

// `reproduce --gpus`: one `reproduce --shard k/N --device g` per GPU, then their merge into
// DIR's per-config files; false when a shard's runs are missing (named).
bool reproduce_on_gpus(const Parsed& p, const std::vector<Experiment>& exps, const std::vector<int>& gpus,
                       const std::string& scale, const fs::path& dir) {
  if (all_reusable(exps, scale, device_names()[std::size_t(gpus[0])], dir)) {
    fmt::print("reproduce: every config's results in {} are complete for this commit, GPU model and scale: "
               "no shard runs\n", dir.string());
    return true;
  }
  const std::size_t n = gpus.size();
  const Split split = split_experiments(exps, 0, n, costs_option(p));
  std::vector<ShardChild> children(n);
  for (std::size_t k = 0; k < n; ++k) {
    children[k].argv = {fs::canonical("/proc/self/exe").string(), "reproduce", "--shard", fmt::format("{}/{}", k, n),
                        "--device", std::to_string(gpus[k]), "--out", dir.string(), "--scale", scale};
    const std::vector<std::string> more = pass_on(p, {"gpus", "out", "scale", "no-peers", "python", "profile"});
    children[k].argv.insert(children[k].argv.end(), more.begin(), more.end());
    children[k].watch = shard_folder(dir.string(), k, n);
    children[k].log = children[k].watch + ".log";
    for (std::size_t c = 0; c < split.plans.size(); ++c)
      for (std::size_t i = 0; i < split.plans[c].runs.size(); ++i)
        if (split.shards[c].owners[i] == k) children[k].cost += split.costs[c][i], ++children[k].runs;
  }
  fs::create_directories(dir / "shards");
  const std::vector<int> status = run_shard_children(children, "reproduce", split.costs, split.names);
  for (std::size_t k = 0; k < n; ++k)
    if (status[k] != 0)
      fmt::print(stderr, "ladder: shard {}/{} on GPU {} exited with status {} (log {})\n", k, n, gpus[k], status[k],
                 children[k].log);
  const MergeOutcome m = merge_shards(dir.string(), {(dir / "shards").string()});
  for (const std::string& line : m.missing) fmt::print(stderr, "ladder: {}\n", printable_all(line));
  fmt::print("reproduce: merged {} shards into {} files in {}\n", n, m.written.size(), dir.string());
  return m.complete;
}

}  // namespace ladder::cli
