#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "series.hpp"

namespace ladder {
namespace {

std::string where(const std::string& path, std::size_t line, std::size_t col) {
  return "'" + path + "' line " + std::to_string(line) + ", column " + std::to_string(col);
}

// Splits on tabs or commas; spaces around a field are ignored.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : line) {
    if (c == '\t' || c == ',') {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

double parse_value(const std::string& text, const std::string& path, std::size_t line,
                   std::size_t col) {
  const char* s = text.c_str();
  char* end = nullptr;
  errno = 0;
  double v = std::strtod(s, &end);
  while (*end == ' ') ++end;
  if (end == s || *end != '\0')
    throw InputError(where(path, line, col) + ": '" + text + "' is not a number");
  if (!std::isfinite(v))
    throw InputError(where(path, line, col) + ": " + text +
                     " is not allowed (fill or drop missing values first)");
  if (std::fabs(v) > FLT_MAX)
    throw InputError(where(path, line, col) + ": " + text + " does not fit in float32");
  return v;
}

}  // namespace

SeriesSet read_ucr(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open data file '" + path + "'");
  SeriesSet set;
  std::string line;
  std::size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto f = fields(line);
    if (f.size() < 2)
      throw InputError("'" + path + "' line " + std::to_string(line_no) +
                       ": needs a label and at least one value");
    if (set.entries == 0) set.length = f.size() - 1;
    if (f.size() - 1 != set.length)
      throw InputError("'" + path + "' line " + std::to_string(line_no) + " has " +
                       std::to_string(f.size() - 1) + " values, earlier lines have " +
                       std::to_string(set.length) + " (ragged data is not supported)");
    const double label = parse_value(f[0], path, line_no, 1);
    if (label != std::floor(label) || std::fabs(label) > 2e9)
      throw InputError(where(path, line_no, 1) + ": label must be an integer");
    set.labels.push_back(static_cast<std::int32_t>(label));
    for (std::size_t c = 1; c < f.size(); ++c)
      set.values.push_back(static_cast<float>(parse_value(f[c], path, line_no, c + 1)));
    ++set.entries;
  }
  if (set.entries == 0) throw InputError("data file '" + path + "' holds no series");
  return set;
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
