// The readers on hostile input: strict numbers (datagen/numbers), JSON (datagen/json_file),
// .npy (datagen/npy) and UCR text (datagen/ucr). Every failure must be an InputError whose
// message is one printable line naming the file, shape or parameter.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "datagen/base/atomic_file.hpp"
#include "datagen/base/errors.hpp"
#include "datagen/base/printable.hpp"
#include "tests/reader_checks.hpp"
#include "datagen/data_file.hpp"
#include "datagen/json_file.hpp"
#include "datagen/npy.hpp"
#include "datagen/numbers.hpp"
#include "datagen/series.hpp"

namespace ladder {
namespace {

using namespace std::string_literals;

using testing_support::temp_path;
using testing_support::write_bytes;

// --- numbers -------------------------------------------------------------------------------

TEST(Numbers, Int64AcceptsWholeIntegers) {
  EXPECT_EQ(parse_int64("0", "x"), 0);
  EXPECT_EQ(parse_int64("-5", "x"), -5);
  EXPECT_EQ(parse_int64("+7", "x"), 7);
  EXPECT_EQ(parse_int64("007", "x"), 7);
  EXPECT_EQ(parse_int64("9223372036854775807", "x"), INT64_MAX);
  EXPECT_EQ(parse_int64("-9223372036854775808", "x"), INT64_MIN);
}

TEST(Numbers, Int64NeedsTheWholeText) {
  EXPECT_EQ(EXPECT_INPUT_ERROR(parse_int64(" 8", "parameter 'n'")),
            "parameter 'n' must be an integer, got ' 8'");
  for (const std::string& bad : {"8 "s, "8x"s, ""s, "1.0"s, "1e3"s, "0x10"s, "+-1"s, "--1"s,
                                 "-"s, "+"s, "8\0"s "1"s})
    EXPECT_INPUT_ERROR(parse_int64(bad, "parameter 'n'"), "parameter 'n'", "must be an integer");
  EXPECT_INPUT_ERROR(parse_int64("8\0"s "1"s, "parameter 'n'"), "got '8\\x001'");
}

TEST(Numbers, Int64OutOfRangeIsNeverEchoedWrapped) {
  for (const std::string& big : {"9223372036854775808"s, "-9223372036854775809"s,
                                 "99999999999999999999"s, "18446744073709551616"s}) {
    const std::string m = EXPECT_INPUT_ERROR(parse_int64(big, "parameter 'n'"), "parameter 'n'",
                                             "'" + big + "'", "out of range of a 64-bit integer");
    if (big[0] != '-') EXPECT_EQ(m.find("-9"), std::string::npos) << m;  // no wrapped value
  }
}

TEST(Numbers, DoubleAcceptsFiniteNumbers) {
  EXPECT_EQ(parse_double("1", "x"), 1.0);
  EXPECT_EQ(parse_double("-2.5e-3", "x"), -2.5e-3);
  EXPECT_EQ(parse_double(".5", "x"), 0.5);
  EXPECT_EQ(parse_double("5.", "x"), 5.0);
  EXPECT_EQ(parse_double("+1", "x"), 1.0);
  EXPECT_EQ(parse_double("1.7976931348623157e308", "x"), DBL_MAX);
  EXPECT_EQ(parse_double("1e-400", "x"), 0.0);  // underflow reads as zero
  EXPECT_TRUE(std::signbit(parse_double("-1e-400", "x")));
}

TEST(Numbers, DoubleRejectsNonFiniteAndPartialText) {
  for (const std::string& bad : {"nan"s, "NaN"s, "inf"s, "-inf"s, "infinity"s})
    EXPECT_INPUT_ERROR(parse_double(bad, "parameter 'x'"), "parameter 'x'", "finite", bad);
  EXPECT_INPUT_ERROR(parse_double("1e400", "parameter 'x'"), "parameter 'x'", "1e400",
                     "magnitude");
  for (const std::string& bad : {"1e"s, ""s, " 1"s, "1 "s, "0x1p3"s, "1,5"s, "abc"s, "1\0"s})
    EXPECT_INPUT_ERROR(parse_double(bad, "parameter 'x'"), "parameter 'x'", "must be a number");
}

TEST(Numbers, Float32StaysInRange) {
  EXPECT_EQ(parse_float32("0.1", "x"), 0.1f);  // rounded once, from the text
  EXPECT_EQ(parse_float32("3.40282347e+38", "x"), FLT_MAX);
  EXPECT_EQ(parse_float32("-3.40282347e+38", "x"), -FLT_MAX);
  EXPECT_EQ(parse_float32("1e-50", "x"), 0.0f);
  EXPECT_INPUT_ERROR(parse_float32("1e39", "value"), "value", "float32", "'1e39'");
  EXPECT_INPUT_ERROR(parse_float32("-1e39", "value"), "float32", "'-1e39'");
  EXPECT_INPUT_ERROR(parse_float32("inf", "value"), "finite");
  EXPECT_INPUT_ERROR(parse_float32("1.5 ", "value"), "must be a number");
}

TEST(Numbers, ForeignNumberLayouts) {
  EXPECT_EQ(foreign_number_layout("1;2;3"), "uses ';' as separator");
  EXPECT_EQ(foreign_number_layout(" 1 ; -2.5e3 ;"), "uses ';' as separator");
  EXPECT_EQ(foreign_number_layout("0,5;1,25"), "uses ';' as separator and ',' as decimal mark");
  EXPECT_EQ(foreign_number_layout("\"1\";\"2\""), "uses ';' as separator");
  EXPECT_EQ(foreign_number_layout("\"1\",\"2\""), "holds quoted numbers");
  EXPECT_EQ(foreign_number_layout("'1'\t2"), "holds quoted numbers");
  EXPECT_EQ(foreign_number_layout("\"1\",0.5,0.25"), "holds quoted numbers");
  // Names, or numbers as ladder reads them, are neither.
  for (const char* line : {"x;y", "1", "1,2", "1\t2", "\"x\",\"y\"", "1st,\"2\",x", ";", "\"\"",
                           "1;", "a;1"})
    EXPECT_EQ(foreign_number_layout(line), "") << line;
}

TEST(Numbers, PrintableEscapesAndTruncates) {
  EXPECT_EQ(printable("abc"), "abc");
  EXPECT_EQ(printable("a\0b"s), "a\\x00b");
  EXPECT_EQ(printable("a\nb\tc\x7f"), "a\\x0ab\\x09c\\x7f");
  EXPECT_EQ(printable("\xEF\xBB\xBF" "1"), "\\xef\\xbb\\xbf1");  // a BOM is invisible
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");                 // not UTF-8
  EXPECT_EQ(printable("\xC3\xA9t\xC3\xA9"), "\xC3\xA9t\xC3\xA9");  // printable UTF-8 stays
  EXPECT_EQ(printable("\xE2\x80\xAE" "x"), "\\xe2\\x80\\xaex");    // right-to-left override
  EXPECT_EQ(printable(std::string(50, 'a')), std::string(40, 'a') + "...");
  EXPECT_EQ(printable(std::string(5, '\0'), 3), "\\x00\\x00\\x00...");
  const std::string once = printable("x\x01\xff\xC3\xA9");
  EXPECT_EQ(printable(once, 1000), once);
}

// Names from files on a terminal: every control that can recolour, move or reorder what it
// shows is escaped, and nothing is cut (a long name stays whole).
TEST(Numbers, PrintableAllEscapesTerminalControls) {
  EXPECT_EQ(printable_all("\x1b[31mred\x07"), "\\x1b[31mred\\x07");      // ESC, BEL
  EXPECT_EQ(printable_all("a\rb"), "a\\x0db");                             // carriage return
  EXPECT_EQ(printable_all("\xC2\x9B" "2J"), "\\xc2\\x9b2J");               // C1 CSI
  EXPECT_EQ(printable_all("\xC2\x85"), "\\xc2\\x85");                      // C1 next line
  for (const char* bidi : {"\xE2\x80\xAA", "\xE2\x80\xAB", "\xE2\x80\xAC", "\xE2\x80\xAD", "\xE2\x80\xAE",
                           "\xE2\x81\xA6", "\xE2\x81\xA7", "\xE2\x81\xA8", "\xE2\x81\xA9"})
    EXPECT_EQ(printable_all(bidi).substr(0, 2), "\\x") << printable_all(bidi);
  EXPECT_EQ(printable_all(std::string(500, 'a')), std::string(500, 'a'));
  EXPECT_EQ(printable_all("n=8 \xC3\xA9"), "n=8 \xC3\xA9");
}

// --- JSON ----------------------------------------------------------------------------------

// Hints and long lines are broken between words, never inside one: a word wider than the
// line stands whole on its own.
TEST(Numbers, WrapWordsNeverCutsAWord) {
  using V = std::vector<std::string>;
  EXPECT_EQ(wrap_words("run python3 peers/dtw/cudtw.py --build-only", 20),
            (V{"run python3", "peers/dtw/cudtw.py", "--build-only"}));
  EXPECT_EQ(wrap_words("  two   spaces  ", 80), (V{"two spaces"}));
  EXPECT_EQ(wrap_words("a " + std::string(30, 'x') + " b", 10), (V{"a", std::string(30, 'x'), "b"}));
  EXPECT_EQ(wrap_words("", 10), V{});
  EXPECT_EQ(wrap_words("\xC3\xA9t\xC3\xA9 \xC3\xA9t\xC3\xA9", 7), (V{"\xC3\xA9t\xC3\xA9 \xC3\xA9t\xC3\xA9"}));  // columns, not bytes
  EXPECT_EQ(display_width("\xC2\xB1" "3%"), 3u);
}

// Written files are 0666 less the umask, as any file the user makes (and not the 0600 of a
// temporary file), whatever mode a leftover temporary file of the same name had.
TEST(AtomicFile, ModeFollowsTheUmask) {
  const std::string dir = ::testing::TempDir() + "ladder_atomic_mode";
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/out.json";
  const std::string leftover = file + ".tmp." + std::to_string(::getpid());
  for (const auto& [mask, want] : {std::pair{mode_t(022), mode_t(0644)}, std::pair{mode_t(077), mode_t(0600)},
                                   std::pair{mode_t(002), mode_t(0664)}}) {
    { std::ofstream(leftover) << "old"; }
    ::chmod(leftover.c_str(), 0600);
    const mode_t before = ::umask(mask);
    write_file_atomically(file, "{}\n");
    ::umask(before);
    struct stat st {};
    ASSERT_EQ(::stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, want) << "umask " << std::oct << mask;
  }
  std::filesystem::remove_all(dir);
}

TEST(JsonRead, ParsesText) {
  const auto j = parse_json_text(R"({"n": 8, "axes": {"x": [1, 2, {"n": 3}]}, "s": "[{"})",
                                 "config 'c.json'", 4);
  EXPECT_EQ(j["n"], 8);
  EXPECT_EQ(j["axes"]["x"][2]["n"], 3);
}

TEST(JsonRead, RefusesBom) {
  EXPECT_INPUT_ERROR(parse_json_text("\xEF\xBB\xBF{}", "config 'c.json'", 16), "config 'c.json'",
                     "byte-order mark (BOM)");
}

TEST(JsonRead, InvalidJsonIsOneLine) {
  EXPECT_INPUT_ERROR(parse_json_text("{\n\"a\": \n}\n", "config 'c.json'", 16),
                     "config 'c.json' is not valid JSON", "line 3");
  EXPECT_INPUT_ERROR(parse_json_text("{\"a\": \x01}", "config 'c.json'", 16), "not valid JSON");
  EXPECT_INPUT_ERROR(parse_json_text("{\"a\": \"\xff\"}", "config 'c.json'", 16),
                     "not valid JSON");
  EXPECT_INPUT_ERROR(parse_json_text("", "config 'c.json'", 16), "not valid JSON");
  EXPECT_INPUT_ERROR(parse_json_text("[1e400]", "config 'c.json'", 16), "1e400");
}

TEST(JsonRead, RefusesDuplicateKeys) {
  EXPECT_EQ(EXPECT_INPUT_ERROR(parse_json_text(R"({"n": 8, "n": 16})", "config 'c.json'", 16)),
            "config 'c.json': duplicate key 'n'");
  EXPECT_INPUT_ERROR(
      parse_json_text(R"({"axes": {"x": [0, {"n": 1, "m": [], "n": 2}]}})", "config 'c.json'", 16),
      "duplicate key 'n'", "axes.x[1]");
  // the same key in different objects is fine
  EXPECT_NO_THROW(parse_json_text(R"([{"n": 1}, {"n": 2}, {"a": {"n": 1}, "n": 2}])", "c", 16));
}

TEST(JsonRead, DepthIsCheckedBeforeParsing) {
  const std::string deep = std::string(150000, '[') + std::string(150000, ']');
  EXPECT_INPUT_ERROR(parse_json_text(deep, "config 'deep.json'", 16), "config 'deep.json'",
                     "deeper than 16");
  EXPECT_NO_THROW(parse_json_text("[[[]]]", "c", 3));
  EXPECT_INPUT_ERROR(parse_json_text("[[[[]]]]", "c", 3), "deeper than 3", "column 4");
  // brackets inside strings, escaped quotes included, do not count
  EXPECT_NO_THROW(parse_json_text(R"({"s": "[[[[{{{{", "t": "\"[[[[\\"})", "c", 1));
  // unbalanced closers cannot lower the count below zero
  EXPECT_INPUT_ERROR(parse_json_text("]]]][[", "c", 1), "c ");
}

TEST(JsonRead, ReadsAFile) {
  const std::string path = write_bytes("ok.json", R"({"a": [1, 2]})");
  EXPECT_EQ(read_json_file(path, "config 'ok.json'", 16)["a"][1], 2);
}

TEST(JsonRead, RefusesMissingDirectoryAndSpecialFiles) {
  EXPECT_INPUT_ERROR(read_json_file(temp_path("none.json"), "config 'none.json'", 16),
                     "config 'none.json'", "no such file");
  std::filesystem::create_directories(temp_path("dir.json"));
  EXPECT_INPUT_ERROR(read_json_file(temp_path("dir.json"), "config 'dir.json'", 16),
                     "config 'dir.json' is a directory");
  EXPECT_INPUT_ERROR(read_json_file("/dev/null", "config '/dev/null'", 16),
                     "not a regular file");
}

TEST(JsonRead, RefusesUnreadableFile) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads any file";
  const std::string path = write_bytes("locked.json", "{}");
  std::filesystem::permissions(path, std::filesystem::perms::none);
  EXPECT_INPUT_ERROR(read_json_file(path, "config 'locked.json'", 16), "config 'locked.json'");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

TEST(JsonRead, RefusesLargeFileBeforeReading) {
  const std::string path = write_bytes("big.json", "[" + std::string(1000, ' ') + "]");
  EXPECT_INPUT_ERROR(read_json_file(path, "results file 'big.json'", 16, 100),
                     "results file 'big.json'", "1002 bytes", "limit of 100");
  EXPECT_NO_THROW(read_json_file(path, "results file 'big.json'", 16, 1002));
}

TEST(JsonRead, FileErrorsCarryTheParseChecks) {
  EXPECT_INPUT_ERROR(read_json_file(write_bytes("dup.json", R"({"n": 8, "n": 16})"),
                                    "config 'dup.json'", 16),
                     "config 'dup.json': duplicate key 'n'");
  EXPECT_INPUT_ERROR(read_json_file(write_bytes("bom.json", "\xEF\xBB\xBF{}"),
                                    "config 'bom.json'", 16),
                     "BOM");
}

// --- .npy ----------------------------------------------------------------------------------

// A .npy file with the given header dictionary (padded as numpy pads it) and data bytes.
std::string npy(const std::string& dict, const std::string& data, int major = 1) {
  const std::size_t fixed = major == 1 ? 10 : 12;
  std::string d = dict;
  d.append((64 - (fixed + d.size() + 1) % 64) % 64, ' ');
  d += '\n';
  std::string h = "\x93NUMPY"s + char(major) + '\0';
  for (std::size_t i = 0; i < fixed - 8; ++i) h += char((d.size() >> (8 * i)) & 0xff);
  return h + d + data;
}

std::string dict(const std::string& descr, const std::string& shape, bool fortran = false) {
  return "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
         ", 'shape': " + shape + ", }";
}

template <class T>
std::string raw(std::initializer_list<T> values, bool big_endian) {
  std::string s;
  for (T v : values) {
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    if (big_endian) std::reverse(b, b + sizeof(T));
    s.append(b, sizeof(T));
  }
  return s;
}

const std::vector<double> kValues{1.5, -2, 3.25, 0, 7, 1e-3};

TEST(NpyRead, LittleEndianFloat32AndFloat64) {
  const std::string f4 =
      npy(dict("<f4", "(2, 3)"), raw<float>({1.5f, -2, 3.25f, 0, 7, 1e-3f}, false));
  NpyArray a = parse_npy(f4, "a.npy");
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(a.values[5], double(1e-3f));
  const std::string f8 = npy(dict("<f8", "(6,)"), raw<double>({1.5, -2, 3.25, 0, 7, 1e-3}, false));
  NpyArray b = read_npy(write_bytes("le8.npy", f8));
  EXPECT_EQ(b.shape, (std::vector<std::size_t>{6}));
  EXPECT_EQ(b.values, kValues);
}

TEST(NpyRead, BigEndianFloat32AndFloat64) {
  const std::string f4 =
      npy(dict(">f4", "(3, 2)"), raw<float>({1.5f, -2, 3.25f, 0, 7, 1e-3f}, true));
  NpyArray a = read_npy(write_bytes("be4.npy", f4));
  EXPECT_EQ(a.shape, (std::vector<std::size_t>{3, 2}));
  EXPECT_EQ(a.values[2], 3.25);
  EXPECT_EQ(a.values[5], double(1e-3f));
  const std::string f8 = npy(dict(">f8", "(6,)"), raw<double>({1.5, -2, 3.25, 0, 7, 1e-3}, true));
  EXPECT_EQ(parse_npy(f8, "be8.npy").values, kValues);
  EXPECT_EQ(read_npy(write_bytes("be8.npy", f8)).values, kValues);
}

TEST(NpyRead, WriterRoundTripAndFormatVersions) {
  const std::string path = temp_path("rt.npy");
  write_npy(path, Output{std::vector<double>{1.5, -2, 3.25, 0, 7, 1e-3}, {3, 2}});
  EXPECT_EQ(read_npy(path).values, kValues);
  const std::string data = raw<double>({1.5, -2, 3.25, 0, 7, 1e-3}, false);
  EXPECT_EQ(parse_npy(npy(dict("<f8", "(6,)"), data, 2), "v2.npy").values, kValues);
  EXPECT_EQ(parse_npy(npy(dict("<f8", "(6,)"), data, 3), "v3.npy").values, kValues);
  // double quotes and Python 2 long integers, as older writers produce them
  EXPECT_EQ(parse_npy(npy(R"({"descr": "<f8", "fortran_order": False, "shape": (2L, 3L)})", data),
                      "py2.npy").shape,
            (std::vector<std::size_t>{2, 3}));
}

TEST(NpyRead, ScalarAndEmptyShapes) {
  NpyArray s = parse_npy(npy(dict("<f8", "()"), raw<double>({4.0}, false)), "s.npy");
  EXPECT_TRUE(s.shape.empty());
  EXPECT_EQ(s.values, std::vector<double>{4.0});
  NpyArray e = parse_npy(npy(dict("<f4", "(0, 3)"), ""), "e.npy");
  EXPECT_EQ(e.shape, (std::vector<std::size_t>{0, 3}));
  EXPECT_TRUE(e.values.empty());
}

TEST(NpyRead, ElementCountOverflowIsAnError) {
  const std::string bytes = npy(dict("<f4", "(4611686018427387904, 4)"), std::string(64, '\0'));
  EXPECT_INPUT_ERROR(parse_npy(bytes, "huge.npy"), "'huge.npy'",
                     "shape (4611686018427387904, 4)", "64 bits");
  EXPECT_INPUT_ERROR(read_npy(write_bytes("huge.npy", bytes)), "huge.npy", "64 bits");
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f8", "(2305843009213693952,)"), ""), "h8.npy"),
                     "64 bits");
  // a zero dimension does not excuse the others
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", "(4294967296, 4294967296, 0)"), ""), "z.npy"),
                     "shape (4294967296, 4294967296, 0)", "64 bits");
}

TEST(NpyRead, ShapeBeyondTheDataIsCheckedBeforeAllocating) {
  // 72 data bytes for 32768e9 values: allocating first would fail with bad_alloc
  const std::string bytes = npy(dict("<f4", "(1000000000, 32768)"), std::string(72, '\0'));
  EXPECT_INPUT_ERROR(parse_npy(bytes, "short.npy"), "'short.npy' holds fewer data bytes (72)",
                     "shape (1000000000, 32768) of float32", "131072000000000");
  EXPECT_INPUT_ERROR(read_npy(write_bytes("short.npy", bytes)), "'", "short.npy", "fewer");
  // a 200-byte file declaring 640e6 values (2.6 GB as doubles)
  std::string small = npy(dict("<f4", "(20000000, 32)"), "");
  small.append(200 - small.size(), '\0');
  EXPECT_INPUT_ERROR(read_npy(write_bytes("small.npy", small)), "small.npy", "fewer",
                     "(20000000, 32)");
}

TEST(NpyRead, MoreDataThanTheShapeIsAnError) {
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", "(2,)"), std::string(12, '\0')), "long.npy"),
                     "'long.npy' holds more data bytes (12)", "shape (2,)");
}

TEST(NpyRead, NegativeOrNonIntegerDimensions) {
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", "(-1, 3)"), ""), "neg.npy"),
                     "'neg.npy' shape (-1, 3) dimension 1", "negative");
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", "(six, 3)"), ""), "six.npy"),
                     "'six.npy' shape (six, 3) dimension 1 must be an integer, got 'six'");
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", "(3, 99999999999999999999)"), ""), "big.npy"),
                     "shape (3, 99999999999999999999) dimension 2", "99999999999999999999");
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", "(3,,4)"), ""), "gap.npy"), "shape (3,,4)",
                     "empty dimension 2");
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", "(,)"), ""), "comma.npy"), "shape (,)");
  std::string rank65 = "(";
  for (int i = 0; i < 65; ++i) rank65 += "1,";
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", rank65 + ")"), ""), "rank.npy"),
                     "more than 64 dimensions");
}

TEST(NpyRead, OtherDtypesAreNamed) {
  EXPECT_EQ(EXPECT_INPUT_ERROR(parse_npy(npy(dict("<i4", "(2,)"), std::string(8, '\0')), "i.npy")),
            "'i.npy': dtype '<i4' is not float32 or float64 (little- or big-endian)");
  for (const std::string& d : {"|u1"s, "<f2"s, ">i8"s, "<c8"s, "f4"s, "=f4"s})
    EXPECT_INPUT_ERROR(parse_npy(npy(dict(d, "(2,)"), std::string(8, '\0')), "d.npy"),
                       "'d.npy': dtype '" + d + "'", "not float32 or float64");
  EXPECT_INPUT_ERROR(parse_npy(npy("{'descr': [('a', '<f4')], 'fortran_order': False, "
                                   "'shape': (2,), }",
                                   std::string(8, '\0')),
                               "rec.npy"),
                     "'rec.npy'", "structured");
  write_npy(temp_path("ints.npy"), Output{std::vector<std::int64_t>{1, 2}, {}});
  EXPECT_INPUT_ERROR(read_npy(temp_path("ints.npy")), "ints.npy", "dtype '<i8'");
}

TEST(NpyRead, FortranOrderIsRefused) {
  EXPECT_INPUT_ERROR(
      parse_npy(npy(dict("<f4", "(2, 2)", true), std::string(16, '\0')), "f.npy"), "'f.npy'",
      "Fortran-ordered arrays are not supported");
}

TEST(NpyRead, HeaderLengthIsCapped) {
  std::string h = "\x93NUMPY\x02\x00"s;
  const std::uint32_t len = 1000000;
  for (int i = 0; i < 4; ++i) h += char((len >> (8 * i)) & 0xff);
  h += "{'descr': '<f4'";
  EXPECT_INPUT_ERROR(parse_npy(h, "long.npy"), "'long.npy'", "1000000 bytes", "limit of 65536");
  EXPECT_INPUT_ERROR(read_npy(write_bytes("longhdr.npy", h)), "longhdr.npy", "limit");
}

TEST(NpyRead, TruncatedOrForeignFiles) {
  const std::string full = npy(dict("<f4", "(2,)"), std::string(8, '\0'));
  EXPECT_INPUT_ERROR(parse_npy(full.substr(0, 40), "cut.npy"), "'cut.npy' is truncated");
  EXPECT_INPUT_ERROR(parse_npy(full.substr(0, 8), "cut8.npy"), "'cut8.npy' is truncated");
  EXPECT_INPUT_ERROR(parse_npy("hello", "text.npy"), "'text.npy' is not a .npy file");
  EXPECT_INPUT_ERROR(parse_npy("", "empty.npy"), "'empty.npy' is not a .npy file");
  EXPECT_INPUT_ERROR(read_npy(write_bytes("text.npy", "hello\n")), "text.npy", "not a .npy");
  std::string v4 = full;
  v4[6] = 4;
  EXPECT_INPUT_ERROR(parse_npy(v4, "v4.npy"), "'v4.npy'", "version 4.0");
}

TEST(NpyRead, MalformedHeaders) {
  const std::string data(8, '\0');
  EXPECT_INPUT_ERROR(parse_npy(npy("{'descr': '<f4', 'fortran_order': False}", data), "a.npy"),
                     "'a.npy'", "no 'shape'");
  EXPECT_INPUT_ERROR(parse_npy(npy("{'fortran_order': False, 'shape': (2,)}", data), "b.npy"),
                     "'b.npy'", "no dtype");
  EXPECT_INPUT_ERROR(
      parse_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'x': 1}", data),
                "c.npy"),
      "'c.npy'", "unexpected key 'x'");
  EXPECT_INPUT_ERROR(
      parse_npy(npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}",
                    data),
                "d.npy"),
      "'d.npy'", "repeats the key 'descr'");
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", "(2,)") + " junk", data), "e.npy"), "'e.npy'",
                     "malformed");
  EXPECT_INPUT_ERROR(parse_npy(npy("{'descr': 4, 'fortran_order': False, 'shape': (2,)}", data),
                               "f.npy"),
                     "'f.npy'", "malformed");
  EXPECT_INPUT_ERROR(parse_npy(npy("{'descr': '<f4", data), "g.npy"), "'g.npy'", "malformed");
  EXPECT_INPUT_ERROR(
      parse_npy(npy("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,)}", data), "h.npy"),
      "'h.npy'", "True or False");
  EXPECT_INPUT_ERROR(parse_npy(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,",
                                   data),
                               "i.npy"),
                     "'i.npy'", "malformed");
}

TEST(NpyRead, NonPrintableHeaderBytesAreEscaped) {
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<\x01\n\xff", "(2,)"), std::string(8, '\0')), "x.npy"),
                     "dtype '<\\x01\\x0a\\xff'");
  EXPECT_INPUT_ERROR(parse_npy(npy(dict("<f4", "(\x01)"), ""), "y.npy"), "shape (\\x01)");
  EXPECT_INPUT_ERROR(parse_npy("\x93NUMPY\x01"s, "bad\nname\x01.npy"), "'bad\\x0aname\\x01.npy'");
}

TEST(NpyRead, DirectoryMissingAndSpecialFiles) {
  std::filesystem::create_directories(temp_path("dir.npy"));
  EXPECT_INPUT_ERROR(read_npy(temp_path("dir.npy")), "dir.npy' is a directory");
  EXPECT_INPUT_ERROR(read_npy(temp_path("missing.npy")), "missing.npy", "no such file");
  EXPECT_INPUT_ERROR(read_npy("/dev/zero"), "'/dev/zero' is not a regular file");
}

// --- opening a data file, what its first bytes say ------------------------------------------

// A named pipe with no writer, made afresh: opening it to read would wait forever.
std::string fifo(const std::string& name) {
  const std::string path = temp_path(name);
  std::filesystem::remove(path);
  if (::mkfifo(path.c_str(), 0600) != 0) ADD_FAILURE() << "mkfifo " << path;
  return path;
}

TEST(DataFile, EveryReaderRefusesAFifoWithoutWaiting) {
  EXPECT_INPUT_ERROR(read_ucr(fifo("fifo.tsv")), "'", "fifo.tsv' is not a regular file");
  EXPECT_INPUT_ERROR(read_npy(fifo("fifo.npy")), "fifo.npy' is not a regular file");
  EXPECT_INPUT_ERROR(read_json_file(fifo("fifo.json"), "config 'fifo.json'", 16),
                     "config 'fifo.json' is not a regular file");
  EXPECT_INPUT_ERROR(read_file_start(fifo("fifo.bin"), "'fifo.bin'", "a data file", 16),
                     "'fifo.bin' is not a regular file");
  // Through a link, too.
  const std::string link = temp_path("fifo_link.tsv");
  std::filesystem::remove(link);
  std::filesystem::create_symlink(fifo("fifo_target"), link);
  EXPECT_INPUT_ERROR(read_ucr(link), "fifo_link.tsv' is not a regular file");
}

TEST(DataFile, OpensRegularFilesOnly) {
  const std::string path = write_bytes("start.bin", "0123456789abcdefXYZ");
  EXPECT_EQ(read_file_start(path, "'start.bin'", "a data file", 16), "0123456789abcdef");
  EXPECT_EQ(read_file_start(write_bytes("short.bin", "ab"), "'short.bin'", "x", 16), "ab");
  EXPECT_INPUT_ERROR(read_file_start(temp_path("absent.bin"), "'absent.bin'", "x", 4),
                     "cannot open 'absent.bin': no such file");
  EXPECT_INPUT_ERROR(read_file_start(path + "/x"s, "'x'", "x", 4), "no such file");
  EXPECT_INPUT_ERROR(read_file_start(path + "\0tail"s, "'n'", "x", 4), "no such file");
  std::filesystem::create_directories(temp_path("a_dir"));
  EXPECT_INPUT_ERROR(read_file_start(temp_path("a_dir"), "'a_dir'", "a thing", 4),
                     "'a_dir' is a directory, not a thing");
  EXPECT_INPUT_ERROR(read_file_start("/dev/null", "'/dev/null'", "x", 4), "not a regular file");
}

TEST(DataFile, CompressedFilesAndByteOrderMarksAreNamed) {
  const auto compressed = [](const std::string& bytes) {
    return EXPECT_INPUT_ERROR(refuse_compressed(bytes, "'f'"), "'f' is ");
  };
  EXPECT_NE(compressed("\x1f\x8b\x08\x00").find("gzip-compressed: gunzip it first"),
            std::string::npos);
  EXPECT_NE(compressed("BZh91AY&SY").find("bzip2"), std::string::npos);
  EXPECT_NE(compressed("\xFD" "7zXZ\0"s).find("xz"), std::string::npos);
  EXPECT_NE(compressed("\x28\xB5\x2F\xFD").find("zstd"), std::string::npos);
  EXPECT_NE(compressed("PK\x03\x04").find("zip archive"), std::string::npos);
  // Text that merely starts like one is text.
  EXPECT_NO_THROW(refuse_compressed("BZh is a word\n", "'f'"));
  EXPECT_NO_THROW(refuse_compressed("\x1f", "'f'"));
  EXPECT_NO_THROW(refuse_compressed("", "'f'"));
  EXPECT_NO_THROW(refuse_compressed("\xEF\xBB\xBF", "'f'"));  // not compressed
  EXPECT_INPUT_ERROR(check_text_start("\xEF\xBB\xBF" "1", "'f'"),
                     "'f' starts with a UTF-8 byte-order mark (BOM)");
  EXPECT_INPUT_ERROR(check_text_start("\xFE\xFF\0" "1"s, "'f'"), "'f' is UTF-16 text");
  EXPECT_INPUT_ERROR(check_text_start("\x1f\x8b", "'f'"), "gzip");
  EXPECT_NO_THROW(check_text_start("1\t2\n", "'f'"));
  EXPECT_EQ(refused_text_start("\x1f\x8b\x08"), "a gzip header");
  EXPECT_EQ(refused_text_start("\xEF\xBB\xBFx"), "a UTF-8 byte-order mark");
  EXPECT_EQ(refused_text_start("abc"), "");
}

TEST(DataFile, ReadersNameCompressedFiles) {
  const std::string gz = "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03rest"s;
  EXPECT_INPUT_ERROR(read_ucr(write_bytes("s.tsv.gz", gz)), "'", "s.tsv.gz' is gzip-compressed");
  EXPECT_INPUT_ERROR(parse_ucr(gz, "s.tsv"), "'s.tsv' is gzip-compressed");
  EXPECT_INPUT_ERROR(read_npy(write_bytes("a.npy", gz)), "a.npy' is gzip-compressed");
  EXPECT_INPUT_ERROR(parse_npy(gz, "a.npy"), "'a.npy' is gzip-compressed");
  EXPECT_INPUT_ERROR(read_json_file(write_bytes("c.json.gz", gz), "config 'c.json.gz'", 16),
                     "config 'c.json.gz' is gzip-compressed");
}

// --- UCR text ------------------------------------------------------------------------------

TEST(UcrRead, TabSeparated) {
  SeriesSet s = read_ucr(write_bytes("tab.tsv", "1\t0.5\t2\n-3\t1e-3\t-4\n"));
  EXPECT_EQ(s.entries, 2u);
  EXPECT_EQ(s.length, 2u);
  EXPECT_EQ(s.labels, (std::vector<std::int32_t>{1, -3}));
  EXPECT_EQ(s.values, (std::vector<float>{0.5f, 2, 1e-3f, -4}));
}

TEST(UcrRead, CommaSeparated) {
  SeriesSet s = parse_ucr("1, 0.5 ,2\r\n2,\t3,4\r\n", "c.csv");
  EXPECT_EQ(s.entries, 2u);
  EXPECT_EQ(s.values, (std::vector<float>{0.5f, 2, 3, 4}));
}

TEST(UcrRead, SpaceSeparatedOldFormat) {
  // the archive's older files: runs of spaces, labels written as floats
  SeriesSet s = parse_ucr("  1.0000000e+00  -7.7e-01   1.5e+00\n"
                          "  2.0000000e+00   3.0e-01  -2.0e+00  \n",
                          "old.txt");
  EXPECT_EQ(s.entries, 2u);
  EXPECT_EQ(s.length, 2u);
  EXPECT_EQ(s.labels, (std::vector<std::int32_t>{1, 2}));
  EXPECT_EQ(s.values[0], -0.77f);
  // tabs and spaces mixed, trailing blanks
  EXPECT_EQ(parse_ucr("1 \t 2\t\t3 \t\n", "m.txt").values, (std::vector<float>{2, 3}));
}

TEST(UcrRead, LineEndings) {
  EXPECT_EQ(parse_ucr("1\t2\r\n2\t3\r\n", "crlf.tsv").entries, 2u);
  EXPECT_EQ(parse_ucr("1\t2\r2\t3\r", "cr.tsv").entries, 2u);  // lone CR, as old Mac files
  EXPECT_EQ(parse_ucr("1\t2\n2\t3", "noeol.tsv").entries, 2u);
  EXPECT_INPUT_ERROR(parse_ucr("1\t2\r\n\r\n2\tx\r\n", "crlf.tsv"), "'crlf.tsv' line 3 column 2");
}

TEST(UcrRead, LabelsAreThirtyTwoBitIntegers) {
  EXPECT_EQ(parse_ucr("2147483647\t1\n-2147483648\t1\n", "l.tsv").labels,
            (std::vector<std::int32_t>{INT32_MAX, INT32_MIN}));
  EXPECT_INPUT_ERROR(parse_ucr("10000000000\t1\n", "big.tsv"), "'big.tsv' line 1 column 1",
                     "'10000000000' is out of range of a 32-bit label");
  EXPECT_INPUT_ERROR(parse_ucr("-2147483649\t1\n", "neg.tsv"), "out of range of a 32-bit label");
  EXPECT_INPUT_ERROR(parse_ucr("99999999999999999999999\t1\n", "huge.tsv"),
                     "out of range of a 32-bit label");
  EXPECT_INPUT_ERROR(parse_ucr("1.5\t1\n", "half.tsv"), "'half.tsv' line 1 column 1",
                     "label", "must be an integer, got '1.5'");
  EXPECT_INPUT_ERROR(parse_ucr("a\t1\n", "word.tsv"), "label", "must be a number, got 'a'");
}

TEST(UcrRead, NulInsideAValueIsNotReadAsANumber) {
  EXPECT_INPUT_ERROR(parse_ucr("1\t2\t1\0.5\n"s, "nul.tsv"), "'nul.tsv' is not a text file",
                     "\\x00", "line 1 column 3");
  EXPECT_INPUT_ERROR(read_ucr(write_bytes("nul.tsv", "1\t1\0.5\n"s)), "nul.tsv",
                     "line 1 column 2");
  EXPECT_INPUT_ERROR(parse_ucr("1,2,3\n1,2,\x7f\n"s, "del.csv"), "line 2 column 3", "\\x7f");
}

TEST(UcrRead, ByteOrderMarkIsRefused) {
  EXPECT_INPUT_ERROR(parse_ucr("\xEF\xBB\xBF" "1\t2\n", "bom.tsv"),
                     "'bom.tsv' starts with a UTF-8 byte-order mark (BOM); save it without one");
  EXPECT_INPUT_ERROR(read_ucr(write_bytes("bom.tsv", "\xEF\xBB\xBF" "1\t2\n")), "bom.tsv", "BOM");
  EXPECT_INPUT_ERROR(parse_ucr("\xFF\xFE" "1\0\t\0"s, "u16.tsv"), "'u16.tsv' is UTF-16");
}

TEST(UcrRead, BinaryFilesAreNamed) {
  const std::string path = temp_path("data.npy");
  write_npy(path, Output{std::vector<float>{1, 2}, {}});
  EXPECT_INPUT_ERROR(read_ucr(path), "data.npy' is a NumPy .npy file");
  EXPECT_INPUT_ERROR(parse_ucr("ELF\x01\x02\x03\n"s, "a.out"), "'a.out' is not a text file",
                     "\\x01", "line 1 column 1");
}

TEST(UcrRead, DirectoryMissingAndSpecialFiles) {
  std::filesystem::create_directories(temp_path("dir.tsv"));
  EXPECT_INPUT_ERROR(read_ucr(temp_path("dir.tsv")), "dir.tsv' is a directory");
  EXPECT_INPUT_ERROR(read_ucr(temp_path("none.tsv")), "none.tsv", "no such file");
  EXPECT_INPUT_ERROR(read_ucr("/dev/zero"), "'/dev/zero' is not a regular file");
}

TEST(UcrRead, ValuesNameLineAndColumn) {
  EXPECT_INPUT_ERROR(parse_ucr("1\t2\t3\n2\t4\tabc\n", "f.tsv"),
                     "'f.tsv' line 2 column 3 must be a number, got 'abc'");
  EXPECT_INPUT_ERROR(parse_ucr("1\t2\n2\t1e39\n", "o.tsv"), "'o.tsv' line 2 column 2", "float32");
  EXPECT_INPUT_ERROR(parse_ucr("1\t2\n2\tNaN\n", "n.tsv"), "'n.tsv' line 2 column 2", "finite",
                     "missing values");
  EXPECT_INPUT_ERROR(parse_ucr("1\t0x10\n", "h.tsv"), "'h.tsv' line 1 column 2", "'0x10'");
  EXPECT_INPUT_ERROR(parse_ucr("1\t\xff\xfe\n", "b.tsv"), "got '\\xff\\xfe'");
}

TEST(UcrRead, LongFieldsAreTruncatedInMessages) {
  const std::string m =
      EXPECT_INPUT_ERROR(parse_ucr("1\t" + std::string(1 << 20, 'x') + "\n", "w.tsv"), "...");
  EXPECT_LT(m.size(), 300u);
}

TEST(UcrRead, ShapeErrors) {
  EXPECT_INPUT_ERROR(parse_ucr("1,,2\n", "e.csv"), "'e.csv' line 1 column 2 is empty");
  EXPECT_INPUT_ERROR(parse_ucr("1,2,\n", "t.csv"), "'t.csv' line 1 column 3 is empty");
  EXPECT_INPUT_ERROR(parse_ucr("1\t2\n3\n", "one.tsv"), "'one.tsv' line 2",
                     "label and at least one value");
  EXPECT_INPUT_ERROR(parse_ucr("1\t2\t3\n2\t1\t2\n3\t1\n", "r.tsv"), "'r.tsv' line 3", "ragged");
  EXPECT_INPUT_ERROR(parse_ucr("\n \t\n", "blank.tsv"), "'blank.tsv' holds no series");
  EXPECT_INPUT_ERROR(parse_ucr("", "empty.tsv"), "'empty.tsv' holds no series");
}

TEST(UcrRead, ForeignLayoutsAreNamed) {
  EXPECT_INPUT_ERROR(parse_ucr("1;0.5;0.25\n", "s.csv"), "'s.csv' line 1 uses ';' as separator",
                     "separated by commas, tabs or spaces");
  EXPECT_INPUT_ERROR(parse_ucr("1\t2\n1;0,5;0,25\n", "s.csv"),
                     "'s.csv' line 2 uses ';' as separator and ',' as decimal mark");
  EXPECT_INPUT_ERROR(parse_ucr("\"1\",\"0.5\"\n", "q.csv"), "'q.csv' line 1 holds quoted numbers",
                     "unquoted");
  EXPECT_INPUT_ERROR(parse_ucr("1\t'0.5'\t2\n", "q.tsv"), "line 1 holds quoted numbers");
  // Neither: the field is named as before.
  EXPECT_INPUT_ERROR(parse_ucr("1\t\"a\"\n", "w.tsv"), "'w.tsv' line 1 column 2",
                     "must be a number");
}

TEST(UcrRead, FileNamesAreEscaped) {
  EXPECT_INPUT_ERROR(parse_ucr("x\t1\n", "a\nb\x1b[31m.tsv"), "'a\\x0ab\\x1b[31m.tsv'");
}

TEST(UcrRead, ParseMatchesRead) {
  SeriesSet g = generate_cbf(5, 9, 1, CbfNoise::gaussian);
  const std::string path = temp_path("cbf.tsv");
  write_ucr(path, g);
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  SeriesSet a = parse_ucr(text, "cbf.tsv"), b = read_ucr(path);
  EXPECT_EQ(a.values, g.values);
  EXPECT_EQ(b.values, g.values);
  EXPECT_EQ(a.labels, g.labels);
}

}  // namespace
}  // namespace ladder
