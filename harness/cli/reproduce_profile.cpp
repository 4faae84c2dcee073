// `reproduce --profile`: Nsight Compute's counters for one point of every GPU step of each paper
// experiment, added to its results file by `ladder profile --into` (range-replayed `why`, then
// kernel-replayed `sass` on the first 16 launches), so that the figures and the report can quote
// them. One point, not all: replaying every run of a paper config would take hours.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <thread>

#include "../../datagen/base/printable.hpp"
#include "child.hpp"
#include "reproduce.hpp"

namespace ladder::cli {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Kernel replay's launches per run: all of most steps' (so their SASS counts per unit of work
// are the whole run's), a sample of the multi-launch ones (a wavefront's thousands).
constexpr int kLaunches = 16;

std::string field(const json& run, const char* key) {
  const auto it = run.find(key);
  return it != run.end() && it->is_string() ? it->get<std::string>() : "";
}

bool gpu_passed(const json& run) { return field(run, "backend") == "gpu" && field(run, "status") == "passed"; }

// A point's parameter as the config writes it (8, "anticorrelated") against the run's text.
bool same_value(const json& wanted, const std::string& have) {
  return wanted.is_string() ? wanted.get<std::string>() == have : wanted.dump() == have;
}

// Whether the run is at a point the config's `profile` choice allows.
bool chosen(const json& run, const json& choice) {
  if (!choice.is_object()) return true;
  if (choice.contains("sweep") && choice["sweep"] != field(run, "sweep")) return false;
  if (!choice.contains("point")) return true;
  const json params = run.value("params", json::object());
  for (const auto& [k, v] : choice["point"].items())
    if (!params.contains(k) || !params[k].is_string() || !same_value(v, params[k].get<std::string>())) return false;
  return true;
}

std::string point_of(const json& run) { return field(run, "sweep") + "|" + field(run, "point"); }

}  // namespace

namespace {

// Whether the run is one of the variants an extra choice names (all, where it names none).
bool named_variant(const json& run, const json& choice) {
  if (!choice.contains("variants")) return true;
  const std::string v = field(run, "variant");
  return std::any_of(choice["variants"].begin(), choice["variants"].end(),
                     [&](const json& x) { return x.get<std::string>() == v; });
}

// One point per GPU step (the object form of the config's `profile`).
std::vector<std::size_t> one_point_per_step(const json& results, const json& choice);

}  // namespace

// The config's `profile`: an object picks one point per GPU step; a list's first entry does
// the same, and each further entry adds every passed GPU run at its sweep and point (of its
// `variants`, where it names them): the points where a claim compares two steps, so that the
// report quotes counters at the claim's own point.
std::vector<std::size_t> profile_choice(const json& results, const json& choice) {
  if (!choice.is_array()) return one_point_per_step(results, choice);
  std::vector<std::size_t> runs = one_point_per_step(results, choice.empty() ? json() : choice[0]);
  if (results.contains("runs") && results["runs"].is_array())
    for (std::size_t k = 1; k < choice.size(); ++k)
      for (const json& r : results["runs"])
        if (gpu_passed(r) && r.contains("run_index") && r["run_index"].is_number_unsigned() &&
            chosen(r, choice[k]) && named_variant(r, choice[k]))
          runs.push_back(r["run_index"].get<std::size_t>());
  std::sort(runs.begin(), runs.end());
  runs.erase(std::unique(runs.begin(), runs.end()), runs.end());
  return runs;
}

namespace {

std::vector<std::size_t> one_point_per_step(const json& results, const json& choice) {
  std::vector<const json*> passed;
  if (results.contains("runs") && results["runs"].is_array())
    for (const json& r : results["runs"])
      if (gpu_passed(r) && r.contains("run_index") && r["run_index"].is_number_unsigned()) passed.push_back(&r);
  std::vector<const json*> candidates;
  for (const json* r : passed)
    if (chosen(*r, choice)) candidates.push_back(r);
  if (candidates.empty()) candidates = passed;  // the choice matches nothing at this scale
  // The point most steps ran at; of equals, the later one (sweeps grow).
  std::map<std::string, std::size_t> count;
  for (const json* r : candidates) ++count[point_of(*r)];
  std::string best;
  std::size_t most = 0;
  for (const json* r : candidates)
    if (count[point_of(*r)] >= most) most = count[point_of(*r)], best = point_of(*r);
  // Each step at that point, else at its last candidate run, else at its last passed run.
  std::map<std::string, const json*> pick;
  for (const auto* list : {&passed, &candidates})
    for (const json* r : *list) pick[field(*r, "study") + "/" + field(*r, "variant")] = r;
  for (const json* r : candidates)
    if (point_of(*r) == best) pick[field(*r, "study") + "/" + field(*r, "variant")] = r;
  std::vector<std::size_t> runs;
  for (const auto& [variant, r] : pick) runs.push_back((*r)["run_index"].get<std::size_t>());
  std::sort(runs.begin(), runs.end());
  return runs;
}

std::string run_text(const std::vector<std::size_t>& runs) {
  std::string s;
  for (const std::size_t k : runs) s += (s.empty() ? "" : ",") + std::to_string(k);
  return s;
}

}  // namespace

// Only the runs that lack a set are profiled with it: in a resumed reproduction, a set that a
// cut-off call finished is not paid for twice.
std::vector<std::size_t> profile_lacking(const json& results, const std::vector<std::size_t>& runs,
                                         const std::string& set) {
  std::vector<std::size_t> out;
  if (!results.contains("runs") || !results["runs"].is_array()) return out;
  for (const json& r : results["runs"]) {
    if (!r.contains("run_index") || !r["run_index"].is_number_unsigned() ||
        std::find(runs.begin(), runs.end(), r["run_index"].get<std::size_t>()) == runs.end())
      continue;
    const std::string sets = r.contains("profile") && r["profile"].is_object()
                                 ? r["profile"].value("metric_set", std::string()) : "";
    if (sets.find(set) == std::string::npos) out.push_back(r["run_index"].get<std::size_t>());
  }
  std::sort(out.begin(), out.end());
  return out;
}

json profile_experiment(const ProfileJob& job) {
  const auto t0 = std::chrono::steady_clock::now();
  json entry = {{"config", job.experiment->config.name}, {"results", job.experiment->file}};
  std::string why;
  const json results = read_found(job.target, why);
  if (!why.empty()) return entry.update({{"state", "failed"}, {"why", "its results file: " + why}}), entry;
  const std::vector<std::size_t> runs = profile_choice(results, job.experiment->config.resolved.value("profile", json()));
  entry["runs"] = runs;
  if (runs.empty()) return entry.update({{"state", "none"}, {"why", "no GPU step passed"}}), entry;
  // Each set, `why` first, with the chosen runs that lack it.
  std::vector<std::pair<std::string, std::vector<std::size_t>>> todo;
  for (const char* set : {"why", "sass"}) todo.emplace_back(set, profile_lacking(results, runs, set));
  if (todo[0].second.empty() && todo[1].second.empty()) return entry.update({{"state", "reused"}}), entry;
  fmt::print("reproduce: profiling {} ({} GPU steps, runs {})\n", printable_all(job.experiment->config.name), runs.size(),
             run_text(runs));
  for (const auto& [set, lacking] : todo) {
    if (lacking.empty()) continue;  // recorded by an earlier call
    ChildOptions o;
    o.stdout_file = job.log.string();
    o.stderr_to_stdout = true;
    const ChildResult r = run_child({job.self, "profile", job.experiment->config.path, "--scale", job.scale, "--into",
                                     job.target.string(), "--runs", run_text(lacking), "--metrics", set, "--launches",
                                     std::to_string(kLaunches), "--device", std::to_string(job.device), "--quiet"},
                                    o);
    if (r.signal == SIGINT || r.signal == SIGTERM) std::raise(r.signal);
    if (r.status != 0) {
      entry.update({{"state", "failed"},
                    {"why", fmt::format("ladder profile --metrics {} exited with status {} (log {})", set, r.status,
                                        job.log.filename().string())}});
      break;
    }
  }
  if (!entry.contains("state")) entry["state"] = "profiled";
  entry["elapsed_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return entry;
}

std::vector<json> profile_experiments(std::vector<ProfileJob> jobs, const std::vector<int>& devices) {
  std::vector<json> entries(jobs.size());
  std::atomic<std::size_t> next{0};
  const auto work = [&](int device) {
    for (std::size_t i; (i = next++) < jobs.size();) {
      jobs[i].device = device;
      entries[i] = profile_experiment(jobs[i]);
      entries[i]["device"] = device;
    }
  };
  std::vector<std::thread> workers;
  for (const int d : devices.empty() ? std::vector<int>{0} : devices) workers.emplace_back(work, d);
  for (std::thread& t : workers) t.join();
  return entries;
}

}  // namespace ladder::cli
