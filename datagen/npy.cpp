#include "npy.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <new>
#include <string_view>

#include "base/atomic_file.hpp"
#include "base/errors.hpp"
#include "data_file.hpp"
#include "numbers.hpp"

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


// --- reading ------------------------------------------------------------------------------

constexpr std::size_t kMaxHeaderBytes = 64 * 1024;
constexpr std::size_t kMaxRank = 64;

// "(3, 4)", "(3,)", "()": the shape as numpy prints it.
std::string shape_words(const std::vector<std::size_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

struct Header {
  std::size_t data_offset = 0;  // bytes before the data
  std::size_t width = 0;        // 4 (float32, int32) or 8 (float64, int64)
  bool integer = false;         // int32 / int64 rather than float32 / float64
  bool swap = false;            // the data's byte order is not the host's
  std::vector<std::size_t> shape;
  std::size_t count = 0;        // elements
  std::uint64_t data_bytes = 0;
};

// From the file's first bytes (at least min(size, 12)): the offset of the data, that is the
// magic, version, length field and the header dictionary.
std::size_t data_offset(std::string_view head, std::uint64_t size, const std::string& file) {
  refuse_compressed(head, file);
  if (head.size() < 6 || head.substr(0, 6) != "\x93NUMPY")
    throw InputError(file + " is not a .npy file (it does not start with \\x93NUMPY)");
  if (head.size() < 10) throw InputError(file + " is truncated inside its .npy header");
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(head[i]); };
  const unsigned major = byte(6), minor = byte(7);
  std::size_t len = 0, fixed = 0;
  if (major == 1 && minor == 0) {
    fixed = 10;
    len = byte(8) | (byte(9) << 8);
  } else if ((major == 2 || major == 3) && minor == 0) {
    if (head.size() < 12) throw InputError(file + " is truncated inside its .npy header");
    fixed = 12;
    len = byte(8) | (byte(9) << 8) | (byte(10) << 16) | (static_cast<std::size_t>(byte(11)) << 24);
  } else {
    throw InputError(file + ": .npy format version " + std::to_string(major) + "." +
                     std::to_string(minor) + " is not supported (1.0, 2.0 and 3.0 are)");
  }
  if (len > kMaxHeaderBytes)
    throw InputError(file + ": .npy header of " + std::to_string(len) +
                     " bytes is longer than the limit of " + std::to_string(kMaxHeaderBytes));
  if (fixed + len > size)
    throw InputError(file + " is truncated: its .npy header needs " + std::to_string(fixed + len) +
                     " bytes, the file has " + std::to_string(size));
  return fixed + len;
}

// The header dictionary, a Python literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// parsed strictly: exactly these three keys, each once.
class DictParser {
 public:
  DictParser(std::string_view text, const std::string& file) : s_(text), file_(file) {}

  void parse(std::string& descr, bool& fortran, std::vector<std::size_t>& shape) {
    bool seen_descr = false, seen_fortran = false, seen_shape = false;
    skip_space();
    expect('{');
    for (;;) {
      skip_space();
      if (peek() == '}') break;
      const std::string key = string_literal("a key");
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr") {
        once(seen_descr, key);
        if (peek() == '[')
          throw InputError(file_ + ": dtype is a structured (record) type, not float32 or "
                                   "float64");
        descr = string_literal("the dtype ('descr')");
      } else if (key == "fortran_order") {
        once(seen_fortran, key);
        fortran = boolean();
      } else if (key == "shape") {
        once(seen_shape, key);
        shape = tuple();
      } else {
        throw InputError(file_ + ": .npy header has an unexpected key '" + printable(key) +
                         "' (it holds 'descr', 'fortran_order' and 'shape')");
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() != '}') fail("',' or '}'");
    }
    ++pos_;
    skip_space();
    if (pos_ != s_.size()) fail("the end of the header after '}'");
    if (!seen_descr) throw InputError(file_ + ": .npy header has no dtype ('descr')");
    if (!seen_fortran) throw InputError(file_ + ": .npy header has no 'fortran_order'");
    if (!seen_shape) throw InputError(file_ + ": .npy header has no 'shape'");
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' ||
                                s_[pos_] == '\r'))
      ++pos_;
  }
  [[noreturn]] void fail(const char* expected) const {
    throw InputError(file_ + ": malformed .npy header: expected " + expected + " at byte " +
                     std::to_string(pos_) + " of '" + printable(std::string(s_), 80) + "'");
  }
  void expect(char c) {
    if (peek() != c) fail(c == '{' ? "'{'" : c == ':' ? "':'" : "a delimiter");
    ++pos_;
  }
  void once(bool& seen, const std::string& key) {
    if (seen) throw InputError(file_ + ": .npy header repeats the key '" + key + "'");
    seen = true;
  }
  std::string string_literal(const char* what) {
    const char q = peek();
    if (q != '\'' && q != '"') fail(what);
    const std::size_t end = s_.find(q, pos_ + 1);
    if (end == std::string_view::npos) fail("a closing quote");
    std::string v(s_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return v;
  }
  bool boolean() {
    if (s_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (s_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("True or False for 'fortran_order'");
  }
  std::vector<std::size_t> tuple() {
    if (peek() != '(') fail("a tuple such as (3, 4) for 'shape'");
    const std::size_t close = s_.find(')', pos_);
    if (close == std::string_view::npos) fail("')' closing the shape");
    const std::string text(s_.substr(pos_, close - pos_ + 1));
    std::string_view inner = s_.substr(pos_ + 1, close - pos_ - 1);
    pos_ = close + 1;
    const std::string what = file_ + " shape " + printable(text);
    std::vector<std::size_t> shape;
    const auto trim = [](std::string_view t) {
      while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
      while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
      return t;
    };
    if (trim(inner).empty()) return shape;  // "()": a scalar
    for (std::size_t dim = 1;; ++dim) {
      const std::size_t comma = inner.find(',');
      const bool last = comma == std::string_view::npos;
      std::string_view tok = trim(inner.substr(0, comma));
      if (tok.empty()) {
        if (last && dim > 1) break;  // the trailing comma of "(3,)" or "(3, 4,)"
        throw InputError(what + " has an empty dimension " + std::to_string(dim));
      }
      if (tok.size() > 1 && (tok.back() == 'L' || tok.back() == 'l')) tok.remove_suffix(1);
      const std::string digits(tok);
      const std::int64_t d = parse_int64(digits, what + " dimension " + std::to_string(dim));
      if (d < 0)
        throw InputError(what + " dimension " + std::to_string(dim) +
                         " must not be negative, got '" + printable(digits) + "'");
      if (shape.size() == kMaxRank)
        throw InputError(what + " has more than " + std::to_string(kMaxRank) + " dimensions");
      shape.push_back(static_cast<std::size_t>(d));
      if (last) break;
      inner.remove_prefix(comma + 1);
    }
    return shape;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
  const std::string& file_;
};

// The whole header (bytes [0, data offset)) checked against the file's size.
Header parse_header(std::string_view bytes, std::uint64_t size, const std::string& file,
                    NpyTypes types) {
  Header h;
  h.data_offset = data_offset(bytes, size, file);
  const std::size_t fixed = static_cast<unsigned char>(bytes[6]) == 1 ? 10 : 12;
  std::string descr;
  bool fortran = false;
  DictParser(bytes.substr(fixed, h.data_offset - fixed), file).parse(descr, fortran, h.shape);

  const std::string kind = descr.size() == 3 ? descr.substr(1) : "";
  const bool ints = types == NpyTypes::outputs;
  if (kind == "f4" || kind == "f8" || (ints && (kind == "i4" || kind == "i8"))) {
    h.width = kind[1] == '4' ? 4 : 8;
    h.integer = kind[0] == 'i';
  }
  if (h.width == 0 || (descr[0] != '<' && descr[0] != '>'))
    throw InputError(file + ": dtype '" + printable(descr) + "' is not " +
                     (ints ? "float32, float64, int32 or int64" : "float32 or float64") +
                     " (little- or big-endian)");
  h.swap = (descr[0] == '<') != (std::endian::native == std::endian::little);
  if (fortran)
    throw InputError(file + ": Fortran-ordered arrays are not supported (save a C-ordered copy, "
                            "numpy.ascontiguousarray)");

  // The product of the non-zero dimensions must not overflow even when another dimension is
  // zero: whoever multiplies the dimensions later must not overflow either.
  std::uint64_t product = h.width;
  bool overflow = false, empty = false;
  for (std::size_t d : h.shape) {
    if (d == 0) empty = true;
    else overflow = overflow || __builtin_mul_overflow(product, std::uint64_t{d}, &product);
  }
  const std::string dtype = std::string(h.integer ? "int" : "float") + (h.width == 4 ? "32" : "64");
  if (overflow)
    throw InputError(file + ": shape " + shape_words(h.shape) + " of " + dtype +
                     " is too large (its size in bytes does not fit in 64 bits)");
  h.data_bytes = empty ? 0 : product;
  const std::uint64_t count = h.data_bytes / h.width;
  const std::uint64_t present = size - h.data_offset;
  if (present != h.data_bytes)
    throw InputError(file + " holds " + (present < h.data_bytes ? "fewer" : "more") +
                     " data bytes (" + std::to_string(present) + ") than its shape " +
                     shape_words(h.shape) + " of " + dtype + " needs (" +
                     std::to_string(h.data_bytes) + ")");
  h.count = static_cast<std::size_t>(count);
  return h;
}

// Converts n elements of raw data to doubles.
void convert(const char* raw, std::size_t n, const Header& h, double* out) {
  for (std::size_t i = 0; i < n; ++i) {
    if (h.width == 4) {
      std::uint32_t u;
      std::memcpy(&u, raw + 4 * i, 4);
      if (h.swap) u = __builtin_bswap32(u);
      out[i] = h.integer ? double(std::bit_cast<std::int32_t>(u)) : double(std::bit_cast<float>(u));
    } else {
      std::uint64_t u;
      std::memcpy(&u, raw + 8 * i, 8);
      if (h.swap) u = __builtin_bswap64(u);
      out[i] = h.integer ? double(std::bit_cast<std::int64_t>(u)) : std::bit_cast<double>(u);
    }
  }
}

// An array of the header's shape with room for its values.
NpyArray allocate(const Header& h, const std::string& file) {
  NpyArray a;
  a.shape = h.shape;
  a.integer = h.integer;
  try {
    a.values.resize(h.count);
  } catch (const std::bad_alloc&) {
    throw InputError(file + ": " + std::to_string(h.count) + " values do not fit in memory");
  } catch (const std::length_error&) {
    throw InputError(file + ": " + std::to_string(h.count) + " values do not fit in memory");
  }
  return a;
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

NpyArray parse_npy(const std::string& bytes, const std::string& name, NpyTypes types) {
  const std::string file = quoted_name(name);
  const Header h = parse_header(bytes, bytes.size(), file, types);
  NpyArray a = allocate(h, file);
  convert(bytes.data() + h.data_offset, h.count, h, a.values.data());
  return a;
}

NpyArray read_npy(const std::string& path, NpyTypes types) {
  const std::string file = quoted_name(path);
  DataFile in(path, file, "a .npy file");
  const std::uintmax_t size = in.size();

  // The fixed part first, to learn the header's length; then the whole header.
  std::string header(static_cast<std::size_t>(std::min<std::uintmax_t>(size, 12)), '\0');
  in.read_exactly(header.data(), header.size());
  const std::size_t offset = data_offset(header, size, file);
  const std::size_t have = header.size();
  header.resize(offset);
  if (offset > have) in.read_exactly(header.data() + have, offset - have);
  else in.seek(offset);
  const Header h = parse_header(header, size, file, types);

  NpyArray a = allocate(h, file);
  constexpr std::size_t kChunk = 1 << 16;  // elements per read
  std::string raw(std::min(h.count, kChunk) * h.width, '\0');
  for (std::size_t done = 0; done < h.count;) {
    const std::size_t n = std::min(kChunk, h.count - done);
    in.read_exactly(raw.data(), n * h.width);
    convert(raw.data(), n, h, a.values.data() + done);
    done += n;
  }
  return a;
}

Output read_npy_output(const std::string& path) {
  NpyArray a = read_npy(path, NpyTypes::outputs);
  Output out;
  out.shape = a.shape;
  if (!a.integer) {
    out.data = std::move(a.values);
    return out;
  }
  // int64 values past 2^53 were rounded on the way to double: refused rather than compared.
  std::vector<std::int64_t> v(a.values.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (std::fabs(a.values[i]) > 9007199254740992.0)
      throw InputError(quoted_name(path) + ": integer output " + std::to_string(i) +
                       " is beyond 2^53, more than a distance or an id can be");
    v[i] = static_cast<std::int64_t>(a.values[i]);
  }
  out.data = std::move(v);
  return out;
}

}  // namespace ladder
