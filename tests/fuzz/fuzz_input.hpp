// Shared by the fuzz targets: the input as text, a size cap, and checks that turn a broken
// promise of a reader into a crash (which libFuzzer and the replay driver report).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

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

// The files of a target that reads several (shards to merge, a folder of costs): one input
// holds them one after the other, separated by NUL bytes (which no JSON text holds). At most
// `max` of them; the rest of the input goes to the last.
inline std::vector<std::string> input_files(const std::string& text, std::size_t max) {
  std::vector<std::string> files;
  std::size_t start = 0;
  while (files.size() + 1 < max) {
    const std::size_t nul = text.find('\0', start);
    if (nul == std::string::npos) break;
    files.push_back(text.substr(start, nul - start));
    start = nul + 1;
  }
  files.push_back(text.substr(start));
  return files;
}

// A folder of this process's own under the temporary directory, for targets whose reader
// takes paths: emptied for every input, removed at exit.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "ladder-fuzz-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
      std::perror("fuzz: mkdtemp");
      std::abort();
    }
    root_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(root_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  // root/name, emptied (created when missing).
  std::filesystem::path fresh(const std::string& name) const {
    const std::filesystem::path p = root_ / name;
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
  }
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
};

inline void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::fprintf(stderr, "fuzz: cannot write %s\n", path.c_str());
    std::abort();
  }
}

}  // namespace ladder::fuzz
