// The extended edit distance study's data layer (datagen/strings): the pair generator
// (determinism, thread-count independence, lengths, symbols, mutation), the reader's two text
// formats and its refusals, and the writer's round trip and refusals.
#include <gtest/gtest.h>
#include <omp.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "datagen/base/errors.hpp"
#include "datagen/strings.hpp"
#include "tests/reader_checks.hpp"

namespace ladder {
namespace {

using namespace std::string_literals;

using testing_support::temp_path;
using testing_support::write_bytes;

StringGen gen(std::int64_t pairs, std::int64_t n, std::int64_t m, int alphabet,
              std::uint64_t seed = 7) {
  StringGen g;
  g.pairs = pairs;
  g.n = n;
  g.m = m;
  g.alphabet = alphabet;
  g.seed = seed;
  return g;
}

StringGen mutated(std::int64_t pairs, std::int64_t n, int alphabet, double rate) {
  StringGen g = gen(pairs, n, 0, alphabet);
  g.mutation = rate;
  return g;
}

void expect_same(const StringPairs& x, const StringPairs& y) {
  EXPECT_EQ(x.alphabet, y.alphabet);
  EXPECT_EQ(x.symbols, y.symbols);
  EXPECT_EQ(x.codes, y.codes);
  EXPECT_EQ(x.offset, y.offset);
}

std::vector<std::uint8_t> a_of(const StringPairs& s, std::size_t k) {
  return {s.a(k), s.a(k) + s.a_length(k)};
}
std::vector<std::uint8_t> b_of(const StringPairs& s, std::size_t k) {
  return {s.b(k), s.b(k) + s.b_length(k)};
}

// String s of the set as the bytes its codes stand for.
std::string text_of(const StringPairs& set, std::size_t s) {
  std::string t;
  for (auto i = set.offset[s]; i < set.offset[s + 1]; ++i) t += set.symbols[set.codes[i]];
  return t;
}

std::vector<std::string> texts(const StringPairs& set) {
  std::vector<std::string> out;
  for (std::size_t s = 0; s + 1 < set.offset.size(); ++s) out.push_back(text_of(set, s));
  return out;
}

std::string read_whole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The smallest number of substitutions, insertions, deletions and swaps of adjacent symbols
// (each of cost 1) that turn x into y: the edits the mutation makes.
std::int64_t edits_between(const std::vector<std::uint8_t>& x, const std::vector<std::uint8_t>& y) {
  const std::size_t n = x.size(), m = y.size();
  std::vector<std::vector<std::int64_t>> d(n + 1, std::vector<std::int64_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = std::int64_t(i);
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = std::int64_t(j);
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (x[i - 1] != y[j - 1])});
      if (i > 1 && j > 1 && x[i - 1] == y[j - 2] && x[i - 2] == y[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

// --- generator ------------------------------------------------------------------------------

TEST(EedGenerator, DeterministicAndSeeded) {
  const StringGen g = gen(30, 50, 40, 4);
  expect_same(generate_string_pairs(g), generate_string_pairs(g));
  StringGen other = g;
  other.seed = 8;
  EXPECT_NE(generate_string_pairs(other).codes, generate_string_pairs(g).codes);
}

TEST(EedGenerator, ThreadCountIndependent) {
  StringGen spread = gen(257, 120, 90, 20);
  spread.spread = 0.7;
  StringGen mutating = mutated(131, 200, 4, 0.2);
  mutating.spread = 0.3;
  const int saved = omp_get_max_threads();
  for (const StringGen& g : {spread, mutating, gen(64, 33, 0, 256)}) {
    omp_set_num_threads(1);
    const StringPairs one = generate_string_pairs(g);
    omp_set_num_threads(2);
    const StringPairs two = generate_string_pairs(g);
    expect_same(one, two);
  }
  omp_set_num_threads(saved);
}

TEST(EedGenerator, PairsDependOnlyOnSeedAndIndex) {
  StringGen g = gen(40, 30, 20, 10);
  g.spread = 0.5;
  const StringPairs big = generate_string_pairs(g);
  g.pairs = 9;
  const StringPairs small = generate_string_pairs(g);
  ASSERT_EQ(small.pairs(), 9u);
  for (std::size_t k = 0; k < small.pairs(); ++k) {
    EXPECT_EQ(a_of(small, k), a_of(big, k));
    EXPECT_EQ(b_of(small, k), b_of(big, k));
  }
}

TEST(EedGenerator, LayoutAndExactLengthsWithoutSpread) {
  const StringPairs s = generate_string_pairs(gen(12, 17, 5, 3));
  EXPECT_EQ(s.pairs(), 12u);
  ASSERT_EQ(s.offset.size(), 25u);
  EXPECT_EQ(s.offset.front(), 0);
  EXPECT_EQ(s.offset.back(), std::int64_t(s.codes.size()));
  EXPECT_EQ(s.codes.size(), 12u * 22);
  for (std::size_t k = 0; k < s.pairs(); ++k) {
    EXPECT_EQ(s.a_length(k), 17);
    EXPECT_EQ(s.b_length(k), 5);
  }
  // Empty strings are lengths like any other.
  const StringPairs empty = generate_string_pairs(gen(3, 0, 2, 5));
  EXPECT_EQ(empty.a_length(2), 0);
  EXPECT_EQ(empty.b_length(2), 2);
  const StringPairs none = generate_string_pairs(gen(2, 0, 0, 5));
  EXPECT_TRUE(none.codes.empty());
  EXPECT_EQ(none.offset, (std::vector<std::int64_t>(5, 0)));
}

TEST(EedGenerator, LengthsWithSpread) {
  StringGen g = gen(400, 1000, 101, 4);
  g.spread = 0.25;
  const StringPairs s = generate_string_pairs(g);
  std::int64_t a_lo = g.n, a_hi = 0, b_lo = g.m, b_hi = 0;
  for (std::size_t k = 0; k < s.pairs(); ++k) {
    a_lo = std::min(a_lo, s.a_length(k));
    a_hi = std::max(a_hi, s.a_length(k));
    b_lo = std::min(b_lo, s.b_length(k));
    b_hi = std::max(b_hi, s.b_length(k));
  }
  EXPECT_GE(a_lo, 750);
  EXPECT_LE(a_hi, 1000);
  EXPECT_LT(a_lo, 760);  // 400 draws reach both ends of [750, 1000]
  EXPECT_GT(a_hi, 990);
  EXPECT_EQ(b_lo, 76);   // round(101 * 0.75) = round(75.75)
  EXPECT_EQ(b_hi, 101);
  // Spread 1: anything from empty to the full length.
  g.spread = 1;
  g.n = 3;
  const StringPairs full = generate_string_pairs(g);
  std::vector<int> seen(4, 0);
  for (std::size_t k = 0; k < full.pairs(); ++k) ++seen.at(std::size_t(full.a_length(k)));
  for (int c : seen) EXPECT_GT(c, 50);
}

TEST(EedGenerator, SymbolsInRangeAndUniform) {
  for (int alphabet : {1, 2, 4, 26, 94, 200, 256}) {
    const StringPairs s = generate_string_pairs(gen(50, 400, 400, alphabet));
    EXPECT_EQ(s.alphabet, alphabet);
    std::vector<std::int64_t> count(std::size_t(alphabet), 0);
    for (std::uint8_t c : s.codes) {
      ASSERT_LT(c, alphabet);
      ++count[c];
    }
    const double expected = double(s.codes.size()) / alphabet;
    for (std::int64_t c : count) EXPECT_NEAR(double(c), expected, 6 * std::sqrt(expected) + 1);
  }
}

TEST(EedGenerator, SymbolSetsIncreaseByByteValue) {
  const auto set = [](int alphabet) {
    return generate_string_pairs(gen(1, 0, 0, alphabet)).symbols;
  };
  EXPECT_EQ(set(1), "a");
  EXPECT_EQ(set(4), "abcd");
  EXPECT_EQ(set(26), "abcdefghijklmnopqrstuvwxyz");
  EXPECT_EQ(set(30), "ABCDabcdefghijklmnopqrstuvwxyz");
  EXPECT_EQ(set(52), "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
  EXPECT_EQ(set(62), "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
  std::string printable;
  for (int b = '!'; b <= '~'; ++b) printable += char(b);
  EXPECT_EQ(set(63), printable.substr(0, 63));  // '!' to '_'
  EXPECT_EQ(set(94), printable);
  // Every printable byte: the widest alphabet a file holds.
  EXPECT_EQ(set(kMaxWrittenAlphabet), " " + printable);
  std::string bytes;
  for (int b = 0; b < 256; ++b) bytes += char(b);
  std::string no_line_ends = bytes;
  no_line_ends.erase(13, 1);
  no_line_ends.erase(10, 1);
  EXPECT_EQ(set(254), no_line_ends);
  EXPECT_EQ(set(200), no_line_ends.substr(0, 200));
  EXPECT_EQ(set(96), no_line_ends.substr(0, 96));
  EXPECT_EQ(set(255), bytes.substr(0, 255));
  EXPECT_EQ(set(256), bytes);
  for (int alphabet = 1; alphabet <= 256; ++alphabet) {
    const std::string s = set(alphabet);
    ASSERT_EQ(s.size(), std::size_t(alphabet));
    for (std::size_t i = 1; i < s.size(); ++i)
      ASSERT_LT((unsigned char)s[i - 1], (unsigned char)s[i]) << "alphabet " << alphabet;
  }
}

TEST(EedGenerator, MutationRateZeroCopiesA) {
  StringGen g = mutated(50, 300, 10, 0);
  g.spread = 0.5;
  g.m = 7;  // ignored with a mutation rate
  const StringPairs s = generate_string_pairs(g);
  for (std::size_t k = 0; k < s.pairs(); ++k) EXPECT_EQ(a_of(s, k), b_of(s, k)) << "pair " << k;
}

TEST(EedGenerator, MutationMakesFewEdits) {
  const StringPairs s = generate_string_pairs(mutated(100, 1000, 4, 0.1));
  int differ = 0;
  for (std::size_t k = 0; k < s.pairs(); ++k) {
    differ += a_of(s, k) != b_of(s, k);
    EXPECT_EQ(s.a_length(k), 1000);
    // Insertions and deletions are equally likely: about 25 of each per pair.
    EXPECT_NEAR(double(s.b_length(k)), 1000.0, 40.0) << "pair " << k;
  }
  EXPECT_GE(differ, 1);
  EXPECT_GT(differ, 95);  // about 100 edits a pair: every pair differs
  for (std::size_t k = 0; k < 8; ++k) {
    const std::int64_t d = edits_between(a_of(s, k), b_of(s, k));
    EXPECT_GT(d, 50) << "pair " << k;  // about 0.1 * 1000, a little fewer by swaps
    EXPECT_LT(d, 150) << "pair " << k;
  }
}

TEST(EedGenerator, FullMutationStaysWithinTwiceTheLength) {
  const StringPairs s = generate_string_pairs(mutated(200, 50, 3, 1.0));
  for (std::size_t k = 0; k < s.pairs(); ++k) {
    EXPECT_LE(s.b_length(k), 100);
    EXPECT_NE(a_of(s, k), b_of(s, k));
  }
  // One symbol: a substitution has nothing to substitute, so B holds only that symbol.
  const StringPairs one = generate_string_pairs(mutated(20, 30, 1, 1.0));
  EXPECT_TRUE(std::all_of(one.codes.begin(), one.codes.end(), [](auto c) { return c == 0; }));
  const StringPairs empty = generate_string_pairs(mutated(3, 0, 5, 0.5));
  EXPECT_TRUE(empty.codes.empty());
}

TEST(EedGenerator, RefusesBadRequests) {
  EXPECT_INPUT_ERROR(generate_string_pairs(gen(0, 10, 10, 4)), "string pairs", "pairs", "got 0");
  EXPECT_INPUT_ERROR(generate_string_pairs(gen(-3, 10, 10, 4)), "pairs", "-3");
  EXPECT_INPUT_ERROR(generate_string_pairs(gen(1, -1, 10, 4)), "n and m", "-1");
  EXPECT_INPUT_ERROR(generate_string_pairs(gen(1, 10, -1, 4)), "n and m", "-1");
  EXPECT_INPUT_ERROR(generate_string_pairs(gen(1, 10, 10, 0)), "1 to 256", "got 0");
  EXPECT_INPUT_ERROR(generate_string_pairs(gen(1, 10, 10, 257)), "1 to 256", "257");
  for (double bad : {-0.1, 1.5, std::nan("")}) {
    StringGen g = gen(1, 10, 10, 4);
    g.spread = bad;
    EXPECT_INPUT_ERROR(generate_string_pairs(g), "spread", "[0, 1]");
  }
  StringGen g = gen(1, 10, 10, 4);
  g.spread = 1.1;
  EXPECT_INPUT_ERROR(generate_string_pairs(g), "got 1.1");  // as given, not 1.1000000000000001
  for (double bad : {1.01, std::nan(""), std::numeric_limits<double>::infinity()})
    EXPECT_INPUT_ERROR(generate_string_pairs(mutated(1, 10, 4, bad)), "mutation rate",
                       "at most 1");
  EXPECT_INPUT_ERROR(generate_string_pairs(gen(std::int64_t{1} << 40, 1 << 30, 1 << 30, 4)),
                     "more symbols than can be addressed");
  EXPECT_INPUT_ERROR(
      generate_string_pairs(mutated(1, std::numeric_limits<std::int64_t>::max(), 4, 0.5)),
      "more symbols than can be addressed");
}

// --- reader ---------------------------------------------------------------------------------

TEST(EedReader, LineFormat) {
  const StringPairs s = parse_string_pairs("cab\nba\n\nc\n", "f.txt");
  EXPECT_EQ(s.pairs(), 2u);
  EXPECT_EQ(s.alphabet, 3);
  EXPECT_EQ(s.symbols, "abc");
  EXPECT_EQ(s.codes, (std::vector<std::uint8_t>{2, 0, 1, 1, 0, 2}));
  EXPECT_EQ(s.offset, (std::vector<std::int64_t>{0, 3, 5, 5, 6}));
  // The last line may lack its '\n'.
  expect_same(parse_string_pairs("cab\nba\n\nc", "f.txt"), s);
}

TEST(EedReader, TabFormat) {
  const StringPairs s = parse_string_pairs("cab\tba\n\tc\n", "f.tsv");
  expect_same(s, parse_string_pairs("cab\nba\n\nc\n", "f.txt"));
  expect_same(parse_string_pairs("cab\tba\n\tc", "f.tsv"), s);
  EXPECT_EQ(texts(parse_string_pairs("x y\t z\n", "f")), (std::vector<std::string>{"x y", " z"}));
}

TEST(EedReader, EmptyStrings) {
  const StringPairs blank = parse_string_pairs("\n\n", "f");
  EXPECT_EQ(blank.pairs(), 1u);
  EXPECT_EQ(blank.alphabet, 1);
  EXPECT_EQ(blank.symbols, "a");
  EXPECT_TRUE(blank.codes.empty());
  EXPECT_EQ(blank.offset, (std::vector<std::int64_t>{0, 0, 0}));
  expect_same(parse_string_pairs("\t\n", "f"), blank);
  expect_same(parse_string_pairs("\t", "f"), blank);
  EXPECT_EQ(texts(parse_string_pairs("a\t\n\tb\n\t\n", "f")),
            (std::vector<std::string>{"a", "", "", "b", "", ""}));
  EXPECT_EQ(texts(parse_string_pairs("\nxy\n", "f")), (std::vector<std::string>{"", "xy"}));
}

TEST(EedReader, CrlfLineEnds) {
  EXPECT_EQ(texts(parse_string_pairs("ab\r\ncd\r\n", "f")), (std::vector<std::string>{"ab", "cd"}));
  EXPECT_EQ(texts(parse_string_pairs("ab\r\ncd", "f")), (std::vector<std::string>{"ab", "cd"}));
  EXPECT_EQ(texts(parse_string_pairs("a\tb\r\n\tc\r\n", "f")),
            (std::vector<std::string>{"a", "b", "", "c"}));
  EXPECT_EQ(texts(parse_string_pairs("\r\n\r\n", "f")), (std::vector<std::string>{"", ""}));
  // Not every line ends in "\r\n": the '\r' are bytes of the strings.
  const StringPairs mixed = parse_string_pairs("ab\r\ncd\n", "f");
  EXPECT_EQ(texts(mixed), (std::vector<std::string>{"ab\r", "cd"}));
  EXPECT_EQ(mixed.symbols, "\rabcd");
}

TEST(EedReader, CodesAreTheBytesThatOccurInIncreasingOrder) {
  const StringPairs s = parse_string_pairs("\xff z\n~\x80!\n", "f");
  EXPECT_EQ(s.symbols, " !z~\x80\xff"s);
  EXPECT_EQ(s.alphabet, 6);
  EXPECT_EQ(s.codes, (std::vector<std::uint8_t>{5, 0, 2, 3, 4, 1}));
}

TEST(EedReader, ControlBytesAndTabsReadInTheLineFormatWhenStated) {
  // What a file of strings holding tabs and control bytes may hold.
  const StringPairs s =
      parse_string_pairs("\x01\t\t\n\t\n\x02\n\x03\tx\n", "f", PairsFormat::lines);
  EXPECT_EQ(texts(s), (std::vector<std::string>{"\x01\t\t", "\t", "\x02", "\x03\tx"}));
  EXPECT_EQ(texts(parse_string_pairs("a\x7f\tb\n\tc\n", "f", PairsFormat::lines)),
            (std::vector<std::string>{"a\x7f\tb", "\tc"}));
  // No tab at all: the line format, control bytes or not.
  EXPECT_EQ(texts(parse_string_pairs("\0\n\0\n"s, "f")),
            (std::vector<std::string>{"\0"s, "\0"s}));
  // Left to detection, a file with tabs not one on every line is refused with its line.
  EXPECT_INPUT_ERROR(parse_string_pairs("\x01\t\t\n\t\n\x02\n\x03\tx\n", "f"),
                     "'f' line 1 holds 2 tabs", "'format'", "'lines'");
  EXPECT_INPUT_ERROR(parse_string_pairs("a\x7f\tb\n\tc\nd\ne\n", "f"),
                     "'f' line 3 holds no tab but line 1 holds one", "'lines'");
}

// "abc<TAB>abd\nxy<BEL>z<TAB>qq\n": two tab-separated pairs, or one pair of lines whose tabs
// and BEL are symbols. The reader does not choose: it takes the format stated, or the name.
TEST(EedReader, AControlByteInATabSeparatedFileIsAmbiguous) {
  const std::string bel = "abc\tabd\nxy\x07z\tqq\n";
  EXPECT_INPUT_ERROR(parse_string_pairs(bel, "bel.txt"), "'bel.txt' line 2 holds the control byte",
                     "\\x07", "every line one tab", "'tsv' or 'lines'");
  EXPECT_EQ(texts(parse_string_pairs(bel, "bel.txt", PairsFormat::tsv)),
            (std::vector<std::string>{"abc", "abd", "xy\x07z", "qq"}));
  EXPECT_EQ(texts(parse_string_pairs(bel, "bel.txt", PairsFormat::lines)),
            (std::vector<std::string>{"abc\tabd", "xy\x07z\tqq"}));
  EXPECT_EQ(parse_string_pairs(bel, "bel.tsv").pairs(), 2u);
  EXPECT_EQ(parse_string_pairs(bel, "BEL.TSV").pairs(), 2u);
  EXPECT_INPUT_ERROR(parse_string_pairs("ab\tcd\n\0x\tyz\n"s, "nul.txt"),
                     "'nul.txt' line 2 holds the control byte \\x00");
  EXPECT_INPUT_ERROR(parse_string_pairs("\x01\tb\nc\td\n", "f"), "'f' line 1 holds the control");
}

TEST(EedReader, StatedFormatsAreHeldTo) {
  EXPECT_INPUT_ERROR(parse_string_pairs("abc\tabd\nxyz\n", "f", PairsFormat::tsv),
                     "'f' line 2 holds no tab", "format 'tsv'");
  EXPECT_INPUT_ERROR(parse_string_pairs("a\tb\tc\n", "f", PairsFormat::tsv),
                     "'f' line 1 holds 2 tabs", "format 'tsv'");
  EXPECT_INPUT_ERROR(parse_string_pairs("abc\nabd\n", "pairs.tsv"),
                     "'pairs.tsv' line 1 holds no tab", "the name ends in .tsv");
  EXPECT_EQ(texts(parse_string_pairs("abc\nabd\n", "pairs.tsv", PairsFormat::lines)),
            (std::vector<std::string>{"abc", "abd"}));
  EXPECT_INPUT_ERROR(parse_string_pairs("a\tb\n", "f", PairsFormat::lines), "1 line,", "odd");
  EXPECT_EQ(texts(parse_string_pairs("a\tb\r\nc\td\r\n", "f", PairsFormat::tsv)),
            (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(EedReader, FormatNames) {
  EXPECT_EQ(pairs_format("auto"), PairsFormat::automatic);
  EXPECT_EQ(pairs_format("tsv"), PairsFormat::tsv);
  EXPECT_EQ(pairs_format("lines"), PairsFormat::lines);
  EXPECT_INPUT_ERROR(pairs_format("csv"), "unknown format 'csv'", "auto, tsv, lines");
}

// As every other text reader: a byte-order mark is not three symbols, a compressed file is
// named as such, in every format.
TEST(EedReader, RefusesByteOrderMarksAndCompressedFiles) {
  for (PairsFormat f : {PairsFormat::automatic, PairsFormat::tsv, PairsFormat::lines}) {
    EXPECT_INPUT_ERROR(parse_string_pairs("\xEF\xBB\xBF" "abc\tabd\n", "bom.txt", f),
                       "'bom.txt' starts with a UTF-8 byte-order mark (BOM)");
    EXPECT_INPUT_ERROR(parse_string_pairs("\xFF\xFE" "a\0\n\0"s, "u16.txt", f), "UTF-16");
    EXPECT_INPUT_ERROR(parse_string_pairs("\x1f\x8b\x08\x00\x00\n\n"s, "p.txt.gz", f),
                       "'p.txt.gz' is gzip-compressed: gunzip it first");
  }
}

TEST(EedReader, RefusesEmptyFilesAndOddLineCounts) {
  EXPECT_INPUT_ERROR(parse_string_pairs("", "f.txt"), "'f.txt' is empty");
  EXPECT_INPUT_ERROR(parse_string_pairs("\n", "f.txt"), "'f.txt'", "1 line,", "odd");
  EXPECT_INPUT_ERROR(parse_string_pairs("a\nb\nc\n", "f.txt"), "'f.txt'", "3 lines", "odd");
  EXPECT_INPUT_ERROR(parse_string_pairs("a\nb\nc", "f.txt"), "3 lines");
  EXPECT_INPUT_ERROR(parse_string_pairs("a\nb\n\n", "f.txt"), "3 lines");
  EXPECT_INPUT_ERROR(parse_string_pairs("\x01\n", "f.txt"), "1 line,");
}

TEST(EedReader, RefusesAMixOfFormats) {
  EXPECT_INPUT_ERROR(parse_string_pairs("a\tb\nc\n", "f.txt"),
                     "'f.txt' line 2 holds no tab but line 1 holds one", "A<TAB>B");
  EXPECT_INPUT_ERROR(parse_string_pairs("a\nb\nc\td\ne\n", "f.txt"),
                     "'f.txt' line 3 holds a tab but line 1 holds none");
  EXPECT_INPUT_ERROR(parse_string_pairs("a\tb\nc\td\ne\tf\tg\n", "f.txt"),
                     "'f.txt' line 3 holds 2 tabs: a tab-separated pair has one");
  EXPECT_INPUT_ERROR(parse_string_pairs("\t\t\t\n", "f.txt"), "line 1 holds 3 tabs");
  EXPECT_INPUT_ERROR(parse_string_pairs("a\nb\nc\t\td\ne\n", "f.txt"), "line 3 holds 2 tabs");
}

TEST(EedReader, NamesTheFilePrintably) {
  EXPECT_INPUT_ERROR(parse_string_pairs("a\n", "odd\nname.txt"), "'odd\\x0aname.txt'");
}

TEST(EedReader, ReadsFiles) {
  EXPECT_EQ(texts(read_string_pairs(write_bytes("pairs.txt", "ACGT\nAGT\nTT\n\n"))),
            (std::vector<std::string>{"ACGT", "AGT", "TT", ""}));
  EXPECT_EQ(texts(read_string_pairs(write_bytes("pairs.tsv", "ACGT\tAGT\r\nT\tTT\r\n"))),
            (std::vector<std::string>{"ACGT", "AGT", "T", "TT"}));
}

TEST(EedReader, RefusesFilesItCannotRead) {
  EXPECT_INPUT_ERROR(read_string_pairs(temp_path("absent.txt")), "'", "absent.txt'",
                     "no such file");
  std::filesystem::create_directories(temp_path("pairs_dir"));
  EXPECT_INPUT_ERROR(read_string_pairs(temp_path("pairs_dir")), "is a directory");
  EXPECT_INPUT_ERROR(read_string_pairs(write_bytes("empty.txt", "")), "'", "empty.txt' is empty");
  const std::string fifo = temp_path("pairs_fifo.txt");
  std::filesystem::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_INPUT_ERROR(read_string_pairs(fifo), "pairs_fifo.txt' is not a regular file");
  std::filesystem::remove(fifo);
  // A sparse file: its size is refused before a byte is read.
  const std::string big = write_bytes("big.txt", "a\n");
  std::filesystem::resize_file(big, (std::uintmax_t{1} << 31) + 1);
  EXPECT_INPUT_ERROR(read_string_pairs(big), "big.txt' holds 2147483649 bytes", "2^31");
  std::filesystem::remove(big);
}

// --- writer ---------------------------------------------------------------------------------

TEST(EedWriter, RoundTrip) {
  // Every alphabet a file holds reads back without a format stated, as a config reads it.
  for (int alphabet : {4, 10, 26, 94, kMaxWrittenAlphabet}) {
    StringGen g = gen(40, 600, 500, alphabet, std::uint64_t(alphabet));
    g.spread = 0.5;
    const StringPairs s = generate_string_pairs(g);
    const std::string path = temp_path("round" + std::to_string(alphabet) + ".txt");
    write_string_pairs(path, s);
    const StringPairs back = read_string_pairs(path);
    SCOPED_TRACE(alphabet);
    expect_same(back, s);
  }
  StringPairs m = generate_string_pairs(mutated(30, 400, 26, 0.3));
  write_string_pairs(temp_path("round_mutated.txt"), m);
  expect_same(read_string_pairs(temp_path("round_mutated.txt")), m);
}

TEST(EedWriter, WritesConsecutiveLines) {
  StringPairs s;
  s.alphabet = 3;
  s.symbols = "\rab";
  s.codes = {1, 2, 0, 1, 1};
  s.offset = {0, 3, 3, 3, 5};  // "ab\r", "", "", "aa"
  const std::string path = temp_path("lines.txt");
  write_string_pairs(path, s);
  EXPECT_EQ(read_whole(path), "ab\r\n\n\naa\n");
  // Some strings end in '\r', not all: the '\r' come back.
  expect_same(read_string_pairs(path), s);
  // Over a file that was there before.
  write_string_pairs(path, generate_string_pairs(gen(1, 2, 2, 1)));
  EXPECT_EQ(read_whole(path), "aa\naa\n");
}

TEST(EedWriter, RefusesWhatCannotBeReadBack) {
  // Generated alphabets beyond the printable bytes are refused before anything is generated.
  EXPECT_NO_THROW(check_written_alphabet(kMaxWrittenAlphabet));
  for (int alphabet : {kMaxWrittenAlphabet + 1, 200, 255, 256})
    EXPECT_INPUT_ERROR(check_written_alphabet(alphabet), std::to_string(alphabet) + " symbols",
                       "at most 95");
  // A wide alphabet's set holds tabs and control bytes: such a file would be refused unless
  // its format were stated.
  const StringPairs wide = generate_string_pairs(gen(8, 100, 100, 200));
  EXPECT_INPUT_ERROR(write_string_pairs(temp_path("wide.txt"), wide), "'", "wide.txt'", "tab");
  EXPECT_FALSE(std::filesystem::exists(temp_path("wide.txt")));

  StringPairs newline;
  newline.alphabet = 2;
  newline.symbols = "\na";
  newline.codes = {1, 1, 0};
  newline.offset = {0, 1, 3};
  EXPECT_INPUT_ERROR(write_string_pairs(temp_path("nl.txt"), newline), "pair 0's B",
                     "newline");

  StringPairs cr;
  cr.alphabet = 2;
  cr.symbols = "\ra";
  cr.codes = {1, 0, 0};
  cr.offset = {0, 2, 3};  // "a\r", "\r"
  EXPECT_INPUT_ERROR(write_string_pairs(temp_path("cr.txt"), cr), "every string ends in",
                     "CRLF");

  StringPairs tab;
  tab.alphabet = 2;
  tab.symbols = "\ta";
  tab.codes = {1, 1, 0, 1};
  tab.offset = {0, 1, 4};
  EXPECT_INPUT_ERROR(write_string_pairs(temp_path("tab.txt"), tab), "pair 0's B", "tab");
  // With a control byte too (which once made the file readable as lines, stated).
  tab.alphabet = 3;
  tab.symbols = "\x01\ta";
  tab.codes = {2, 0, 1, 2};
  tab.offset = {0, 1, 4};
  EXPECT_INPUT_ERROR(write_string_pairs(temp_path("tab.txt"), tab), "pair 0's B", "tab");
  EXPECT_FALSE(std::filesystem::exists(temp_path("tab.txt")));

  StringPairs bom;
  bom.alphabet = 4;
  bom.symbols = "a\xBB\xBF\xEF";
  bom.codes = {3, 1, 2, 0, 0};
  bom.offset = {0, 4, 5};  // "\xEF\xBB\xBFa", "a"
  EXPECT_INPUT_ERROR(write_string_pairs(temp_path("bom.txt"), bom), "UTF-8 byte-order mark",
                     "reading it back refuses");
  EXPECT_FALSE(std::filesystem::exists(temp_path("bom.txt")));

  StringPairs none;
  EXPECT_INPUT_ERROR(write_string_pairs(temp_path("none.txt"), none), "no pairs");
  none.offset = {0};
  EXPECT_INPUT_ERROR(write_string_pairs(temp_path("none.txt"), none), "no pairs");
}

TEST(EedWriter, RefusesAnInconsistentSet) {
  StringPairs s = generate_string_pairs(gen(2, 3, 3, 4));
  s.codes[1] = 4;
  EXPECT_THROW(write_string_pairs(temp_path("bad.txt"), s), std::invalid_argument);
  s = generate_string_pairs(gen(2, 3, 3, 4));
  s.offset.back() += 1;
  EXPECT_THROW(write_string_pairs(temp_path("bad.txt"), s), std::invalid_argument);
  s = generate_string_pairs(gen(2, 3, 3, 4));
  s.symbols.pop_back();
  EXPECT_THROW(write_string_pairs(temp_path("bad.txt"), s), std::invalid_argument);
}

}  // namespace
}  // namespace ladder
