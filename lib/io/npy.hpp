// NPY files (numpy's .npy format, header versions 1.0, 2.0 and 3.0): little-endian
// float32 ('<f4') or float64 ('<f8'), C order, 1-D or 2-D. A model or model delta is
// a 1-D vector; a stack of canaries or per-round deltas is rows x cols.
#pragma once
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iostream>
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
// Throws DataError naming the file for a bad header, a body shorter or longer than the
// header says, or (when finite_only) a NaN/Inf entry, with its row and column. A
// regular file's size is checked against the header when it is opened, before anyone
// allocates what the header claims; stdin (or a FIFO) is checked as data arrives, and
// for data beyond the header's size once the last value has been read.
class NpyReader {
 public:
  explicit NpyReader(const std::string& path, bool finite_only = true);
  const NpyHeader& header() const { return header_; }
  // Reads the next `count` rows into out (count * cols doubles).
  void read_rows(std::size_t count, double* out);
  // Every value not read yet. Where the size was not checked at open (stdin), the
  // vector grows as data arrives, so a header claiming more than is sent costs no
  // more memory than what was sent.
  std::vector<double> read_rest();
  std::size_t rows_read() const { return rows_read_; }

 private:
  std::size_t width() const { return header_.dtype == NpyDtype::f8 ? 8 : 4; }
  const char* holder() const { return in_ == &std::cin ? "stdin" : "file"; }  // for errors
  void read_values(std::size_t n, double* out);  // the next n values, checked
  void read_bytes(char* out, std::size_t bytes);
  void check_no_more_data();
  std::string path_;
  bool finite_only_;
  bool size_checked_ = false;  // a regular file whose size matched the header at open
  std::ifstream file_;
  std::istream* in_ = nullptr;
  NpyHeader header_;
  std::size_t rows_read_ = 0;
  std::uint64_t bytes_read_ = 0;  // of the body
  std::vector<char> raw_;         // f4 values, converted a chunk at a time
};

NpyArray read_npy(const std::string& path, bool finite_only = true);

// Serialises an array as NPY v1.0: shape {rows, cols}, or {n} for a 1-D array.
void write_npy(std::ostream& out, const double* data, const std::vector<std::size_t>& shape,
               NpyDtype dtype = NpyDtype::f8);
// write_npy in parts, for data streamed a block of rows at a time: the header of an
// array of `shape`, then all its values in order, in as many calls as wanted.
void write_npy_header(std::ostream& out, const std::vector<std::size_t>& shape, NpyDtype dtype);
void write_npy_values(std::ostream& out, const double* data, std::size_t n, NpyDtype dtype);
// DataError naming `where` for a finite value beyond f4's range (it would be written
// as inf); `first` is the index of data[0] in the whole array, for the message.
void check_fits_f4(const double* data, std::size_t n, std::size_t first, const std::string& where);
// Writes atomically to `path` ("-" = stdout). Every check is made before the first byte,
// so stdout (or a device) may be written through as the data goes (`stream`, see
// io/atomic_output.hpp) instead of being held in memory until the end.
void save_npy(const std::string& path, const double* data, const std::vector<std::size_t>& shape,
              NpyDtype dtype = NpyDtype::f8, bool stream = false);

NpyDtype parse_npy_dtype(const std::string& name);  // "f4"/"float32" or "f8"/"float64"

}  // namespace dpaudit
