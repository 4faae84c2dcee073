// The UCR archive's text format (series.hpp): one series per line, a label then its values.
#include <cmath>
#include <cstdio>
#include <new>
#include <string_view>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "data_file.hpp"
#include "numbers.hpp"
#include "series.hpp"

namespace ladder {
namespace {

std::string where(const std::string& file, std::size_t line, std::size_t col) {
  return file + " line " + std::to_string(line) + " column " + std::to_string(col);
}

bool blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// A line's fields: split on commas if it has any (an empty field is an error), else on runs of
// tabs and spaces.
void split(std::string_view line, std::vector<std::string>& out, const std::string& file,
           std::size_t line_no) {
  out.clear();
  if (line.find(',') != std::string_view::npos) {
    for (;;) {
      const std::size_t comma = line.find(',');
      const std::string_view f = trimmed(line.substr(0, comma));
      if (f.empty())
        throw InputError(where(file, line_no, out.size() + 1) +
                         " is empty (two commas in a row, or one at the end of the line?)");
      out.emplace_back(f);
      if (comma == std::string_view::npos) break;
      line.remove_prefix(comma + 1);
    }
    return;
  }
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && blank(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !blank(line[i])) ++i;
    if (i > start) out.emplace_back(line.substr(start, i - start));
  }
}

bool control_byte(char c) {
  const auto b = static_cast<unsigned char>(c);
  return (b < 0x20 && c != '\t') || b == 0x7F;
}

// The column (field number) that holds line[k], a byte that is neither blank nor a comma.
std::size_t column_of(std::string_view line, std::size_t k) {
  std::size_t col = 1;
  if (line.find(',') != std::string_view::npos) {
    for (std::size_t i = 0; i < k; ++i) col += line[i] == ',';
    return col;
  }
  col = 0;
  for (std::size_t i = 0; i <= k; ++i)
    if (!blank(line[i]) && (i == 0 || blank(line[i - 1]))) ++col;
  return col;
}

// Parses with a cheap `what`; only on failure builds the full place for the message.
float value_at(const std::string& field, const std::string& file, std::size_t line,
               std::size_t col) {
  try {
    return parse_float32(field, std::string());
  } catch (const InputError&) {
  }
  try {
    parse_float32(field, where(file, line, col));
  } catch (const InputError& e) {
    std::string lower;
    for (char c : field) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
    if (lower.find("nan") != std::string::npos || lower.find("inf") != std::string::npos)
      throw InputError(std::string(e.what()) + " (fill or drop missing values first)");
    throw;
  }
  throw InputError(where(file, line, col) + " cannot be read");  // not reached
}

std::int32_t label_at(const std::string& field, const std::string& file, std::size_t line) {
  const std::string what = where(file, line, 1) + " (the label)";
  const double v = parse_double(field, what);
  if (v != std::floor(v))
    throw InputError(what + " must be an integer, got '" + printable(field) + "'");
  if (v < -2147483648.0 || v > 2147483647.0)
    throw InputError(what + ": '" + printable(field) +
                     "' is out of range of a 32-bit label (-2147483648 to 2147483647)");
  return static_cast<std::int32_t>(v);
}

// Semicolons and quotes have no place in a line of numbers: such a line is in a layout the
// reader does not take, which the message names rather than the field it trips on.
void check_layout(std::string_view line, const std::string& file, std::size_t line_no) {
  if (line.find_first_of(";\"'") == std::string_view::npos) return;
  const std::string layout = foreign_number_layout(line);
  if (!layout.empty())
    throw InputError(file + " line " + std::to_string(line_no) + " " + layout +
                     ": a UCR line is a label and values, unquoted, separated by commas, tabs "
                     "or spaces");
}

SeriesSet parse_lines(const std::string& text, const std::string& file) {
  SeriesSet set;
  std::vector<std::string> f;
  std::size_t pos = 0, line_no = 0;
  while (pos < text.size()) {
    // Lines end in LF, CRLF or a lone CR.
    std::size_t end = text.find_first_of("\r\n", pos);
    if (end == std::string::npos) end = text.size();
    const std::string_view line(text.data() + pos, end - pos);
    pos = end + (end + 1 < text.size() && text[end] == '\r' && text[end + 1] == '\n' ? 2 : 1);
    ++line_no;

    for (std::size_t k = 0; k < line.size(); ++k)
      if (control_byte(line[k]))
        throw InputError(file + " is not a text file (a .npy or other binary file?): byte " +
                         printable(std::string(1, line[k])) + " at line " +
                         std::to_string(line_no) + " column " +
                         std::to_string(column_of(line, k)));
    check_layout(line, file, line_no);
    split(trimmed(line), f, file, line_no);
    if (f.empty()) continue;
    if (f.size() < 2)
      throw InputError(file + " line " + std::to_string(line_no) +
                       " has a single field; each line needs a label and at least one value, "
                       "separated by tabs, spaces or commas");
    if (set.entries == 0) set.length = f.size() - 1;
    if (f.size() - 1 != set.length)
      throw InputError(file + " line " + std::to_string(line_no) + " has " +
                       std::to_string(f.size() - 1) + " values, earlier lines have " +
                       std::to_string(set.length) + " (ragged data is not supported)");
    set.labels.push_back(label_at(f[0], file, line_no));
    for (std::size_t c = 1; c < f.size(); ++c)
      set.values.push_back(value_at(f[c], file, line_no, c + 1));
    ++set.entries;
  }
  if (set.entries == 0) throw InputError("data file " + file + " holds no series");
  return set;
}

}  // namespace

SeriesSet parse_ucr(const std::string& text, const std::string& name) {
  const std::string file = quoted_name(name);
  if (text.rfind("\x93NUMPY", 0) == 0)
    throw InputError(file + " is a NumPy .npy file, not a UCR text file (label<TAB>values...)");
  check_text_start(text, file);
  try {
    return parse_lines(text, file);
  } catch (const std::bad_alloc&) {
    throw InputError(file + " holds more series than fit in memory");
  }
}

SeriesSet read_ucr(const std::string& path) {
  const std::string file = quoted_name(path);
  // No size limit of its own: a file too large for memory is refused as such.
  const std::string text = read_whole_file(path, file, "a UCR text file", [](std::uintmax_t) {});
  return parse_ucr(text, path);
}

void write_ucr(const std::string& path, const SeriesSet& set) {
  std::string text;
  char buf[32];
  for (std::size_t e = 0; e < set.entries; ++e) {
    text += std::to_string(set.labels[e]);
    for (std::size_t t = 0; t < set.length; ++t) {
      std::snprintf(buf, sizeof buf, "\t%.9g", set.series(e)[t]);
      text += buf;
    }
    text += '\n';
  }
  write_file_atomically(path, text);
}

}  // namespace ladder
