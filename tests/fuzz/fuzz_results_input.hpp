// The fuzz input as a results file, read as read_results reads one (the JSON reader with the
// results depth limit, then check_results), for targets that drive what comes after reading:
// the file, or nullopt once a refusal was checked to be one printable line.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/json_file.hpp"
#include "fuzz_input.hpp"
#include "harness/results.hpp"

namespace ladder::fuzz {

inline std::optional<nlohmann::json> read_results_text(const std::string& text) {
  try {
    return ladder::check_results(ladder::parse_json_text(text, "results", ladder::kMaxResultsDepth), "results");
  } catch (const ladder::InputError& e) {
    check_message("parse_json_text/check_results", e);
    return std::nullopt;
  }
}

}  // namespace ladder::fuzz
