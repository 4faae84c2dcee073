// CSV as compare and export write it (RFC 4180), and the lenient reading of results-file
// fields they share: read_results checks only what every reader needs (names, a numeric
// median); anything else in a hand-edited file may be missing or of another type, and reads
// as absent.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ladder::cli {

// One CSV record ending in CRLF. Bound for stdout (a terminal, often), each cell's lines are
// escaped as names are on a terminal (control and bidirectional characters as \xNN, line
// breaks kept); a file written with --out keeps the text as is.
std::string csv_line(const std::vector<std::string>& cells, bool to_stdout);

// Full precision: the shortest text that reads back as the same double.
std::string full(double x);

// obj[key], or null when obj is not an object or lacks it.
nlohmann::json member(const nlohmann::json& obj, const char* key);
// obj[key] when it is text, else "".
std::string text(const nlohmann::json& obj, const char* key);
// A JSON value as one cell: text as is, numbers as the file has them, null or absent empty.
std::string cell(const nlohmann::json& v);

}  // namespace ladder::cli
