// Fuzz target: a text file of string pairs (the extended edit distance study's data), read in
// each format: auto, tsv and lines. InputError (of one printable line) is the expected answer
// to bad input; anything else escaping is a finding, and so is an accepted set that breaks
// what strings.hpp promises: at least one pair, offsets that cover the codes in order, codes
// below the alphabet, symbols the bytes that occur in increasing order, strings that are the
// input's own bytes in the format asked for (with or without CRLF line ends and a final line
// end), and an automatic reading that is one of the stated ones: the tab-separated one only
// where no control byte occurs, the line one only where no tab does.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/strings.hpp"
#include "fuzz_input.hpp"

namespace {

using ladder::fuzz::broken_promise;
constexpr const char* kReader = "parse_string_pairs";

void check_layout(const ladder::StringPairs& set) {
  if (set.pairs() == 0) broken_promise(kReader, "accepted a set of no pairs");
  if (set.offset.size() != 2 * set.pairs() + 1 || set.offset.front() != 0 ||
      set.offset.back() != static_cast<std::int64_t>(set.codes.size()))
    broken_promise(kReader, std::to_string(set.offset.size()) + " offsets ending at " +
                                std::to_string(set.offset.back()) + " for " +
                                std::to_string(set.codes.size()) + " codes");
  for (std::size_t s = 1; s < set.offset.size(); ++s)
    if (set.offset[s] < set.offset[s - 1])
      broken_promise(kReader, "offset " + std::to_string(s) + " goes back");
}

void check_symbols(const ladder::StringPairs& set) {
  if (set.alphabet < 1 || set.alphabet > 256 ||
      set.symbols.size() != static_cast<std::size_t>(set.alphabet))
    broken_promise(kReader, "alphabet " + std::to_string(set.alphabet) + " with " +
                                std::to_string(set.symbols.size()) + " symbols");
  if (set.symbols.find('\n') != std::string::npos) broken_promise(kReader, "a newline symbol");
  for (std::size_t c = 1; c < set.symbols.size(); ++c)
    if (static_cast<unsigned char>(set.symbols[c - 1]) >=
        static_cast<unsigned char>(set.symbols[c]))
      broken_promise(kReader, "symbols that do not increase");
  bool used[256] = {};
  for (std::uint8_t c : set.codes) {
    if (c >= set.alphabet) broken_promise(kReader, "code " + std::to_string(c) + " >= alphabet");
    used[c] = true;
  }
  // Every symbol occurs; only a set of empty strings has one that does not.
  for (int c = 0; c < set.alphabet; ++c)
    if (!used[c] && !set.codes.empty())
      broken_promise(kReader, "symbol " + std::to_string(c) + " never occurs");
  if (set.codes.empty() && set.alphabet != 1)
    broken_promise(kReader, "empty strings with an alphabet of " + std::to_string(set.alphabet));
}

// The file the strings make in a format: A and B on lines of their own, or A<TAB>B.
std::string render(const ladder::StringPairs& set, bool tabs, const std::string& line_end) {
  std::string text;
  for (std::size_t s = 0; s + 1 < set.offset.size(); ++s) {
    for (auto i = set.offset[s]; i < set.offset[s + 1]; ++i)
      text += set.symbols[set.codes[static_cast<std::size_t>(i)]];
    text += tabs && s % 2 == 0 ? "\t" : line_end;
  }
  return text;
}

// The input is the rendering in the format (tabs or not), less its final line end or not.
bool renders_as(const ladder::StringPairs& set, const std::string& input, bool tabs) {
  for (const std::string end : {"\n", "\r\n"}) {
    const std::string text = render(set, tabs, end);
    if (input == text || input + end == text) return true;
  }
  return false;
}

bool control_byte(unsigned char b) {
  return (b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7F;
}

// An accepted automatic reading: one of the two, and only where it cannot be the other.
void check_automatic(const ladder::StringPairs& set, const std::string& input) {
  const bool has_tab = input.find('\t') != std::string::npos;
  const bool has_control = std::any_of(input.begin(), input.end(), [](char c) {
    return control_byte(static_cast<unsigned char>(c));
  });
  if (!has_tab && renders_as(set, input, false)) return;
  if (has_tab && !has_control && renders_as(set, input, true)) return;
  broken_promise(kReader, "format auto read a file it could not tell (tab " +
                              std::to_string(has_tab) + ", control byte " +
                              std::to_string(has_control) + ")");
}

// Parses in one format: false when refused (with a well-formed message).
bool parse(const std::string& bytes, ladder::PairsFormat format, ladder::StringPairs& set) {
  try {
    set = ladder::parse_string_pairs(bytes, "fuzz.txt", format);
  } catch (const ladder::InputError& e) {
    ladder::fuzz::check_message(kReader, e);
    return false;
  }
  check_layout(set);
  check_symbols(set);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using ladder::PairsFormat;
  if (size > ladder::fuzz::kMaxInputBytes) return -1;
  const std::string bytes = ladder::fuzz::input_text(data, size);
  ladder::StringPairs set;
  if (parse(bytes, PairsFormat::tsv, set) && !renders_as(set, bytes, true))
    broken_promise(kReader, "format tsv: strings that are not the input's bytes");
  if (parse(bytes, PairsFormat::lines, set) && !renders_as(set, bytes, false))
    broken_promise(kReader, "format lines: strings that are not the input's bytes");
  if (parse(bytes, PairsFormat::automatic, set)) check_automatic(set, bytes);
  return 0;
}
