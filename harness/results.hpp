// The results file (schema_version 1): one JSON object per run of a config. Plot scripts and
// `ladder compare` read only this format.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "runner.hpp"

namespace ladder {

constexpr int kSchemaVersion = 1;

// The UTC time as results files record it ("2026-11-25T19:02:40Z"), and the seconds from one
// such time to a later one (-1 when either is not in that form or they run backwards).
std::string utc_timestamp();
double seconds_between(const std::string& start, const std::string& end);

nlohmann::json results_json(const RunReport& report);
nlohmann::json build_json();
// Written atomically: readers never see a half-written file.
void write_results(const std::string& path, const RunReport& report);
// Results nest a config (at most 16 deep) a few levels down; anything deeper is refused
// before it is parsed.
constexpr std::size_t kMaxResultsDepth = 32;

// Reads a results file back, checking its depth, duplicate keys and schema; throws InputError.
nlohmann::json read_results(const std::string& path);
// The schema check alone, for JSON already parsed; `what` names it in the error.
nlohmann::json check_results(const nlohmann::json& j, const std::string& what);

}  // namespace ladder
