// Pairs of strings for the extended edit distance study (strings.hpp): the seeded generator and
// the text form. Each pair draws only from Rng(seed, pair), so generation runs in parallel over
// pairs and gives the same bytes for any thread count. The reader passes over the bytes a few
// times (what the file is, which format, then its strings) instead of keeping a table of lines:
// for a 2 GiB file of short lines such a table would outweigh the text.
//
// Tabs: a file of the line format may hold tabs in its strings, and a tab-separated file may
// hold control bytes. The reader therefore takes the format it is told ('tsv' or 'lines'), or
// detects it only where that cannot be wrong: no tab at all (lines), or one tab on every line
// and no control byte (tab-separated). Anything else is refused with the line that leaves the
// format open, asking for the format to be stated. The writer writes no tab at all, so what it
// writes reads back without a format; generated alphabets it writes are printable bytes.
#include "strings.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <stdexcept>
#include <string_view>
#include <tuple>
#include <utility>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "data_file.hpp"
#include "rng.hpp"

namespace ladder {
namespace {

constexpr std::uint64_t kMaxFileBytes = std::uint64_t{1} << 31;
// Beyond this many symbols a request is a mistake, not a data set: refused before anything is
// allocated, and small enough that three times it still fits in an int64.
constexpr std::int64_t kMaxSymbols = std::int64_t{1} << 60;

// The shortest spelling that reads back as v, so a message shows 0.1 rather than 0.1000...01.
std::string number(double v) {
  char buf[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

// Bytes below 32 but tab, LF and CR, and DEL: what a text file does not hold.
bool control_byte(unsigned char b) {
  return (b < 0x20 && b != '\t' && b != '\n' && b != '\r') || b == 0x7F;
}

// --- symbols ---------------------------------------------------------------------------------

// The bytes an alphabet of this size is taken from, in the order the header lists them.
std::string symbol_pool(int alphabet) {
  std::string pool;
  const auto add = [&](int lo, int hi) {
    for (int b = lo; b <= hi; ++b) pool += static_cast<char>(b);
  };
  if (alphabet <= 62) {
    add('a', 'z');
    add('A', 'Z');
    add('0', '9');
  } else if (alphabet <= 94) {
    add('!', '~');
  } else if (alphabet <= kMaxWrittenAlphabet) {
    add(' ', '~');
  } else if (alphabet <= 254) {
    add(0, 9);
    add(11, 12);
    add(14, 255);
  } else {
    add(0, 255);
  }
  return pool;
}

// The first `alphabet` bytes of the pool, in increasing byte value: code c is symbols[c], and
// reading a written file (codes in increasing byte order) gives back the same codes.
std::string symbol_set(int alphabet) {
  std::string s = symbol_pool(alphabet).substr(0, static_cast<std::size_t>(alphabet));
  std::sort(s.begin(), s.end(), [](char x, char y) {
    return static_cast<unsigned char>(x) < static_cast<unsigned char>(y);
  });
  return s;
}

// --- generation ------------------------------------------------------------------------------

void check_request(const StringGen& g) {
  const auto refuse = [](const std::string& why) { throw InputError("string pairs: " + why); };
  if (g.pairs < 1) refuse("pairs must be at least 1, got " + std::to_string(g.pairs));
  if (g.n < 0 || g.m < 0)
    refuse("the lengths n and m must be at least 0, got " + std::to_string(g.n) + " and " +
           std::to_string(g.m));
  if (g.alphabet < 1 || g.alphabet > 256)
    refuse("the alphabet must have 1 to 256 symbols, got " + std::to_string(g.alphabet));
  if (!(g.spread >= 0 && g.spread <= 1))
    refuse("spread must be in [0, 1], got " + number(g.spread));
  if (!(g.mutation <= 1))
    refuse("the mutation rate must be at most 1 (negative: B independent of A), got " +
           number(g.mutation));
  // A mutated B is at most twice as long as A: an insertion at every position.
  const bool mutating = g.mutation >= 0;
  std::int64_t total = 0;
  if (g.n > kMaxSymbols || g.m > kMaxSymbols ||
      __builtin_mul_overflow(g.pairs, mutating ? 3 * g.n : g.n + g.m, &total) ||
      total > kMaxSymbols)
    refuse(std::to_string(g.pairs) + " pairs with n = " + std::to_string(g.n) +
           (mutating ? "" : " and m = " + std::to_string(g.m)) +
           " are more symbols than can be addressed");
}

// A length uniform in [round(len (1 - spread)), len]; no draw when that range is one value.
std::int64_t draw_length(Rng& rng, std::int64_t len, double spread) {
  const auto lo = static_cast<std::int64_t>(std::llround(static_cast<double>(len) * (1 - spread)));
  return lo >= len ? len : rng.integer(std::max<std::int64_t>(lo, 0), len);
}

std::uint8_t draw_symbol(Rng& rng, int alphabet) {
  return static_cast<std::uint8_t>(rng.integer(0, alphabet - 1));
}

// A symbol other than s, uniformly; with a single symbol there is none, and s stays.
std::uint8_t draw_other_symbol(Rng& rng, int alphabet, std::uint8_t s) {
  if (alphabet == 1) return s;
  const auto t = static_cast<std::uint8_t>(rng.integer(0, alphabet - 2));
  return t >= s ? static_cast<std::uint8_t>(t + 1) : t;
}

void append_random(Rng& rng, int alphabet, std::int64_t count, std::vector<std::uint8_t>& out) {
  for (std::int64_t i = 0; i < count; ++i) out.push_back(draw_symbol(rng, alphabet));
}

enum Edit { kSubstitute, kInsert, kDelete, kSwap };

// Appends B: A (s[0, a_length)) with, at each position and with probability `rate`, one edit
// drawn uniformly. A swap takes the next position along, so that one is not edited again.
void append_mutated(Rng& rng, const StringGen& g, std::size_t a_length,
                    std::vector<std::uint8_t>& s) {
  for (std::size_t i = 0; i < a_length; ++i) {
    const std::uint8_t x = s[i];
    if (!(rng.uniform() < g.mutation)) {
      s.push_back(x);
      continue;
    }
    auto edit = static_cast<Edit>(rng.integer(0, 3));
    if (edit == kSwap && i + 1 == a_length) edit = kSubstitute;  // no next symbol
    switch (edit) {
      case kSubstitute: s.push_back(draw_other_symbol(rng, g.alphabet, x)); break;
      case kInsert:
        s.push_back(draw_symbol(rng, g.alphabet));
        s.push_back(x);
        break;
      case kDelete: break;
      case kSwap: {
        const std::uint8_t next = s[i + 1];
        s.push_back(next);
        s.push_back(x);
        ++i;
        break;
      }
    }
  }
}

// One pair's A and B, one after the other, before they are laid out in the set.
struct PairBuffer {
  std::vector<std::uint8_t> symbols;
  std::size_t a_length = 0;
};

// The lengths come first in the stream, then A's symbols, then B's (or A's edits).
void generate_pair(const StringGen& g, std::size_t k, PairBuffer& p) {
  Rng rng(g.seed, k);
  const bool mutating = g.mutation >= 0;
  const std::int64_t a = draw_length(rng, g.n, g.spread);
  const std::int64_t b = mutating ? a : draw_length(rng, g.m, g.spread);
  p.a_length = static_cast<std::size_t>(a);
  p.symbols.reserve(static_cast<std::size_t>(a + b));
  append_random(rng, g.alphabet, a, p.symbols);
  if (mutating)
    append_mutated(rng, g, p.a_length, p.symbols);
  else
    append_random(rng, g.alphabet, b, p.symbols);
}

// Calls f(k) for every pair, in parallel. An exception cannot leave an OpenMP region: the first
// one is kept and thrown again after it.
template <class F>
void for_each_pair(std::size_t pairs, F f) {
  std::exception_ptr failure;
  const auto n = static_cast<std::int64_t>(pairs);
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t k = 0; k < n; ++k) {
    try {
      f(static_cast<std::size_t>(k));
    } catch (...) {
#pragma omp critical(ladder_string_pairs_failure)
      if (!failure) failure = std::current_exception();
    }
  }
  if (failure) std::rethrow_exception(failure);
}

// Lays the pairs out one after the other, freeing each buffer once copied.
StringPairs assemble(std::vector<PairBuffer>& buffers, int alphabet) {
  StringPairs set;
  set.alphabet = alphabet;
  set.symbols = symbol_set(alphabet);
  set.offset.assign(2 * buffers.size() + 1, 0);
  for (std::size_t k = 0; k < buffers.size(); ++k) {
    set.offset[2 * k + 1] = set.offset[2 * k] + static_cast<std::int64_t>(buffers[k].a_length);
    set.offset[2 * k + 2] =
        set.offset[2 * k] + static_cast<std::int64_t>(buffers[k].symbols.size());
  }
  set.codes.resize(static_cast<std::size_t>(set.offset.back()));
  for_each_pair(buffers.size(), [&](std::size_t k) {
    std::copy(buffers[k].symbols.begin(), buffers[k].symbols.end(),
              set.codes.begin() + set.offset[2 * k]);
    std::vector<std::uint8_t>().swap(buffers[k].symbols);
  });
  return set;
}

// --- reading ---------------------------------------------------------------------------------

// Calls f(number, line) for every line (numbered from 1), without its '\n' and, when `crlf`,
// without the '\r' before it. A final '\n' ends the last line; it does not start another.
template <class F>
void for_each_line(const std::string& bytes, bool crlf, F f) {
  std::size_t pos = 0, number = 0;
  while (pos < bytes.size()) {
    const void* nl = std::memchr(bytes.data() + pos, '\n', bytes.size() - pos);
    const std::size_t end = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) -
                                                          bytes.data())
                               : bytes.size();
    const std::size_t stop = crlf && nl ? end - 1 : end;
    f(++number, std::string_view(bytes.data() + pos, stop - pos));
    pos = end + 1;
  }
}

// What one pass over the bytes finds out.
struct Survey {
  std::size_t lines = 0;
  bool crlf = false;  // every line that ends in '\n' ends in "\r\n" (and one does)
  std::size_t control_at = std::string::npos;  // the first control byte, if any
};

Survey survey(const std::string& bytes) {
  Survey s;
  std::size_t ended = 0, ended_cr = 0;
  const char* const last = bytes.data() + bytes.size();
  for_each_line(bytes, false, [&](std::size_t, std::string_view line) {
    ++s.lines;
    if (line.data() + line.size() == last) return;  // the last line, without its '\n'
    ++ended;
    ended_cr += !line.empty() && line.back() == '\r';
  });
  s.crlf = ended > 0 && ended_cr == ended;
  const auto control = std::find_if(bytes.begin(), bytes.end(), [](char c) {
    return control_byte(static_cast<unsigned char>(c));
  });
  if (control != bytes.end()) s.control_at = static_cast<std::size_t>(control - bytes.begin());
  return s;
}

std::string at_line(const std::string& file, std::size_t number) {
  return file + " line " + std::to_string(number);
}

// The first line whose tab count passes `pick`, and that count; {0, 0} when none does.
template <class Pick>
std::pair<std::size_t, std::ptrdiff_t> first_line_with(const std::string& bytes, const Survey& s,
                                                       Pick pick) {
  std::pair<std::size_t, std::ptrdiff_t> found{0, 0};
  for_each_line(bytes, s.crlf, [&](std::size_t number, std::string_view line) {
    if (found.first != 0) return;
    const std::ptrdiff_t tabs = std::count(line.begin(), line.end(), '\t');
    if (pick(tabs)) found = {number, tabs};
  });
  return found;
}

const auto kNotOneTab = [](std::ptrdiff_t tabs) { return tabs != 1; };
const auto kSomeTab = [](std::ptrdiff_t tabs) { return tabs != 0; };

std::string tabs_words(std::ptrdiff_t tabs) {
  return tabs == 0 ? "no tab" : tabs == 1 ? "one tab" : std::to_string(tabs) + " tabs";
}

const char* const kStateFormat =
    "state the file's format (data parameter 'format': 'tsv' or 'lines')";

// format tsv (stated, or implied by a name ending in .tsv): every line must be A<TAB>B.
void check_tab_separated(const std::string& bytes, const Survey& s, const std::string& file,
                         bool by_name) {
  const auto [number, tabs] = first_line_with(bytes, s, kNotOneTab);
  if (number != 0)
    throw InputError(at_line(file, number) + " holds " + tabs_words(tabs) +
                     ": a tab-separated pair (format 'tsv'" +
                     (by_name ? ", as the name ends in .tsv" : "") + ") is A<TAB>B, one tab");
}

// Why a file holding tabs, not one on every line, is not tab-separated, at the first line that
// shows it.
[[noreturn]] void refuse_tab_mix(const std::string& bytes, const Survey& s,
                                 const std::string& file) {
  auto [number, tabs] = first_line_with(bytes, s, kNotOneTab);
  if (number == 1 && tabs == 0) std::tie(number, tabs) = first_line_with(bytes, s, kSomeTab);
  const std::string tail = "; if the tabs belong to the strings, " + std::string(kStateFormat);
  if (tabs > 1)
    throw InputError(at_line(file, number) + " holds " + tabs_words(tabs) +
                     ": a tab-separated pair has one" + tail);
  throw InputError(at_line(file, number) +
                   (tabs ? " holds a tab but line 1 holds none"
                         : " holds no tab but line 1 holds one") +
                   ": either every line holds one tab (A<TAB>B) or none does (A and B on "
                   "consecutive lines)" + tail);
}

// format auto: whether the file is tab-separated, where that cannot be wrong. No tab at all:
// the line format (a tab-separated file has one on every line). One tab on every line and no
// control byte: tab-separated (the writer refuses the one set of lines that would look so).
// Anything else is refused, naming the line that leaves the format open.
bool detect_tab_separated(const std::string& bytes, const Survey& s, const std::string& file) {
  if (bytes.find('\t') == std::string::npos) return false;
  if (first_line_with(bytes, s, kNotOneTab).first != 0) refuse_tab_mix(bytes, s, file);
  if (s.control_at == std::string::npos) return true;
  const auto line = 1 + std::count(bytes.begin(), bytes.begin() + s.control_at, '\n');
  throw InputError(at_line(file, static_cast<std::size_t>(line)) + " holds the control byte " +
                   printable(std::string(1, bytes[s.control_at])) +
                   " and every line one tab: the file reads as tab-separated pairs (A<TAB>B) "
                   "or, tabs and control bytes being symbols, as one string per line; " +
                   kStateFormat);
}

// The strings' bytes, concatenated, and their offsets; codes come later.
void collect(const std::string& bytes, const Survey& s, bool tabs, StringPairs& set) {
  set.codes.reserve(bytes.size());
  set.offset.reserve((tabs ? 2 * s.lines : s.lines) + 1);
  set.offset.push_back(0);
  const auto add = [&](std::string_view str) {
    set.codes.insert(set.codes.end(), str.begin(), str.end());
    set.offset.push_back(static_cast<std::int64_t>(set.codes.size()));
  };
  for_each_line(bytes, s.crlf, [&](std::size_t, std::string_view line) {
    if (!tabs) return add(line);
    const std::size_t tab = line.find('\t');
    add(line.substr(0, tab));
    add(line.substr(tab + 1));
  });
}

// Replaces each byte by its code: its rank among the bytes that occur.
void encode(StringPairs& set) {
  std::array<bool, 256> seen{};
  for (std::uint8_t b : set.codes) seen[b] = true;
  std::array<std::uint8_t, 256> code{};
  for (int b = 0; b < 256; ++b) {
    if (!seen[b]) continue;
    code[b] = static_cast<std::uint8_t>(set.symbols.size());
    set.symbols += static_cast<char>(b);
  }
  if (set.symbols.empty()) set.symbols = "a";  // only empty strings: one symbol, never used
  set.alphabet = static_cast<int>(set.symbols.size());
  for (std::uint8_t& c : set.codes) c = code[c];
}

void check_size(std::uint64_t size, const std::string& file) {
  if (size == 0)
    throw InputError(file + " is empty: a file of string pairs holds at least one pair");
  if (size > kMaxFileBytes)
    throw InputError(file + " holds " + std::to_string(size) +
                     " bytes, more than the 2^31 (2147483648) a file of string pairs may hold");
}

bool ends_with_tsv(const std::string& name) {
  if (name.size() < 4) return false;
  std::string tail = name.substr(name.size() - 4);
  for (char& c : tail) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return tail == ".tsv";
}

StringPairs parse(const std::string& bytes, const std::string& name, PairsFormat format) {
  const std::string file = quoted_name(name);
  check_size(bytes.size(), file);
  check_text_start(bytes, file);
  const Survey s = survey(bytes);
  const bool by_name = format == PairsFormat::automatic && ends_with_tsv(name);
  if (by_name) format = PairsFormat::tsv;
  if (format == PairsFormat::tsv) check_tab_separated(bytes, s, file, by_name);
  const bool tabs = format == PairsFormat::tsv ||
                    (format == PairsFormat::automatic && detect_tab_separated(bytes, s, file));
  if (!tabs && s.lines % 2 != 0)
    throw InputError(file + " holds " + std::to_string(s.lines) +
                     (s.lines == 1 ? " line" : " lines") +
                     ", an odd number: in the line format each pair is two lines, A then B");
  StringPairs set;
  collect(bytes, s, tabs, set);
  encode(set);
  return set;
}

// --- writing ---------------------------------------------------------------------------------

// A set that does not hold together is the caller's bug, not the user's.
void check_consistent(const StringPairs& set) {
  bool ok = set.alphabet >= 1 && set.alphabet <= 256 &&
            set.symbols.size() == static_cast<std::size_t>(set.alphabet) &&
            set.offset.size() % 2 == 1 && set.offset.front() == 0 &&
            set.offset.back() == static_cast<std::int64_t>(set.codes.size());
  for (std::size_t s = 1; ok && s < set.offset.size(); ++s)
    ok = set.offset[s] >= set.offset[s - 1];
  ok = ok && std::all_of(set.codes.begin(), set.codes.end(),
                         [&](std::uint8_t c) { return c < set.alphabet; });
  if (!ok)
    throw std::invalid_argument("write_string_pairs: the set's alphabet, symbols, codes and "
                                "offsets do not agree");
}

std::string string_name(std::size_t s) {
  return "pair " + std::to_string(s / 2) + "'s " + (s % 2 ? "B" : "A");
}

// The first string holding the byte, or -1.
std::ptrdiff_t first_string_holding(const StringPairs& set, char byte) {
  const std::size_t at = set.symbols.find(byte);
  if (at == std::string::npos) return -1;
  for (std::size_t s = 0; s + 1 < set.offset.size(); ++s)
    if (std::find(set.codes.begin() + set.offset[s], set.codes.begin() + set.offset[s + 1],
                  static_cast<std::uint8_t>(at)) != set.codes.begin() + set.offset[s + 1])
      return static_cast<std::ptrdiff_t>(s);
  return -1;
}

bool every_string_ends_in_cr(const StringPairs& set) {
  for (std::size_t s = 0; s + 1 < set.offset.size(); ++s)
    if (set.offset[s + 1] == set.offset[s] ||
        set.symbols[set.codes[static_cast<std::size_t>(set.offset[s + 1] - 1)]] != '\r')
      return false;
  return true;
}

// The sets whose file would not read back as they are, without a format stated.
void check_writable(const StringPairs& set, const std::string& file) {
  const std::string cannot = "cannot write " + file + ": ";
  const std::ptrdiff_t newline = first_string_holding(set, '\n');
  if (newline >= 0)
    throw InputError(cannot + string_name(newline) + " holds a newline byte, which would end "
                                                     "its line");
  if (every_string_ends_in_cr(set))
    throw InputError(cannot + "every string ends in a carriage return (byte 13), which reading "
                              "the file back would take for CRLF line ends and drop");
  const std::ptrdiff_t tab = first_string_holding(set, '\t');
  if (tab >= 0)
    throw InputError(cannot + string_name(tab) + " holds a tab: a file of lines with tabs reads "
                     "as tab-separated pairs (A<TAB>B) or only with its format stated");
}

}  // namespace

StringPairs generate_string_pairs(const StringGen& g) {
  check_request(g);
  try {
    std::vector<PairBuffer> buffers(static_cast<std::size_t>(g.pairs));
    for_each_pair(buffers.size(), [&](std::size_t k) { generate_pair(g, k, buffers[k]); });
    return assemble(buffers, g.alphabet);
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  throw InputError("string pairs: " + std::to_string(g.pairs) + " pairs of lengths up to " +
                   std::to_string(g.n) + " and " +
                   std::to_string(g.mutation >= 0 ? 2 * g.n : g.m) +
                   " do not fit in memory");
}

void check_written_alphabet(int alphabet) {
  if (alphabet > kMaxWrittenAlphabet)
    throw InputError("string pairs of an alphabet of " + std::to_string(alphabet) +
                     " symbols cannot be written: a file holds at most " +
                     std::to_string(kMaxWrittenAlphabet) +
                     " (the printable bytes, which read back as they were); use an alphabet of " +
                     "at most " + std::to_string(kMaxWrittenAlphabet));
}

PairsFormat pairs_format(const std::string& name) {
  if (name == "auto") return PairsFormat::automatic;
  if (name == "tsv") return PairsFormat::tsv;
  if (name == "lines") return PairsFormat::lines;
  throw InputError("unknown format '" + printable(name) + "' for string pairs (auto, tsv, lines)");
}

StringPairs parse_string_pairs(const std::string& bytes, const std::string& name,
                               PairsFormat format) {
  try {
    return parse(bytes, name, format);
  } catch (const std::bad_alloc&) {
  } catch (const std::length_error&) {
  }
  throw InputError(quoted_name(name) + " holds more strings than fit in memory");
}

StringPairs read_string_pairs(const std::string& path, PairsFormat format) {
  const std::string file = quoted_name(path);
  const std::string bytes = read_whole_file(path, file, "a file of string pairs",
                                            [&](std::uintmax_t size) { check_size(size, file); });
  return parse_string_pairs(bytes, path, format);
}

void write_string_pairs(const std::string& path, const StringPairs& pairs) {
  const std::string file = quoted_name(path);
  if (pairs.pairs() == 0)
    throw InputError("cannot write " + file + ": the set holds no pairs (an empty file cannot be "
                     "read back)");
  check_consistent(pairs);
  check_writable(pairs, file);
  std::string text;
  text.reserve(pairs.codes.size() + pairs.offset.size());
  for (std::size_t s = 0; s + 1 < pairs.offset.size(); ++s) {
    for (auto i = pairs.offset[s]; i < pairs.offset[s + 1]; ++i)
      text += pairs.symbols[pairs.codes[static_cast<std::size_t>(i)]];
    text += '\n';
  }
  // Strings of a wide alphabet may begin with bytes every text reader refuses.
  const std::string start = refused_text_start(text);
  if (!start.empty())
    throw InputError("cannot write " + file + ": it would start with the bytes of " + start +
                     " (pair 0's first symbols), which reading it back refuses");
  write_file_atomically(path, text);
}

}  // namespace ladder
