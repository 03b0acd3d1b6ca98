// IDX files (LeCun's MNIST format, also used by Fashion-MNIST), optionally gzip
// compressed: magic 0x0000 TT NN (TT = element type, NN = number of dimensions), then
// NN big-endian uint32 sizes, then the elements in C order. Only unsigned bytes
// (TT = 0x08), the type of every (Fashion-)MNIST file, are read.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpaudit {

struct IdxArray {
  std::vector<std::size_t> shape;  // e.g. {60000, 28, 28} for images, {60000} for labels
  std::vector<std::uint8_t> data;  // product(shape) values, C order
  std::size_t items() const { return shape.empty() ? 0 : shape[0]; }
  std::size_t item_size() const;  // product of shape[1..]
};

// Reads `path`, gzip-compressed or plain (zlib detects which). Throws DataError naming
// the file for a missing file, a bad magic number, an unsupported element type or a
// truncated body.
IdxArray read_idx(const std::string& path);

// Parses an IDX image already in memory (uncompressed); `where` names it in errors.
IdxArray parse_idx(const std::vector<std::uint8_t>& bytes, const std::string& where);

}  // namespace dpaudit
