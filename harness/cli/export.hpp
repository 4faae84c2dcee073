// What `ladder export` writes of a results file (already through check_results), defined in
// export.cpp beside the command: the CSV text, or Google Benchmark's JSON (by sample, or by
// process median). Declared here for the fuzz target of the export
// (tests/fuzz/fuzz_export.cpp).
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace ladder::cli {

std::string export_csv_text(const nlohmann::json& results);
nlohmann::json export_gbench_json(const nlohmann::json& results, bool per_process = false);

}  // namespace ladder::cli
