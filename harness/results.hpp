// The results file (schema_version 1): one JSON object per run of a config. Plot scripts and
// `ladder compare` read only this format.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "runner.hpp"

namespace ladder {

constexpr int kSchemaVersion = 1;

nlohmann::json results_json(const RunReport& report);
nlohmann::json build_json();
// Written atomically: readers never see a half-written file.
void write_results(const std::string& path, const RunReport& report);
// Reads a results file back, checking the schema version; throws InputError.
nlohmann::json read_results(const std::string& path);

}  // namespace ladder
