#include "merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "../../datagen/base/atomic_file.hpp"
#include "../../datagen/base/printable.hpp"
#include "../results.hpp"
#include "../shard.hpp"
#include "args.hpp"
#include "commands.hpp"
#include "out_path.hpp"
#include "../json_at.hpp"

namespace ladder::cli {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string shown(const std::string& path) { return "'" + printable(path, 120) + "'"; }

// What merging needs of a shard, checked: a file that is not a shard's results is refused.
ShardFile read_shard(const std::string& path) {
  ShardFile f = check_shard(read_results(path), shown(path));
  f.path = path;
  return f;
}

// What merge reads: every .json file under a folder given (a reproduction's shard folders, in
// order), and each file given; the folders, whose contents a later merge reads again.
// Folders starting with '.' hold runs in progress and are skipped, as are manifests.
struct Inputs {
  std::vector<std::string> files, folders;
};

Inputs expand(const std::vector<std::string>& inputs) {
  Inputs in;
  for (const std::string& given : inputs) {
    std::error_code ec;
    if (!fs::is_directory(given, ec)) {
      in.files.push_back(given);
      continue;
    }
    in.folders.push_back(given);
    std::vector<std::string> found;
    for (fs::recursive_directory_iterator it(given, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (it->is_directory(ec) && name[0] == '.') it.disable_recursion_pending();
      else if (it->path().extension() == ".json" && name != "reproduction.json" && it->is_regular_file(ec))
        found.push_back(it->path().string());
    }
    if (ec) throw InputError("cannot list " + shown(given) + ": " + ec.message());
    if (found.empty()) throw InputError(shown(given) + " holds no shard's results");
    std::sort(found.begin(), found.end());
    in.files.insert(in.files.end(), found.begin(), found.end());
  }
  return in;
}


// Refuses shards `a` and `b` whose `what` differ (x and y), naming both.
void differ(const ShardFile& a, const ShardFile& b, const std::string& what, const json& x, const json& y) {
  if (x != y)
    throw InputError(fmt::format("{} and {} are shards of {} ({} and {})", shown(a.path), shown(b.path), what,
                                 printable(x.dump(), 60), printable(y.dump(), 60)));
}

// Shards that do not belong to one run on one GPU model are refused, naming two that differ:
// each is held to the first.
void check_together(const ShardFile& a, const ShardFile& b) {
  differ(a, b, "different commits", json_at(a.results, {"ladder", "git_commit"}), json_at(b.results, {"ladder", "git_commit"}));
  differ(a, b, "different scales", json_at(a.results, {"scale"}), json_at(b.results, {"scale"}));
  differ(a, b, "different splits", json(a.count), json(b.count));
  differ(a, b, "different reproductions", a.reproduction, b.reproduction);
  if (json_at(a.results, {"device", "name"}) != json_at(b.results, {"device", "name"}))
    throw InputError(fmt::format(
        "{} ran on {} and {} on {}: one merged file would record them as one device; merge each "
        "GPU model's shards apart", shown(a.path), printable(json_at(a.results, {"device", "name"}).dump(), 60),
        shown(b.path), printable(json_at(b.results, {"device", "name"}).dump(), 60)));
}

// The shards of one config are of one plan and its split: the same config, plan, run count and
// owners, each index once and each run in one shard only (the run table merge fills is the
// plan's, so no shard may name a run beyond it or one another shard holds).
void check_one_plan(const std::vector<ShardFile*>& shards) {
  const ShardFile& first = *shards.front();
  std::map<std::size_t, const ShardFile*> by_index, by_run;
  for (const ShardFile* s : shards) {
    differ(first, *s, "different configs", json_at(first.results, {"config"}), json_at(s->results, {"config"}));
    differ(first, *s, "different plans", json(first.plan_hash), json(s->plan_hash));
    if (const auto [it, fresh] = by_index.emplace(s->index, s); !fresh)
      throw InputError(fmt::format("shard {}/{} of {} is given twice: {} and {}", s->index, s->count,
                                   printable(s->config, 80), shown(it->second->path), shown(s->path)));
    for (const json& run : s->results["runs"])
      if (const auto [it, fresh] = by_run.emplace(run["run_index"].get<std::size_t>(), s); !fresh)
        throw InputError(fmt::format("run {} of {} is in both {} (shard {}) and {} (shard {}): shards of one plan "
                                     "never share a run", it->first, printable(s->config, 80),
                                     shown(it->second->path), it->second->index, shown(s->path), s->index));
    differ(first, *s, "plans of different sizes (runs_total)", json(first.runs_total), json(s->runs_total));
    const auto [mine, theirs] = std::mismatch(first.owners.begin(), first.owners.end(), s->owners.begin());
    if (mine != first.owners.end())
      throw InputError(fmt::format("{} and {} split {} differently: run {} is shard {}'s in one and shard {}'s "
                                   "in the other (shard.owners)", shown(first.path), shown(s->path),
                                   printable(s->config, 80), mine - first.owners.begin(), *mine, *theirs));
  }
}

// A reproduction's shards: each of a config the reproduction names, and no two configs whose
// files in OUT would be one (safe names "r a" and "r_a"), nor one that would be its manifest.
void check_reproduction_names(const std::map<std::string, std::vector<ShardFile*>>& by_config,
                              const json& names, const std::string& out) {
  std::set<std::string> named;
  std::map<std::string, std::string> file_of = {{"reproduction.json", "the reproduction's manifest"}};
  for (const json& n : names) {
    const std::string name = n.get<std::string>(), file = safe_name(name) + ".json";
    named.insert(name);
    if (const auto [it, fresh] = file_of.emplace(file, "config '" + printable(name, 80) + "'"); !fresh)
      throw InputError(fmt::format("config '{}' and {} would both be merged into {}: rename one of them",
                                   printable(name, 80), it->second, shown((fs::path(out) / file).string())));
  }
  for (const auto& [config, shards] : by_config)
    if (!named.count(config))
      throw InputError(fmt::format("{} is a shard of config '{}', which its reproduction does not name",
                                   shown(shards.front()->path), printable(config, 80)));
}

// An OUT inside a folder merge reads would be read back as a shard by the next merge of that
// folder (and refused as not one): it is refused now instead.
void refuse_inside(const std::string& out, const std::vector<std::string>& folders) {
  std::error_code ec;
  const fs::path target = fs::weakly_canonical(fs::absolute(out, ec), ec);
  for (const std::string& folder : folders) {
    const fs::path dir = fs::weakly_canonical(fs::absolute(folder, ec), ec);
    const auto [d, t] = std::mismatch(dir.begin(), dir.end(), target.begin(), target.end());
    if (d == dir.end() || (d->empty() && std::next(d) == dir.end()))  // "dir/" as well
      throw InputError(fmt::format("merge's OUT {} is inside the folder of shards {}: the next merge of that "
                                   "folder would read it as a shard; write it elsewhere", shown(out),
                                   shown(folder)));
  }
}

std::string runs_text(const std::vector<std::size_t>& runs) {
  std::string out;
  for (std::size_t r : runs) out += (out.empty() ? "" : ", ") + std::to_string(r);
  return out.empty() ? "none" : out;
}

// The shards of one config (through check_one_plan) joined: runs in run_index order, each with
// its shard and device; the shards' hosts, devices, processes and times under `shards`, their
// warnings (each naming its shard) under `warnings`. The file is
// complete when every run of the plan is in, whatever a shard's file said of itself (a shard
// stopped after its last run is not marked complete, yet lacks nothing); each shard that lacks
// runs goes to `missing`, and a shard that owns no run lacks nothing.
json join(const std::vector<ShardFile*>& shards, std::vector<std::string>& missing) {
  const ShardFile& first = *shards.front();
  std::vector<const json*> runs(first.runs_total, nullptr);
  std::set<std::size_t> present;
  std::string started, finished;
  for (ShardFile* s : shards) {
    present.insert(s->index);
    json& r = s->results;
    const json dev = {{"name", json_at(r, {"device", "name"})}, {"pci_bus_id", json_at(r, {"device", "pci_bus_id"})},
                      {"uuid", json_at(r, {"device", "uuid"})}, {"hostname", json_at(r, {"host", "hostname"})}};
    for (json& run : r["runs"]) {
      run["shard"] = s->index;
      run["device"] = dev;
      runs.at(run["run_index"].get<std::size_t>()) = &run;  // below runs_total: check_shard saw to it
    }
    const json &a = json_at(r, {"started_at"}), &b = json_at(r, {"finished_at"});
    if (a.is_string() && (started.empty() || a.get<std::string>() < started)) started = a;
    if (b.is_string() && b.get<std::string>() > finished) finished = b;
  }
  std::map<std::size_t, std::vector<std::size_t>> lost;  // shard -> its runs not here
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (!runs[i]) lost[first.owners[i]].push_back(i);
  for (const auto& [k, which] : lost)
    missing.push_back(fmt::format("{}: shard {}/{} {}: runs {}", first.config, k, first.count,
                                  present.count(k) ? "incomplete" : "missing", runs_text(which)));
  json list = json::array(), warnings = json::array();
  for (const ShardFile* s : shards) {
    const json& r = s->results;
    json entry = {{"index", s->index}, {"file", fs::path(s->path).filename().string()},
                  {"host", json_at(r, {"host"})}, {"device", json_at(r, {"device"})}, {"complete", !lost.count(s->index)},
                  {"runs", r["runs"].size()}, {"started_at", json_at(r, {"started_at"})},
                  {"finished_at", json_at(r, {"finished_at"})}};
    if (!json_at(r, {"scheduler"}).is_null()) entry["scheduler"] = json_at(r, {"scheduler"});
    if (!json_at(r, {"process"}).is_null()) entry["process"] = json_at(r, {"process"});  // where its process ran
    list.push_back(entry);
    if (json_at(r, {"warnings"}).is_array())
      for (const json& w : r["warnings"])
        if (w.is_string()) warnings.push_back(fmt::format("shard {}: {}", s->index, w.get<std::string>()));
  }
  json out = first.results;
  out.erase("shard");
  out.erase("scheduler");
  out.erase("process");
  out["warnings"] = warnings;
  out["runs"] = json::array();
  json summary = json::object();
  for (const json* run : runs)
    if (run) {
      out["runs"].push_back(*run);
      const std::string st = (*run)["status"];  // a status ladder writes: check_shard saw to it
      summary[st] = summary.value(st, 0) + 1;
    }
  const bool complete = lost.empty();
  out["summary"] = summary;
  out["runs_planned"] = first.runs_total;
  out["complete"] = complete;
  out["started_at"] = started;
  out["finished_at"] = complete ? finished : "";
  std::sort(list.begin(), list.end(), [](const json& a, const json& b) { return a["index"] < b["index"]; });
  out["shards"] = list;
  return out;
}

}  // namespace

std::string shard_folder(const std::string& dir, std::size_t index, std::size_t count) {
  return (fs::path(dir) / "shards" / fmt::format("{}-of-{}", index, count)).string();
}

MergeOutcome merge_shards(const std::string& out, const std::vector<std::string>& inputs) {
  if (inputs.empty()) throw InputError("merge needs at least one shard file or folder");
  const Inputs in = expand(inputs);
  std::vector<ShardFile> files;
  for (const std::string& p : in.files) files.push_back(read_shard(p));
  for (std::size_t i = 1; i < files.size(); ++i) check_together(files.front(), files[i]);
  std::map<std::string, std::vector<ShardFile*>> by_config;
  for (ShardFile& f : files) by_config[f.config].push_back(&f);
  for (const auto& [config, shards] : by_config) check_one_plan(shards);
  const json& reproduction = files.front().reproduction;
  if (reproduction.is_null() && by_config.size() > 1)
    throw InputError("the shards are of " + std::to_string(by_config.size()) +
                     " configs: merge one config's shards at a time");
  MergeOutcome outcome;
  std::vector<std::pair<std::string, json>> writes;
  if (!reproduction.is_null()) {
    check_reproduction_names(by_config, reproduction, out);
    check_creatable(out, "merge's OUT folder");
    refuse_inside(out, in.folders);
    for (const json& name : reproduction) {
      const auto it = by_config.find(name.get<std::string>());  // text: check_shard saw to it
      if (it == by_config.end()) {
        outcome.missing.push_back(printable(name.dump(), 80) + ": no shard has written it yet");
        continue;
      }
      writes.emplace_back((fs::path(out) / (safe_name(it->first) + ".json")).string(),
                          join(it->second, outcome.missing));
    }
  } else {
    const std::string target = results_target(out);
    check_out_creatable(target);
    refuse_inside(target, in.folders);
    writes.emplace_back(target, join(by_config.begin()->second, outcome.missing));
  }
  for (const auto& [file, results] : writes) refuse_overwriting(file, in.files, "merge's OUT");
  for (const auto& [file, results] : writes) {
    prepare_results_file(file);
    write_file_atomically(file, results.dump(2) + "\n");
    outcome.written.push_back(file);
    outcome.runs += results["runs"].size();
  }
  outcome.complete = outcome.missing.empty();
  return outcome;
}

namespace {

int merge(const Parsed& p) {
  if (p.has("processes")) return merge_process_files(p.positional);
  if (p.positional.size() < 2) throw InputError("merge needs OUT and at least one SHARD (a file or a folder)");
  const std::vector<std::string> inputs(p.positional.begin() + 1, p.positional.end());
  const MergeOutcome m = merge_shards(p.positional[0], inputs);
  for (const std::string& f : m.written) fmt::print("merged {}\n", printable_all(f));
  if (m.complete) return 0;
  for (const std::string& line : m.missing) fmt::print(stderr, "ladder: {}\n", printable_all(line));
  fmt::print(stderr, "ladder: the merge is incomplete: run the missing shards (the same command) and "
                     "merge again\n");
  return 1;
}

}  // namespace

const Command merge_command{
    .name = "merge",
    .summary = "join the results of a plan's shards into the file one process would write",
    .positionals = {"OUT", "SHARD..."},
    .forms = {"ladder merge OUT SHARD...", "ladder merge --processes OUT FILE..."},
    .options = {{"processes", "", "join one-process results files of one config (FILE...) into one K-process file"}},
    .about = "Joins the results files of the shards of one plan (`run --shard K/N`, `--gpus`, a Slurm\n"
             "array; a folder stands for every results file under it) into OUT: runs in run_index\n"
             "order, each with the device it ran on, `complete` only when every run of the plan\n"
             "is there. Shards of `reproduce` merge into the folder OUT (one file per config),\n"
             "which `ladder reproduce --out OUT` then reuses. Refused: shards of other commits,\n"
             "configs, scales, splits (count, runs_total, owners) or GPU models, an index given\n"
             "twice, a run in two shards, a file that is not a shard's or whose summary is not its\n"
             "runs', two configs whose files in OUT would be one, an OUT inside a folder read.\n"
             "With --processes, joins one-process results files of one config (of `run`, or the\n"
             "parts `run --processes` and `ab` keep when stopped; a folder stands for its .json\n"
             "files) into the K-process file `run --processes K` writes: the same runs across the\n"
             "files, each timed run with every process's samples and median. Refused: files of\n"
             "other configs, commits, scales or GPU models (the field named), shards' files.\n"
             "Exit status: 0 complete, 1 shards or runs missing (named), 2 bad input.\n",
    .body = merge,
};

}  // namespace ladder::cli
