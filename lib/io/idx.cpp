#include "io/idx.hpp"

#include <zlib.h>

#include <functional>
#include <numeric>

#include "core/error.hpp"

namespace dpaudit {

std::size_t IdxArray::item_size() const {
  if (shape.empty()) return 0;
  return std::accumulate(shape.begin() + 1, shape.end(), std::size_t{1}, std::multiplies<>());
}

namespace {

constexpr std::uint8_t kUnsignedByte = 0x08;

std::uint32_t big_endian_u32(const std::uint8_t* p) {
  return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) |
         std::uint32_t{p[3]};
}

// All bytes of a gzip (or plain) file.
std::vector<std::uint8_t> read_gzip_file(const std::string& path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) throw DataError("cannot open IDX file", path);
  std::vector<std::uint8_t> bytes;
  std::uint8_t chunk[1 << 16];
  int got = 0;
  while ((got = gzread(file, chunk, sizeof chunk)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + got);
  int status = Z_OK;
  const char* message = gzerror(file, &status);
  const std::string error = (got < 0 && message) ? message : "";
  gzclose(file);
  if (got < 0) throw DataError("corrupt gzip stream: " + error, path);
  return bytes;
}

}  // namespace

IdxArray parse_idx(const std::vector<std::uint8_t>& bytes, const std::string& where) {
  if (bytes.size() < 4 || bytes[0] != 0 || bytes[1] != 0)
    throw DataError("not an IDX file (bad magic number)", where);
  if (bytes[2] != kUnsignedByte)
    throw DataError(
        "unsupported IDX element type " + std::to_string(bytes[2]) + " (only unsigned byte)",
        where);
  const std::size_t dims = bytes[3];
  if (dims == 0) throw DataError("IDX file has no dimensions", where);
  const std::size_t header = 4 + 4 * dims;
  if (bytes.size() < header) throw DataError("truncated IDX header", where);
  IdxArray a;
  std::size_t total = 1;
  for (std::size_t i = 0; i < dims; ++i) {
    a.shape.push_back(big_endian_u32(&bytes[4 + 4 * i]));
    // A product that wraps (e.g. 2^22 x 2^21 x 2^21 = 2^64 -> 0) would pass the size check.
    if (__builtin_mul_overflow(total, a.shape.back(), &total))
      throw DataError("IDX sizes multiply past 2^64", where);
  }
  if (bytes.size() - header < total)
    throw DataError("truncated IDX body: " + std::to_string(bytes.size() - header) + " of " +
                        std::to_string(total) + " bytes",
                    where);
  a.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header),
                bytes.begin() + static_cast<std::ptrdiff_t>(header + total));
  return a;
}

IdxArray read_idx(const std::string& path) {
  return parse_idx(read_gzip_file(path), path);
}

}  // namespace dpaudit
