// Text from the user as it may be shown in a one-line message: printable ASCII and printable
// UTF-8 pass through; control bytes, DEL, invalid UTF-8 and invisible characters become \xNN.
#pragma once
#include <cstddef>
#include <string>

namespace ladder {

// The text safe to print on one line: printable ASCII and printable UTF-8 characters as they
// are, every other byte (control bytes, NUL, DEL, invalid UTF-8, invisible or bidirectional
// format characters such as a byte-order mark) as \xNN. At most max_chars characters of the
// text are shown (an escaped byte counts as one); longer text ends in "...". Applying it to
// its own output changes nothing (unless it truncates).
std::string printable(const std::string& text, std::size_t max_chars = 40);

}  // namespace ladder
