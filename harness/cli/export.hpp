// What `ladder export` writes of a results file (already through check_results), defined in
// compare.cpp beside the command: the CSV text, or Google Benchmark's JSON. Declared here for
// the fuzz target of the export (tests/fuzz/fuzz_export.cpp).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace ladder::cli {

std::string export_csv_text(const nlohmann::json& results);
nlohmann::json export_gbench_json(const nlohmann::json& results);

}  // namespace ladder::cli
