#include "csv.hpp"

#include <fmt/format.h>

#include "../../datagen/base/printable.hpp"

namespace ladder::cli {
namespace {

using json = nlohmann::json;

// RFC 4180: a field holding a comma, a quote or a line break is quoted, its quotes doubled.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A cell bound for stdout: each of its lines escaped as printable_all escapes names (ESC, BEL,
// CR, C1 and bidirectional controls as \xNN), its line breaks kept, as a quoted field may
// hold them.
std::string stdout_cell(const std::string& s) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t nl; (nl = s.find('\n', from)) != std::string::npos; from = nl + 1)
    out += printable_all(s.substr(from, nl - from)) + "\n";
  return out + printable_all(s.substr(from));
}

}  // namespace

// RFC 4180 ends records with CRLF; spreadsheets and csv readers expect it.
std::string csv_line(const std::vector<std::string>& cells, bool to_stdout) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i)
    out += (i ? "," : "") + csv_field(to_stdout ? stdout_cell(cells[i]) : cells[i]);
  return out + "\r\n";
}

std::string full(double x) { return fmt::format("{}", x); }

json member(const json& obj, const char* key) {
  return obj.is_object() && obj.contains(key) ? obj[key] : json();
}

std::string text(const json& obj, const char* key) {
  const json v = member(obj, key);
  return v.is_string() ? v.get<std::string>() : "";
}

std::string cell(const json& v) {
  if (v.is_null()) return "";
  return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace ladder::cli
