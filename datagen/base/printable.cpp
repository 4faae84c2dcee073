#include "printable.hpp"

#include <algorithm>

namespace ladder {
namespace {

std::string escaped(unsigned char b) {
  static const char* hex = "0123456789abcdef";
  return std::string("\\x") + hex[b >> 4] + hex[b & 15];
}

// Length of the UTF-8 sequence starting at s[i] if it is well formed (shortest form, no
// surrogates, at most U+10FFFF), else 0; its code point in *cp.
std::size_t utf8_sequence(const std::string& s, std::size_t i, char32_t* cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char b0 = byte(i);
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  char32_t c = b0 & (0x7F >> len);
  for (std::size_t k = 1; k < len; ++k) {
    const unsigned char b = byte(i + k);
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
    c = (c << 6) | (b & 0x3F);
  }
  *cp = c;
  return len;
}

// Characters that print as nothing, reorder the line or are not characters at all.
bool invisible(char32_t c) {
  return (c >= 0x80 && c <= 0x9F) || c == 0xAD || c == 0x061C || c == 0x180E ||
         (c >= 0x200B && c <= 0x200F) || (c >= 0x2028 && c <= 0x202E) ||
         (c >= 0x2060 && c <= 0x206F) || c == 0xFEFF || (c >= 0xFFF9 && c <= 0xFFFB) ||
         (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE || (c >= 0xE0000 && c <= 0xE007F);
}

}  // namespace

std::string printable(const std::string& text, std::size_t max_chars) {
  std::string out;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < text.size(); ++shown) {
    if (shown == max_chars) return out + "...";
    const auto b = static_cast<unsigned char>(text[i]);
    if (b >= 0x20 && b < 0x7F) {
      out += text[i++];
      continue;
    }
    char32_t cp = 0;
    const std::size_t len = b >= 0x80 ? utf8_sequence(text, i, &cp) : 0;
    if (len > 0 && !invisible(cp)) {
      out.append(text, i, len);
      i += len;
    } else {
      out += escaped(b);
      ++i;
    }
  }
  return out;
}

std::string printable_all(const std::string& text) { return printable(text, std::string::npos); }

std::size_t display_width(const std::string& text) {
  std::size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::vector<std::string> wrap_words(const std::string& text, std::size_t width) {
  std::vector<std::string> lines;
  std::string line;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = text.find_first_not_of(' ', i);
    if (start == std::string::npos) break;
    const std::size_t end = std::min(text.find(' ', start), text.size());
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && display_width(line) + 1 + display_width(word) > width) {
      lines.push_back(line);
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    i = end;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

}  // namespace ladder
