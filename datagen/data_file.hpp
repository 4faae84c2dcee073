// Opening a user's data file: the checks every reader (UCR text, .npy, IDX, string pairs,
// points, JSON, and a study telling a file's kind by its first bytes) makes before it reads a
// byte, and what a file's first bytes say it is when no reader can take it, in one place so
// that their messages agree.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace ladder {

// The file name as messages show it: quoted, printable, at most 200 characters.
std::string quoted_name(const std::string& name);

// A regular file open for reading. Opening refuses, with an InputError naming `file` (the
// quoted name): a missing file, a directory ("is a directory, not <kind>", kind as in "a .npy
// file"), anything but a regular file (a FIFO, a device, a socket), a file that cannot be
// opened. The file is opened without waiting and checked on the open descriptor, so a FIFO
// (which would block until a writer comes) is refused before a byte is read, and a file
// swapped for one after a check cannot slip through.
class DataFile {
 public:
  DataFile(const std::string& path, const std::string& file, const std::string& kind);
  ~DataFile();
  DataFile(const DataFile&) = delete;
  DataFile& operator=(const DataFile&) = delete;

  // The size when the file was opened.
  std::uintmax_t size() const { return size_; }
  // Reads exactly n bytes; fewer means the file shrank after its size was taken.
  void read_exactly(char* to, std::size_t n);
  // The next reads start at byte `offset`.
  void seek(std::uintmax_t offset);

 private:
  int fd_ = -1;
  std::uintmax_t size_ = 0;
  std::string file_;
};

// A whole file in memory, opened as DataFile does; `check_size` sees the size first and
// throws when the reader refuses it.
std::string read_whole_file(const std::string& path, const std::string& file,
                            const std::string& kind,
                            const std::function<void(std::uintmax_t)>& check_size);

// At most the first n bytes of a file, opened as DataFile does (to tell its kind).
std::string read_file_start(const std::string& path, const std::string& file,
                            const std::string& kind, std::size_t n);

// Refuses a compressed file by its magic bytes (gzip, bzip2, xz, zstd, zip): no reader takes
// one, and the message says so ("'f.gz' is gzip-compressed: gunzip it first").
void refuse_compressed(std::string_view start, const std::string& file);

// What a text file must not start with: compressed data as above, a UTF-8 byte-order mark or
// UTF-16 text. Every text reader calls it on the file's first bytes.
void check_text_start(std::string_view start, const std::string& file);

// What check_text_start would refuse in text starting so, as a noun ("a gzip header", "a
// UTF-8 byte-order mark"), or "": for a writer that must not write what cannot be read back.
std::string refused_text_start(std::string_view start);

}  // namespace ladder
