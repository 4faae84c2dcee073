// MNIST's image files in LeCun's IDX format: a 4-byte magic number (two zero bytes, the value
// type, the number of dimensions), one big-endian uint32 per dimension, then the values in C
// order. Only what MNIST's images are is read: unsigned bytes in 3 dimensions (count, rows,
// cols). Each image becomes a series: its rows are the time axis, its columns the coordinates.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <new>
#include <string_view>

#include "base/errors.hpp"
#include "data_file.hpp"
#include "multiseries.hpp"

namespace ladder {
namespace {

constexpr std::size_t kHeaderBytes = 16;  // magic and three dimensions
constexpr std::uint32_t kImagesMagic = 0x00000803;
constexpr std::uint32_t kLabelsMagic = 0x00000801;

struct IdxHeader {
  std::size_t count = 0, rows = 0, cols = 0;
  std::uint64_t data_bytes = 0;  // count * rows * cols, one byte each
};

std::uint32_t big_endian32(std::string_view bytes, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

std::string hex32(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08X", static_cast<unsigned>(v));
  return buf;
}

// What a wrong magic number most likely means, so the message can say what to do instead.
std::string magic_hint(std::uint32_t magic) {
  if (magic == kLabelsMagic)
    return "0x00000801 is an IDX labels file (*-labels-idx1-ubyte); give the images file "
           "(*-images-idx3-ubyte)";
  if (magic >> 16 != 0) return "it is not an IDX file";
  const unsigned type = magic >> 8 & 0xFF, dims = magic & 0xFF;
  const char* name = type == 0x08   ? "unsigned bytes"
                     : type == 0x09 ? "signed bytes"
                     : type == 0x0B ? "int16"
                     : type == 0x0C ? "int32"
                     : type == 0x0D ? "float32"
                     : type == 0x0E ? "float64"
                                    : nullptr;
  if (!name) return "it is not an IDX file (unknown value type " + std::to_string(type) + ")";
  return "it is an IDX file of " + std::string(name) + " in " + std::to_string(dims) +
         " dimension" + (dims == 1 ? "" : "s") + "; images are unsigned bytes in 3";
}

// The header from the file's first min(size, 16) bytes, checked against the file's size
// before anything is allocated.
IdxHeader parse_header(std::string_view head, std::uint64_t size, const std::string& file) {
  refuse_compressed(head, file);
  if (head.size() < 4)
    throw InputError(file + " is truncated: an IDX images file starts with the 4-byte magic "
                            "number 0x00000803, the file has " + std::to_string(size) + " bytes");
  const std::uint32_t magic = big_endian32(head, 0);
  if (magic != kImagesMagic)
    throw InputError(file + " is not an IDX images file: it starts with " + hex32(magic) +
                     ", an images file starts with 0x00000803 (" + magic_hint(magic) + ")");
  if (head.size() < kHeaderBytes)
    throw InputError(file + " is truncated inside its IDX header (16 bytes), the file has " +
                     std::to_string(size));
  IdxHeader h;
  h.count = big_endian32(head, 4);
  h.rows = big_endian32(head, 8);
  h.cols = big_endian32(head, 12);
  const std::string dims = std::to_string(h.count) + " images of " + std::to_string(h.rows) +
                           " x " + std::to_string(h.cols);
  if (h.count == 0 || h.rows == 0 || h.cols == 0)
    throw InputError(file + " declares " + dims + ": every dimension must be at least 1");
  // Three 32-bit factors can exceed 64 bits; an overflow must not pass as a small size.
  std::uint64_t bytes = h.count;
  if (__builtin_mul_overflow(bytes, std::uint64_t{h.rows}, &bytes) ||
      __builtin_mul_overflow(bytes, std::uint64_t{h.cols}, &bytes))
    throw InputError(file + " declares " + dims + ", more bytes than fit in 64 bits");
  h.data_bytes = bytes;
  const std::uint64_t present = size - kHeaderBytes;
  if (present != h.data_bytes)
    throw InputError(file + " holds " + (present < h.data_bytes ? "fewer" : "more") +
                     " data bytes (" + std::to_string(present) + ") than its header's " + dims +
                     " need (" + std::to_string(h.data_bytes) + ")");
  return h;
}

// A set of the header's shape with room for its values (8 bytes for each byte of the file).
MultiSeries allocate(const IdxHeader& h, const std::string& file) {
  MultiSeries set;
  set.count = h.count;
  set.length = h.rows;
  set.dim = h.cols;
  try {
    set.values.resize(static_cast<std::size_t>(h.data_bytes));
  } catch (const std::bad_alloc&) {
    throw InputError(file + ": " + std::to_string(h.data_bytes) + " values do not fit in memory");
  } catch (const std::length_error&) {
    throw InputError(file + ": " + std::to_string(h.data_bytes) + " values do not fit in memory");
  }
  return set;
}

// Bytes 0..255 as doubles: always finite, so no check is needed.
void convert(const char* raw, std::size_t n, double* out) {
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<unsigned char>(raw[i]);
}

}  // namespace

MultiSeries parse_idx_images(const std::string& bytes, const std::string& name) {
  const std::string file = quoted_name(name);
  const std::string_view head(bytes.data(), std::min(bytes.size(), kHeaderBytes));
  const IdxHeader h = parse_header(head, bytes.size(), file);
  MultiSeries set = allocate(h, file);
  convert(bytes.data() + kHeaderBytes, set.values.size(), set.values.data());
  return set;
}

MultiSeries read_idx_images(const std::string& path) {
  const std::string file = quoted_name(path);
  DataFile in(path, file, "an IDX images file");
  const std::uintmax_t size = in.size();
  std::string head(static_cast<std::size_t>(std::min<std::uintmax_t>(size, kHeaderBytes)), '\0');
  in.read_exactly(head.data(), head.size());
  const IdxHeader h = parse_header(head, size, file);

  MultiSeries set = allocate(h, file);
  constexpr std::size_t kChunk = 1 << 20;  // bytes per read
  std::string raw(std::min(set.values.size(), kChunk), '\0');
  for (std::size_t done = 0; done < set.values.size();) {
    const std::size_t n = std::min(kChunk, set.values.size() - done);
    in.read_exactly(raw.data(), n);
    convert(raw.data(), n, set.values.data() + done);
    done += n;
  }
  return set;
}

}  // namespace ladder
