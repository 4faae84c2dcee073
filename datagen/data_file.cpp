#include "data_file.hpp"

#include <filesystem>

#include "base/errors.hpp"

namespace ladder {

std::string quoted_name(const std::string& name) { return "'" + printable(name, 200) + "'"; }

std::uintmax_t open_data_file(const std::string& path, const std::string& file,
                              const std::string& kind, std::ifstream& in) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (st.type() == fs::file_type::not_found)
    throw InputError("cannot open " + file + ": no such file");
  if (ec) throw InputError("cannot open " + file + ": " + printable(ec.message(), 200));
  if (fs::is_directory(st)) throw InputError(file + " is a directory, not " + kind);
  // A device or a pipe has no size to check the header against (and /dev/zero never ends).
  if (!fs::is_regular_file(st)) throw InputError(file + " is not a regular file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) throw InputError("cannot read " + file + ": " + printable(ec.message(), 200));
  in.open(path, std::ios::binary);
  if (!in) throw InputError("cannot open " + file);
  return size;
}

void read_exactly(std::ifstream& in, char* to, std::size_t n, const std::string& file) {
  if (!in.read(to, static_cast<std::streamsize>(n)))
    throw InputError(file + " is truncated (it changed while being read?)");
}

std::string read_whole_file(const std::string& path, const std::string& file,
                            const std::string& kind,
                            const std::function<void(std::uintmax_t)>& check_size) {
  std::ifstream in;
  const std::uintmax_t size = open_data_file(path, file, kind, in);
  check_size(size);
  std::string bytes;
  try {
    bytes.resize(static_cast<std::size_t>(size));
  } catch (const std::bad_alloc&) {
    throw InputError(file + " is too large to read into memory");
  }
  read_exactly(in, bytes.data(), bytes.size(), file);
  return bytes;
}

}  // namespace ladder
