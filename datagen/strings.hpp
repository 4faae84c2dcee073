// Pairs of strings (the extended edit distance study's data): a seeded generator, the text
// reader and writer. Strings are held as dense symbol codes 0..alphabet-1; `symbols` gives the
// byte each code stands for, so a file read and written back is the same bytes. Every pair is
// generated from its own stream (seed, pair), so a set is identical for any thread count.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ladder {

struct StringPairs {
  int alphabet = 0;                  // codes are 0..alphabet-1 (1..256)
  std::string symbols;               // alphabet bytes: the byte of each code, increasing
  std::vector<std::uint8_t> codes;   // every string's codes, concatenated: A_0 B_0 A_1 B_1 ...
  std::vector<std::int64_t> offset;  // 2 * pairs + 1 offsets into codes; string s is
                                     // codes[offset[s], offset[s + 1])
  std::size_t pairs() const { return offset.empty() ? 0 : (offset.size() - 1) / 2; }
  const std::uint8_t* a(std::size_t k) const { return codes.data() + offset[2 * k]; }
  const std::uint8_t* b(std::size_t k) const { return codes.data() + offset[2 * k + 1]; }
  std::int64_t a_length(std::size_t k) const { return offset[2 * k + 1] - offset[2 * k]; }
  std::int64_t b_length(std::size_t k) const { return offset[2 * k + 2] - offset[2 * k + 1]; }
};

struct StringGen {
  std::int64_t pairs = 100;
  std::int64_t n = 1000;      // length of each A
  std::int64_t m = 1000;      // length of each B (ignored with a mutation rate)
  double spread = 0;          // lengths uniform in [round(len * (1 - spread)), len]
  int alphabet = 10;          // symbols drawn uniformly from 0..alphabet-1
  double mutation = -1;       // < 0: B drawn independently; else B is A edited at this rate
  std::uint64_t seed = 42;
};

// Random pairs. With mutation rate r in [0, 1], B is A with, at each position and with
// probability r, one edit chosen uniformly among substitution (by another symbol), insertion
// (a random symbol before it), deletion, and swap with the next symbol (the last position
// substitutes instead). symbols: 'a'.. for alphabets up to 26, then letters, then letters and
// digits (62), then printable ASCII '!'..'~' (94), then with the space ' '..'~' (95: every
// printable byte). Wider alphabets, for runs in memory only, get every byte but '\n' and
// '\r' (254), then every byte (256); their sets cannot be written.
StringPairs generate_string_pairs(const StringGen& g);

// The widest generated alphabet a file holds: its symbols are the printable bytes, so a
// written set reads back as it was (no tab, newline or control byte among them).
constexpr int kMaxWrittenAlphabet = 95;
// Refuses (InputError, naming kMaxWrittenAlphabet) to write generated pairs of a wider
// alphabet: `ladder gen` asks before anything is generated.
void check_written_alphabet(int alphabet);

// The layout of a file of pairs: A and B on consecutive lines (`lines`), "A<TAB>B" on every
// line (`tsv`), or detected from the file (`automatic`, below).
enum class PairsFormat { automatic, tsv, lines };
// "auto", "tsv" or "lines"; anything else is an InputError.
PairsFormat pairs_format(const std::string& name);

// A text file of pairs, bytes not characters (any byte but '\n' may appear in a string, and
// in the line format a tab too). With `automatic` the format is the tab-separated one when the
// name ends in ".tsv" (any case) or when every line holds exactly one tab and the file holds no
// control byte (below 32 but tab, '\n' and '\r', or 127), the line one when no line holds a
// tab; any other file is refused, naming the line that leaves the format open (a control byte
// in a file with a tab on every line, a line with no tab or two), and must have its format
// stated. The last line may lack its '\n'; a file whose every line ends in "\r\n" has those
// '\r' dropped. Codes are the bytes that occur, in increasing order (an alphabet of at least
// 1). Errors are InputError naming the file and, where it helps, the line (from 1): an empty
// file, one that starts with a byte-order mark or is compressed (data_file.hpp's
// check_text_start), an odd number of lines in the line format, a line without exactly one tab
// in the tab-separated one, a file beyond 2^31 bytes. name stands for the file in messages.
StringPairs read_string_pairs(const std::string& path,
                              PairsFormat format = PairsFormat::automatic);
StringPairs parse_string_pairs(const std::string& bytes, const std::string& name,
                               PairsFormat format = PairsFormat::automatic);

// Consecutive-lines format, written atomically, so that reading it back (format `auto`, as a
// config without one reads it) gives the same set. Refuses (InputError) a string holding '\n'
// or a tab (a line with a tab reads as tab-separated or must have its format stated), a set
// whose every string ends in '\r' (reading it back would drop them), an empty set, and one
// whose file would start with a byte-order mark or a compressed file's magic bytes.
void write_string_pairs(const std::string& path, const StringPairs& pairs);

}  // namespace ladder
