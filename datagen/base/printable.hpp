// Text from the user as it may be shown in a one-line message: printable ASCII and printable
// UTF-8 pass through; control bytes, DEL, invalid UTF-8 and invisible characters become \xNN.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

namespace ladder {

// The text safe to print on one line: printable ASCII and printable UTF-8 characters as they
// are, every other byte (control bytes, NUL, DEL, invalid UTF-8, invisible or bidirectional
// format characters such as a byte-order mark) as \xNN. At most max_chars characters of the
// text are shown (an escaped byte counts as one); longer text ends in "...". Applying it to
// its own output changes nothing (unless it truncates).
std::string printable(const std::string& text, std::size_t max_chars = 40);

// The whole text made safe as printable makes it, never shortened: every name read from a file
// (variant, point, sweep, config, study, peer and file names) passes through it wherever ladder
// prints one, so that no handover, config or results file can recolour, move or rewrite what
// the user's terminal shows (ESC, BEL, C1 controls, bidirectional overrides and isolates).
// Files ladder writes keep the text as it is.
std::string printable_all(const std::string& text);

// Columns the text takes on a terminal: its UTF-8 characters, not its bytes (a "±" takes one).
std::size_t display_width(const std::string& text);

// The text in lines of at most `width` columns, broken at spaces (runs of spaces between words
// become one); a word wider than `width` stands whole on a line of its own: nothing is ever
// cut inside a word. An empty text gives no line.
std::vector<std::string> wrap_words(const std::string& text, std::size_t width);

}  // namespace ladder
