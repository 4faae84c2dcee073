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
};

// Every (point, variant) of `config` whose "study/variant" matches `filter` (a regular
// expression searched in it; empty: all), in execution order. `validation` overrides the
// config's modes (`--validate`). Throws InputError for a bad filter or one that selects nothing.
std::vector<PlannedRun> plan_runs(const Config& config, const std::string& filter,
                                  const std::optional<Validation>& validation = std::nullopt);

// The key of the data set a point builds or reads: points with equal keys share it.
std::string data_source_key(const Study& study, const Point& point);

}  // namespace ladder
