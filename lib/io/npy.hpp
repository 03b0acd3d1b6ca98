// NPY files (numpy's .npy format, header versions 1.0, 2.0 and 3.0): little-endian
// float32 ('<f4') or float64 ('<f8'), C order, 1-D or 2-D. A model or model delta is
// a 1-D vector; a stack of canaries or per-round deltas is rows x cols.
#pragma once
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <istream>
#include <memory>
#include <string>
#include <vector>

namespace dpaudit {

enum class NpyDtype { f4, f8 };

struct NpyHeader {
  NpyDtype dtype = NpyDtype::f8;
  std::vector<std::size_t> shape;  // 1 or 2 entries
  std::size_t rows() const { return shape.size() == 1 ? 1 : shape[0]; }
  std::size_t cols() const { return shape.size() == 1 ? shape[0] : shape[1]; }
  std::size_t size() const { return rows() * cols(); }
};

// All values of an NPY array, widened to double, in C order.
struct NpyArray {
  NpyHeader header;
  std::vector<double> data;
  std::size_t rows() const { return header.rows(); }
  std::size_t cols() const { return header.cols(); }
  const double* row(std::size_t r) const { return data.data() + r * cols(); }
};

// Reads an NPY array row by row, so a T x D stack needs O(D) memory. `path` "-" is stdin.
// Throws DataError naming the file for a bad header, a truncated body or (when
// finite_only) a NaN/Inf entry, with its row and column.
class NpyReader {
 public:
  explicit NpyReader(const std::string& path, bool finite_only = true);
  const NpyHeader& header() const { return header_; }
  // Reads the next `count` rows into out (count * cols doubles).
  void read_rows(std::size_t count, double* out);
  std::size_t rows_read() const { return rows_read_; }

 private:
  std::string path_;
  bool finite_only_;
  std::ifstream file_;
  std::istream* in_ = nullptr;
  NpyHeader header_;
  std::size_t rows_read_ = 0;
  std::vector<char> raw_;
};

NpyArray read_npy(const std::string& path, bool finite_only = true);

// Serialises an array as NPY v1.0: shape {rows, cols}, or {n} for a 1-D array.
void write_npy(std::ostream& out, const double* data, const std::vector<std::size_t>& shape,
               NpyDtype dtype = NpyDtype::f8);
// Writes atomically to `path` ("-" = stdout).
void save_npy(const std::string& path, const double* data, const std::vector<std::size_t>& shape,
              NpyDtype dtype = NpyDtype::f8);

NpyDtype parse_npy_dtype(const std::string& name);  // "f4"/"float32" or "f8"/"float64"

}  // namespace dpaudit
