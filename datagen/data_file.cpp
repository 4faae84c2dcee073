#include "data_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <new>

#include "base/errors.hpp"

namespace ladder {
namespace {

std::string reason(int err) { return printable(std::strerror(err), 200); }

// open(2), retried when a signal interrupts it. O_NONBLOCK: opening a FIFO does not wait for a
// writer (the descriptor is checked, and refused, before anything is read from it).
int open_without_waiting(const std::string& path) {
  int fd;
  do {
    fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  } while (fd < 0 && errno == EINTR);
  return fd;
}

[[noreturn]] void refuse_open(const std::string& path, const std::string& file, int err) {
  if (err == ENOENT || err == ENOTDIR) throw InputError("cannot open " + file + ": no such file");
  // A socket cannot be opened at all (ENXIO): name it as what it is not.
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
    throw InputError(file + " is not a regular file");
  throw InputError("cannot open " + file + ": " + reason(err));
}

// The magic bytes of the formats no reader takes, and what the reader says of such a file.
struct Signature {
  std::string_view magic;
  const char* noun;     // for a writer
  const char* message;  // after the file's name
  bool compressed;
};

using namespace std::string_view_literals;
constexpr Signature kSignatures[] = {
    {"\x1F\x8B"sv, "a gzip header", "is gzip-compressed: gunzip it first", true},
    {"\xFD" "7zXZ\0"sv, "an xz header", "is xz-compressed: unxz it first", true},
    {"\x28\xB5\x2F\xFD"sv, "a zstd header", "is zstd-compressed: unzstd it first", true},
    {"PK\x03\x04"sv, "a zip header", "is a zip archive: unzip it first", true},
    {"\xEF\xBB\xBF"sv, "a UTF-8 byte-order mark",
     "starts with a UTF-8 byte-order mark (BOM); save it without one", false},
    {"\xFF\xFE"sv, "a UTF-16 byte-order mark", "is UTF-16 text; save it as UTF-8 or ASCII", false},
    {"\xFE\xFF"sv, "a UTF-16 byte-order mark", "is UTF-16 text; save it as UTF-8 or ASCII", false},
};

// bzip2: "BZh", the block size '1'..'9', then the block magic (the digits of pi): letters
// alone could start a line of text.
bool is_bzip2(std::string_view s) {
  return s.size() >= 10 && s.substr(0, 3) == "BZh" && s[3] >= '1' && s[3] <= '9' &&
         s.substr(4, 6) == "\x31\x41\x59\x26\x53\x59"sv;
}

const Signature* signature_of(std::string_view start, bool compressed_only) {
  static constexpr Signature kBzip2{"BZh"sv, "a bzip2 header",
                                    "is bzip2-compressed: bunzip2 it first", true};
  if (is_bzip2(start)) return &kBzip2;
  for (const Signature& s : kSignatures)
    if ((s.compressed || !compressed_only) && start.substr(0, s.magic.size()) == s.magic)
      return &s;
  return nullptr;
}

}  // namespace

std::string quoted_name(const std::string& name) { return "'" + printable(name, 200) + "'"; }

DataFile::DataFile(const std::string& path, const std::string& file, const std::string& kind)
    : file_(file) {
  // No file name holds a NUL byte; the system would see only the part before it.
  if (path.find('\0') != std::string::npos)
    throw InputError("cannot open " + file + ": no such file");
  fd_ = open_without_waiting(path);
  if (fd_ < 0) refuse_open(path, file, errno);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    throw InputError("cannot read " + file + ": " + reason(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    if (S_ISDIR(st.st_mode)) throw InputError(file + " is a directory, not " + kind);
    // A FIFO would block, a device has no size to check a header against (and /dev/zero never
    // ends).
    throw InputError(file + " is not a regular file");
  }
  size_ = static_cast<std::uintmax_t>(st.st_size);
  // Reads of a regular file never wait anyway; blocking reads are the plain case.
  ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
}

DataFile::~DataFile() {
  if (fd_ >= 0) ::close(fd_);
}

void DataFile::read_exactly(char* to, std::size_t n) {
  while (n > 0) {
    const ::ssize_t got = ::read(fd_, to, n);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError("cannot read " + file_ + ": " + reason(errno));
    if (got == 0) throw InputError(file_ + " is truncated (it changed while being read?)");
    to += got;
    n -= static_cast<std::size_t>(got);
  }
}

void DataFile::seek(std::uintmax_t offset) {
  if (::lseek(fd_, static_cast<off_t>(offset), SEEK_SET) < 0)
    throw InputError("cannot read " + file_ + ": " + reason(errno));
}

std::string read_whole_file(const std::string& path, const std::string& file,
                            const std::string& kind,
                            const std::function<void(std::uintmax_t)>& check_size) {
  DataFile in(path, file, kind);
  check_size(in.size());
  std::string bytes;
  try {
    bytes.resize(static_cast<std::size_t>(in.size()));
  } catch (const std::bad_alloc&) {
    throw InputError(file + " is too large to read into memory");
  } catch (const std::length_error&) {
    throw InputError(file + " is too large to read into memory");
  }
  in.read_exactly(bytes.data(), bytes.size());
  return bytes;
}

std::string read_file_start(const std::string& path, const std::string& file,
                            const std::string& kind, std::size_t n) {
  DataFile in(path, file, kind);
  std::string start(static_cast<std::size_t>(std::min<std::uintmax_t>(in.size(), n)), '\0');
  in.read_exactly(start.data(), start.size());
  return start;
}

void refuse_compressed(std::string_view start, const std::string& file) {
  if (const Signature* s = signature_of(start, true)) throw InputError(file + " " + s->message);
}

void check_text_start(std::string_view start, const std::string& file) {
  if (const Signature* s = signature_of(start, false)) throw InputError(file + " " + s->message);
}

std::string refused_text_start(std::string_view start) {
  const Signature* s = signature_of(start, false);
  return s ? s->noun : "";
}

}  // namespace ladder
