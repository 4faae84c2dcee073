// Reading JSON from users (configs, results files) in one place. Every failure is an InputError
// with one printable line that starts with `what` (the caller's words: "config 'c.json'",
// "results file 'r.json'").
#pragma once
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace ladder {

// Parses text as one JSON value. Refuses what no text file starts with (a byte-order mark,
// compressed data: data_file.hpp's check_text_start), invalid JSON (nlohmann's
// message, with line and column), nesting deeper than max_depth arrays/objects (`[]` is depth
// 1, `[[1]]` depth 2; checked on the text before any tree is built, so a hostile depth cannot
// exhaust the stack) and a key repeated within one object ("duplicate key 'n'", with the path
// to that object).
nlohmann::json parse_json_text(const std::string& text, const std::string& what,
                               std::size_t max_depth);

// As parse_json_text on the contents of path; also refuses a missing or unreadable file, a
// directory or other non-regular file (a FIFO is refused without waiting for a writer), and a
// file larger than max_bytes (checked before reading).
nlohmann::json read_json_file(const std::string& path, const std::string& what,
                              std::size_t max_depth, std::size_t max_bytes = 64u << 20);

}  // namespace ladder
