#include "npy.hpp"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"

namespace ladder {
namespace {

template <class T>
struct NpyType;
template <>
struct NpyType<float> { static constexpr const char* descr = "<f4"; };
template <>
struct NpyType<double> { static constexpr const char* descr = "<f8"; };
template <>
struct NpyType<std::int32_t> { static constexpr const char* descr = "<i4"; };
template <>
struct NpyType<std::int64_t> { static constexpr const char* descr = "<i8"; };

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t d : shape) s += std::to_string(d) + ",";
  if (shape.size() > 1) s.pop_back();
  return s + ")";
}

// Header: magic, version 1.0, little-endian length, dict padded with spaces to 64 bytes.
std::string header(const char* descr, const std::vector<std::size_t>& shape) {
  std::string dict = std::string("{'descr': '") + descr +
                     "', 'fortran_order': False, 'shape': " + shape_text(shape) + ", }";
  std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string h = "\x93NUMPY";
  h += '\x01';
  h += '\x00';
  const auto len = static_cast<std::uint16_t>(dict.size());
  h += static_cast<char>(len & 0xff);
  h += static_cast<char>(len >> 8);
  return h + dict;
}

}  // namespace

void write_npy(const std::string& path, const Output& out) {
  std::vector<std::size_t> shape = out.shape.empty() ? std::vector<std::size_t>{out.size()}
                                                     : out.shape;
  std::string bytes = std::visit(
      [&](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        std::string b = header(NpyType<T>::descr, shape);
        b.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
        return b;
      },
      out.data);
  write_file_atomically(path, bytes);
}

NpyArray read_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open '" + path + "'");
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    throw InputError("'" + path + "' is not a .npy file");
  std::size_t len = 0;
  if (magic[6] == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char*>(b), 2)) throw InputError("'" + path + "': truncated");
    len = b[0] | (b[1] << 8);
  } else if (magic[6] == 2 || magic[6] == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char*>(b), 4)) throw InputError("'" + path + "': truncated");
    len = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<std::size_t>(b[3]) << 24);
  } else {
    throw InputError("'" + path + "': unsupported .npy version");
  }
  std::string dict(len, '\0');
  if (!in.read(dict.data(), static_cast<std::streamsize>(len)))
    throw InputError("'" + path + "': truncated header");

  std::smatch m;
  if (!std::regex_search(dict, m, std::regex(R"('descr'\s*:\s*'([^']*)')")))
    throw InputError("'" + path + "': header has no dtype");
  const std::string descr = m[1].str();
  if (descr != "<f4" && descr != "<f8")
    throw InputError("'" + path + "': dtype " + descr + " is not float32 or float64");
  if (std::regex_search(dict, std::regex(R"('fortran_order'\s*:\s*True)")))
    throw InputError("'" + path + "': Fortran-ordered arrays are not supported");
  if (!std::regex_search(dict, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))")))
    throw InputError("'" + path + "': header has no shape");

  NpyArray a;
  std::stringstream dims(m[1].str());
  std::string tok;
  std::size_t count = 1;
  while (std::getline(dims, tok, ',')) {
    if (tok.find_first_not_of(" ") == std::string::npos) continue;
    a.shape.push_back(std::stoull(tok));
    count *= a.shape.back();
  }
  const std::size_t width = descr == "<f4" ? 4 : 8;
  std::string raw(count * width, '\0');
  if (!in.read(raw.data(), static_cast<std::streamsize>(raw.size())))
    throw InputError("'" + path + "': file holds fewer values than its shape says");
  a.values.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    if (width == 4) {
      float f;
      std::memcpy(&f, raw.data() + 4 * i, 4);
      a.values[i] = f;
    } else {
      std::memcpy(&a.values[i], raw.data() + 8 * i, 8);
    }
  }
  return a;
}

}  // namespace ladder
