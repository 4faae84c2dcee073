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

// Every .json file under a folder (a reproduction's shard folders, in order); a file is itself.
// Folders starting with '.' hold runs in progress and are skipped, as are manifests.
std::vector<std::string> expand(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& in : inputs) {
    std::error_code ec;
    if (!fs::is_directory(in, ec)) {
      files.push_back(in);
      continue;
    }
    std::vector<std::string> found;
    for (fs::recursive_directory_iterator it(in, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      if (it->is_directory(ec) && name[0] == '.') it.disable_recursion_pending();
      else if (it->path().extension() == ".json" && name != "reproduction.json" && it->is_regular_file(ec))
        found.push_back(it->path().string());
    }
    if (ec) throw InputError("cannot list " + shown(in) + ": " + ec.message());
    if (found.empty()) throw InputError(shown(in) + " holds no shard's results");
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

const json& at(const json& j, const char* a, const char* b = nullptr) {
  static const json none;
  const json& x = j.is_object() && j.contains(a) ? j[a] : none;
  return b ? (x.is_object() && x.contains(b) ? x[b] : none) : x;
}

// Shards that do not belong to one plan on one GPU model are refused, naming two that differ.
void check_together(const ShardFile& a, const ShardFile& b) {
  auto differ = [&](const std::string& what, const json& x, const json& y) {
    if (x != y)
      throw InputError(fmt::format("{} and {} are shards of {} ({} and {})", shown(a.path), shown(b.path), what,
                                   printable(x.dump(), 60), printable(y.dump(), 60)));
  };
  differ("different commits", at(a.results, "ladder", "git_commit"), at(b.results, "ladder", "git_commit"));
  differ("different scales", at(a.results, "scale"), at(b.results, "scale"));
  differ("different splits", json(a.count), json(b.count));
  differ("different reproductions", a.reproduction, b.reproduction);
  if (at(a.results, "device", "name") != at(b.results, "device", "name"))
    throw InputError(fmt::format(
        "{} ran on {} and {} on {}: one merged file would record them as one device; merge each "
        "GPU model's shards apart", shown(a.path), printable(at(a.results, "device", "name").dump(), 60),
        shown(b.path), printable(at(b.results, "device", "name").dump(), 60)));
  if (a.config == b.config) {
    differ("different configs", at(a.results, "config"), at(b.results, "config"));
    differ("different plans", json(a.plan_hash), json(b.plan_hash));
    if (a.index == b.index)
      throw InputError(fmt::format("shard {}/{} of {} is given twice: {} and {}", a.index, a.count,
                                   a.config, shown(a.path), shown(b.path)));
  }
}

std::string runs_text(const std::vector<std::size_t>& runs) {
  std::string out;
  for (std::size_t r : runs) out += (out.empty() ? "" : ", ") + std::to_string(r);
  return out.empty() ? "none" : out;
}

// The shards of one config joined: runs in run_index order, each with its shard and device;
// the shards' hosts, devices and times under `shards`. Missing shards and runs go to `missing`.
json join(const std::vector<ShardFile*>& shards, std::vector<std::string>& missing) {
  const ShardFile& first = *shards.front();
  std::vector<const json*> runs(first.runs_total, nullptr);
  json list = json::array();
  std::set<std::size_t> present;
  std::string started, finished;
  bool all_complete = true;
  for (ShardFile* s : shards) {
    present.insert(s->index);
    json& r = s->results;
    const json dev = {{"name", at(r, "device", "name")}, {"pci_bus_id", at(r, "device", "pci_bus_id")},
                      {"uuid", at(r, "device", "uuid")}, {"hostname", at(r, "host", "hostname")}};
    for (json& run : r["runs"]) {
      run["shard"] = s->index;
      run["device"] = dev;
      runs[run["run_index"].get<std::size_t>()] = &run;
    }
    const bool complete = at(r, "complete") == json(true);
    all_complete = all_complete && complete;
    json entry = {{"index", s->index}, {"file", fs::path(s->path).filename().string()},
                  {"host", at(r, "host")}, {"device", at(r, "device")}, {"complete", complete},
                  {"runs", r["runs"].size()}, {"started_at", at(r, "started_at")},
                  {"finished_at", at(r, "finished_at")}};
    if (!at(r, "scheduler").is_null()) entry["scheduler"] = at(r, "scheduler");
    list.push_back(entry);
    const json &a = at(r, "started_at"), &b = at(r, "finished_at");
    if (a.is_string() && (started.empty() || a.get<std::string>() < started)) started = a;
    if (b.is_string() && b.get<std::string>() > finished) finished = b;
  }
  std::map<std::size_t, std::vector<std::size_t>> lost;  // shard -> its runs not here
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (!runs[i]) lost[first.owners[i]].push_back(i);
  for (std::size_t k = 0; k < first.count; ++k)
    if (!present.count(k) || lost.count(k))
      missing.push_back(fmt::format("{}: shard {}/{} {}: runs {}", first.config, k, first.count,
                                    present.count(k) ? "incomplete" : "missing", runs_text(lost[k])));
  json out = first.results;
  out.erase("shard");
  out.erase("scheduler");
  out["runs"] = json::array();
  json summary = json::object();
  for (const json* run : runs)
    if (run) {
      out["runs"].push_back(*run);
      const std::string st = (*run)["status"];  // a string: check_shard saw to it
      summary[st] = summary.value(st, 0) + 1;
    }
  const bool complete = all_complete && lost.empty();
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
  const std::vector<std::string> paths = expand(inputs);
  std::vector<ShardFile> files;
  for (const std::string& p : paths) files.push_back(read_shard(p));
  for (std::size_t i = 1; i < files.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) check_together(files[j], files[i]);
  const bool reproduction = !files.front().reproduction.is_null();
  std::map<std::string, std::vector<ShardFile*>> by_config;
  for (ShardFile& f : files) by_config[f.config].push_back(&f);
  if (!reproduction && by_config.size() > 1)
    throw InputError("the shards are of " + std::to_string(by_config.size()) +
                     " configs: merge one config's shards at a time");
  MergeOutcome outcome;
  std::vector<std::pair<std::string, json>> writes;
  if (reproduction) {
    check_creatable(out, "merge's OUT folder");
    for (const json& name : files.front().reproduction) {
      const auto it = by_config.find(name.is_string() ? name.get<std::string>() : "");
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
    writes.emplace_back(target, join(by_config.begin()->second, outcome.missing));
  }
  for (const auto& [file, results] : writes) refuse_overwriting(file, paths, "merge's OUT");
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
    .about = "Joins the results files of the shards of one plan (`run --shard K/N`, `--gpus`, a Slurm\n"
             "array; a folder stands for every results file under it) into OUT: runs in run_index\n"
             "order, each with the device it ran on, `complete` only when every shard's runs are\n"
             "there. Shards of `reproduce` merge into the folder OUT (one file per config), which\n"
             "`ladder reproduce --out OUT` then reuses. Refused: shards of other commits, configs,\n"
             "scales, splits or GPU models, an index given twice, a file that is not a shard's.\n"
             "Exit status: 0 complete, 1 shards or runs missing (named), 2 bad input.\n",
    .body = merge,
};

}  // namespace ladder::cli
