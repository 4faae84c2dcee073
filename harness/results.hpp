// The results file (schema_version 2): one JSON object per run of a config. Plot scripts and
// `ladder compare` read only this format. Version 2 adds what K processes of one config record
// (harness/processes.hpp): a top-level `processes` block and each timed run's process medians;
// a version 1 file (no such block) reads as one process.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "runner.hpp"

namespace ladder {

constexpr int kSchemaVersion = 2;        // what this ladder writes
constexpr int kOldestSchemaVersion = 1;  // the oldest it reads

// The UTC time as results files record it ("2026-11-25T19:02:40Z"), and the seconds from one
// such time to a later one (-1 when either is not in that form or they run backwards).
std::string utc_timestamp();
double seconds_between(const std::string& start, const std::string& end);

nlohmann::json results_json(const RunReport& report);
nlohmann::json build_json();
// Written atomically: readers never see a half-written file. `more` (an object) adds top-level
// fields: what `run` records of its own process (harness/process_facts.hpp) and its warnings.
void write_results(const std::string& path, const RunReport& report,
                   const nlohmann::json& more = nlohmann::json::object());
// Results nest a config (at most 16 deep) a few levels down; anything deeper is refused
// before it is parsed.
constexpr std::size_t kMaxResultsDepth = 32;

// Reads a results file back, checking its depth, duplicate keys and schema; throws InputError.
nlohmann::json read_results(const std::string& path);
// The schema check alone, for JSON already parsed; `what` names it in the error.
nlohmann::json check_results(const nlohmann::json& j, const std::string& what);

}  // namespace ladder
