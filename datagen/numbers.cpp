#include "numbers.hpp"

#include <charconv>
#include <cmath>
#include <string_view>
#include <system_error>

#include "base/errors.hpp"

namespace ladder {
namespace {


std::string say(const std::string& what, const std::string& rule, const std::string& text) {
  return printable(what, 400) + " must be " + rule + ", got '" + printable(text) + "'";
}

// Whether the decimal number in s (already accepted by from_chars, so of the form
// [-]digits[.digits][e[+-]digits]) has a magnitude below one: tells underflow from overflow.
bool below_one(std::string_view s) {
  std::size_t i = 0;
  if (i < s.size() && s[i] == '-') ++i;
  long long order = 0;  // decimal order of the first non-zero digit
  bool found = false, after_point = false;
  long long int_digits = 0, frac_zeros = 0;
  for (; i < s.size() && s[i] != 'e' && s[i] != 'E'; ++i) {
    if (s[i] == '.') {
      after_point = true;
      continue;
    }
    if (!found && s[i] != '0') {
      found = true;
      order = after_point ? -(frac_zeros + 1) : 0;
    }
    if (!after_point && found) ++int_digits;
    if (after_point && !found) ++frac_zeros;
  }
  if (!found) return true;  // zero
  if (!after_point || int_digits > 0) order = int_digits - 1;
  long long exponent = 0;
  bool negative = false;
  if (i < s.size()) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
    for (; i < s.size(); ++i)
      if (exponent < 1000000000) exponent = exponent * 10 + (s[i] - '0');
  }
  return order + (negative ? -exponent : exponent) < 0;
}

// The text without one leading '+' (from_chars takes only '-'); empty if the sign is not
// followed by the number itself.
std::string_view unsigned_plus(const std::string& text) {
  std::string_view v(text);
  if (!v.empty() && v[0] == '+') {
    v.remove_prefix(1);
    if (v.empty() || v[0] == '-' || v[0] == '+') return {};
  }
  return v;
}

template <class T>
T parse_real(const std::string& text, const std::string& what, const char* range_rule) {
  const std::string_view v = unsigned_plus(text);
  T value{};
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (v.empty() || end != v.data() + v.size() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range))
    throw InputError(say(what, "a number", text));
  if (ec == std::errc::result_out_of_range) {
    if (!below_one(v)) throw InputError(say(what, range_rule, text));
    return v[0] == '-' ? -T(0) : T(0);
  }
  if (!std::isfinite(value)) throw InputError(say(what, "a finite number", text));
  return value;
}

bool blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// Whether s is a plain number, with '.' or (when `decimal_comma`) ',' as its decimal mark.
bool number_text(std::string_view s, bool decimal_comma) {
  std::string t(s);
  if (decimal_comma)
    for (char& c : t)
      if (c == ',') c = '.';
  if (!t.empty() && t[0] == '+') t.erase(0, 1);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  return !t.empty() && end == t.data() + t.size() && ec != std::errc::invalid_argument;
}

// A number in double or single quotes.
bool quoted_number(std::string_view s, bool decimal_comma) {
  return s.size() >= 3 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front() &&
         number_text(s.substr(1, s.size() - 2), decimal_comma);
}

// Calls f(field) for the trimmed fields of line between separators (any of `seps`); stops and
// returns false as soon as f does.
template <class F>
bool all_fields(std::string_view line, const char* seps, F f) {
  for (;;) {
    const std::size_t at = line.find_first_of(seps);
    if (!f(trimmed(line.substr(0, at)))) return false;
    if (at == std::string_view::npos) return true;
    line.remove_prefix(at + 1);
  }
}

// Numbers separated by semicolons: at least two, every field a number (quoted or not, with a
// decimal point or comma) or empty (a line ending in ';').
bool semicolon_separated(std::string_view line) {
  if (line.find(';') == std::string_view::npos) return false;
  int numbers = 0;
  const bool ok = all_fields(line, ";", [&](std::string_view f) {
    if (f.empty()) return true;
    ++numbers;
    return number_text(f, true) || quoted_number(f, true);
  });
  return ok && numbers >= 2;
}

}  // namespace

std::string foreign_number_layout(std::string_view line) {
  if (semicolon_separated(line))
    return line.find(',') == std::string_view::npos
               ? "uses ';' as separator"
               : "uses ';' as separator and ',' as decimal mark";
  // Every field a number and one of them quoted: a header may quote a name that is a number.
  bool quoted = false;
  const bool numbers = all_fields(line, ",; \t", [&](std::string_view f) {
    if (quoted_number(f, false)) quoted = true;
    return f.empty() || number_text(f, false) || quoted_number(f, false);
  });
  return numbers && quoted ? "holds quoted numbers" : "";
}

std::int64_t parse_int64(const std::string& text, const std::string& what) {
  const std::string_view v = unsigned_plus(text);
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), value, 10);
  if (v.empty() || end != v.data() + v.size() ||
      (ec != std::errc() && ec != std::errc::result_out_of_range))
    throw InputError(say(what, "an integer", text));
  if (ec == std::errc::result_out_of_range)
    throw InputError(printable(what, 400) + " is out of range of a 64-bit integer, got '" +
                     printable(text) + "'");
  return value;
}

double parse_double(const std::string& text, const std::string& what) {
  return parse_real<double>(text, what, "a number of magnitude at most 1.8e308");
}

float parse_float32(const std::string& text, const std::string& what) {
  return parse_real<float>(text, what, "a float32 number (magnitude at most 3.4e38)");
}


}  // namespace ladder
