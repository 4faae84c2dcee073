// Runs counted by outcome: what `run` and `reproduce` end with, and what a config's progress
// line shows. Skipped and validly unsupported runs are counted together as skipped (neither
// ran), failed runs are those that stopped with an error, incorrect ones those whose output
// did not validate.
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "study.hpp"

namespace ladder {

struct Tally {
  std::size_t passed = 0, failed = 0, skipped = 0, incorrect = 0;
  std::size_t unsupported = 0;  // of the skipped

  void add(Status s);
  // A status as results files write it; one ladder never writes counts as failed.
  void add(const std::string& status);
  std::size_t total() const { return passed + failed + skipped + incorrect; }
  // "12 passed, 0 failed, 65 skipped (3 unsupported), 0 incorrect"
  std::string text() const;
  // Every run of a results file (parsed JSON, not trusted: what is not a run is not counted).
  void add_runs(const nlohmann::json& results);
};

}  // namespace ladder
