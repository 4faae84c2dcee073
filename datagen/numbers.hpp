// Strict number parsing and safe echoing of user text, shared by every reader and by the
// command line. A number must be the whole text: no surrounding spaces, no trailing bytes (an
// embedded NUL included), no hexadecimal. Errors are InputError with one printable line that
// names `what` (the caller's words for the place: "parameter 'n'", "'f.tsv' line 3 column 2")
// and echoes the offending text through printable().
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/printable.hpp"

namespace ladder {

// A decimal integer with an optional sign. Values beyond int64 are reported as out of range
// (the text is echoed as given, never wrapped).
std::int64_t parse_int64(const std::string& text, const std::string& what);

// A finite decimal number ("1", "-2.5e-3", ".5"); "nan", "inf" and values beyond the range of
// a double are errors. Values too small for a double read as zero.
double parse_double(const std::string& text, const std::string& what);

// As parse_double, rounded once to float32; a magnitude beyond float32's largest value (1e39)
// is an error, not infinity. Values too small for a float32 read as zero.
float parse_float32(const std::string& text, const std::string& what);

// Why a line of a text file that should hold numbers does not, when it is laid out in a way no
// reader takes: "uses ';' as separator" (values separated by semicolons, perhaps with decimal
// commas, as spreadsheets in many locales export CSV) or "holds quoted numbers" (numbers only,
// one at least in quotes: "1" or '2.5'); "" otherwise (a line of names holds neither). The
// readers add what they expect.
std::string foreign_number_layout(std::string_view line);

}  // namespace ladder
