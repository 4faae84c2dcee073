// Shared by the fuzz targets: the input as text, a size cap, and checks that turn a broken
// promise of a reader into a crash (which libFuzzer and the replay driver report).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "datagen/base/errors.hpp"
#include "datagen/numbers.hpp"

namespace ladder::fuzz {

// Inputs past this size are skipped: the targets are about structure, not volume.
constexpr std::size_t kMaxInputBytes = std::size_t{1} << 20;

inline std::string input_text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A reader's answer breaks what its header promises.
[[noreturn]] inline void broken_promise(const char* reader, const std::string& what) {
  std::fprintf(stderr, "fuzz: %s broke its contract: %s\n", reader, what.c_str());
  std::fflush(stderr);
  std::abort();
}

// Every reader answers bad input with an InputError of one printable line (the CLI prints it
// as is): printable() must leave the message unchanged.
inline void check_message(const char* reader, const ladder::InputError& e) {
  const std::string m = e.what();
  if (m.empty()) broken_promise(reader, "an InputError with an empty message");
  if (ladder::printable(m, m.size() + 1) != m)
    broken_promise(reader, "an InputError message that is not one printable line: " +
                               ladder::printable(m, 300));
}

}  // namespace ladder::fuzz
