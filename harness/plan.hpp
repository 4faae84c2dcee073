// The plan of a config: the runs `ladder run` executes, in the order it executes them, each
// with the index results record (`run_index`) and the data set it shares with its neighbours.
// The runner runs exactly this list and `ladder plan` prints it, so the two cannot differ.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "config.hpp"

namespace ladder {

struct PlannedRun {
  std::size_t index = 0;       // run_index: 0, 1, ... in execution order
  std::size_t point = 0;       // into Config::points
  const VariantSpec* variant = nullptr;
  Params params;               // every parameter, defaults filled in: what runs
  std::size_t data_group = 0;  // runs of one group share one generated or read data set
  Validation validation;
  int repetitions = 0, warmup = 0;
  double time_budget_s = 0;  // Config::time_budget_s: 0 for none
};

// A process's share of a plan split between `count` processes (GPUs of a node, tasks of a
// Slurm array): the runs whose owner is `index`. Results of a shard record it; `ladder merge`
// joins the shards of one plan (harness/shard.hpp splits it).
struct ShardInfo {
  std::size_t index = 0, count = 0;  // count 0: not a shard
  std::string plan_hash;             // the plan and its split; shards of one merge agree on it
  std::vector<std::size_t> owners;   // owners[run_index]: the shard that runs it
  // A shard of `ladder reproduce`: every paper experiment's name, in order, so that merge can
  // name a config no shard has written yet.
  std::vector<std::string> reproduction;
  bool active() const { return count > 0; }
  bool owns(std::size_t run_index) const { return !active() || owners.at(run_index) == index; }
};

// Every (point, variant) of `config` whose "study/variant" matches `filter` (a regular
// expression searched in it; empty: all), in execution order. `validation` overrides the
// config's modes (`--validate`). Throws InputError for a bad filter or one that selects nothing.
std::vector<PlannedRun> plan_runs(const Config& config, const std::string& filter,
                                  const std::optional<Validation>& validation = std::nullopt);

// Run indices first to last, both included (`--runs 7-9`).
struct RunRange {
  std::size_t first = 0, last = 0;
};

// The runs of `plan` whose indices `wanted` names (`--runs`), in plan order: each check costs
// a search among the ranges, never a walk over a range's indices. An index beyond the plan is
// an InputError.
std::vector<PlannedRun> keep_runs(std::vector<PlannedRun> plan, const std::vector<RunRange>& wanted);

// FNV-1a (64 bits) of `text` as 16 hex digits: stable across builds and machines, for names
// and hashes that must agree wherever they are computed (plan hashes, dump file names).
std::string stable_hash(const std::string& text);

// The key of the data set a point builds or reads: points with equal keys share it.
std::string data_source_key(const Study& study, const Point& point);

}  // namespace ladder
