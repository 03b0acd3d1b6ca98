#include "io/npy.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <regex>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/huge_pages.hpp"
#include "core/names.hpp"
#include "io/atomic_output.hpp"

namespace dpaudit {
namespace {

std::string source_name(const std::string& path) {
  return path == "-" ? "stdin" : path;
}

constexpr std::size_t kMaxHeaderBytes = 10000;

std::uint32_t read_le(const unsigned char* p, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Parses the Python dict literal of the header, e.g.
// {'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }
NpyHeader parse_header_dict(const std::string& dict, const std::string& where) {
  static const std::regex descr_re(R"('descr'\s*:\s*'([^']*)')");
  static const std::regex fortran_re(R"('fortran_order'\s*:\s*(True|False))");
  static const std::regex shape_re(R"('shape'\s*:\s*\(([^)]*)\))");
  std::smatch m;
  NpyHeader h;
  if (!std::regex_search(dict, m, descr_re)) throw DataError("NPY header has no 'descr'", where);
  const std::string descr = m[1];
  if (descr == "<f8" || descr == "f8" || descr == "=f8") {
    h.dtype = NpyDtype::f8;
  } else if (descr == "<f4" || descr == "f4" || descr == "=f4") {
    h.dtype = NpyDtype::f4;
  } else {
    throw DataError("unsupported NPY dtype " + quote_input(descr) + " (need <f4 or <f8)", where);
  }
  if (!std::regex_search(dict, m, fortran_re))
    throw DataError("NPY header has no 'fortran_order'", where);
  if (m[1] == "True")
    throw DataError("Fortran-order NPY is not supported, save it in C order", where);
  if (!std::regex_search(dict, m, shape_re)) throw DataError("NPY header has no 'shape'", where);
  const std::string dims = m[1];
  // Digits, commas and blanks only ('L': Python 2's long suffix): a '-1' is not a 1.
  if (dims.find_first_not_of("0123456789, \tL") != std::string::npos)
    throw DataError("NPY header has a malformed shape (" + cut_input(dims) + ")", where);
  static const std::regex num_re(R"(\d+)");
  for (auto it = std::sregex_iterator(dims.begin(), dims.end(), num_re);
       it != std::sregex_iterator(); ++it) {
    errno = 0;
    const unsigned long long n = std::strtoull(it->str().c_str(), nullptr, 10);
    if (errno == ERANGE || n > std::numeric_limits<std::size_t>::max())
      throw DataError("NPY shape (" + dims + ") is out of range", where);
    h.shape.push_back(static_cast<std::size_t>(n));
  }
  if (h.shape.empty() || h.shape.size() > 2)
    throw DataError(fmt::format("NPY array has {} dimensions (need 1 or 2)", h.shape.size()),
                    where);
  // rows x cols x 8 bytes must not wrap, or a short file would pass as the whole array.
  if (h.cols() != 0 && h.rows() > std::numeric_limits<std::size_t>::max() / 8 / h.cols())
    throw DataError("NPY shape (" + dims + ") is too large", where);
  return h;
}

// A body of `body_bytes` that does not match the header's shape.
// `holder` is "file" or "stdin".
DataError size_error(const NpyHeader& h, const std::string& source, const char* holder,
                     std::uint64_t body_bytes) {
  const std::uint64_t width = h.dtype == NpyDtype::f8 ? 8 : 4,
                      want = std::uint64_t{h.size()} * width;
  const std::uint64_t values = body_bytes / width, stray = body_bytes % width;
  const std::string holds =
      stray ? fmt::format("{} values and {} bytes", values, stray) : std::to_string(values);
  return DataError(
      fmt::format("NPY data {}: header says {} values, {} holds {}",
                  body_bytes < want ? "truncated" : "too long", h.size(), holder, holds),
      source);
}

}  // namespace

NpyReader::NpyReader(const std::string& path, bool finite_only)
    : path_(source_name(path)), finite_only_(finite_only) {
  std::uintmax_t file_bytes = 0;
  if (path == "-") {
    in_ = &std::cin;
  } else {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
      throw DataError("is a directory, not an NPY file", path_);
    file_.open(path, std::ios::binary);
    if (!file_) throw DataError("cannot open NPY file", path_);
    in_ = &file_;
    if (std::filesystem::is_regular_file(path, ec)) {
      file_bytes = std::filesystem::file_size(path, ec);
      size_checked_ = !ec;
    }
  }
  unsigned char pre[10];
  in_->read(reinterpret_cast<char*>(pre), 10);
  if (in_->gcount() < 10 || std::memcmp(pre, "\x93NUMPY", 6) != 0)
    throw DataError("not an NPY file (bad magic)", path_);
  const int major = pre[6];
  std::size_t header_len = 0, preamble = 10;
  if (major == 1) {
    header_len = read_le(pre + 8, 2);
  } else if (major == 2 || major == 3) {
    unsigned char more[2];
    in_->read(reinterpret_cast<char*>(more), 2);
    if (in_->gcount() < 2) throw DataError("truncated NPY header", path_);
    unsigned char len4[4] = {pre[8], pre[9], more[0], more[1]};
    header_len = read_le(len4, 4);
    preamble = 12;
  } else {
    throw DataError(fmt::format("unsupported NPY version {}", major), path_);
  }
  // numpy's headers take a few hundred bytes; np.load refuses more than 10000
  // (max_header_size), and so do we, before allocating what a corrupt length says.
  if (header_len > kMaxHeaderBytes)
    throw DataError(fmt::format("NPY header length {} is over the limit of {} bytes", header_len,
                                kMaxHeaderBytes),
                    path_);
  std::string dict(header_len, '\0');
  in_->read(dict.data(), static_cast<std::streamsize>(header_len));
  if (static_cast<std::size_t>(in_->gcount()) < header_len)
    throw DataError("truncated NPY header", path_);
  header_ = parse_header_dict(dict, path_);
  if (size_checked_) {
    const std::uintmax_t body = file_bytes - preamble - header_len;  // >= 0: the header was read
    if (body != std::uintmax_t{header_.size()} * width())
      throw size_error(header_, path_, holder(), body);
  }
}

void NpyReader::read_bytes(char* out, std::size_t bytes) {
  if (bytes == 0) return;  // out may be null (shape (0,)): no read, no memcpy
  in_->read(out, static_cast<std::streamsize>(bytes));
  const auto got = static_cast<std::uint64_t>(in_->gcount());
  bytes_read_ += got;
  if (got < bytes) throw size_error(header_, path_, holder(), bytes_read_);
}

void NpyReader::read_values(std::size_t n, double* out) {
  const std::size_t first = static_cast<std::size_t>(bytes_read_ / width());
  if (header_.dtype == NpyDtype::f8) {
    read_bytes(reinterpret_cast<char*>(out), n * 8);
  } else {
    constexpr std::size_t kChunk = 1 << 16;
    for (std::size_t done = 0; done < n; done += kChunk) {
      const std::size_t m = std::min(kChunk, n - done);
      raw_.resize(m * 4);
      read_bytes(raw_.data(), m * 4);
      for (std::size_t i = 0; i < m; ++i) {
        float f;
        std::memcpy(&f, raw_.data() + 4 * i, 4);
        out[done + i] = f;
      }
    }
  }
  if (finite_only_) {
    for (std::size_t i = 0; i < n; ++i) {
      if (!std::isfinite(out[i])) {
        const std::size_t flat = first + i;
        const std::string at = header_.shape.size() == 1
                                   ? fmt::format("{}, index {}", path_, flat)
                                   : fmt::format("{}, row {}, column {}", path_,
                                                 flat / header_.cols(), flat % header_.cols());
        throw DataError(fmt::format("non-finite value {}", out[i]), at);
      }
    }
  }
  if (bytes_read_ == std::uint64_t{header_.size()} * width()) check_no_more_data();
}

// A regular file's size was checked at open; stdin is checked once the header's values
// are read (its length is not known before, and counting it would wait for its end).
void NpyReader::check_no_more_data() {
  if (size_checked_ || in_->peek() == std::char_traits<char>::eof()) return;
  throw DataError(fmt::format("NPY data too long: header says {} values, {} holds more",
                              header_.size(), holder()),
                  path_);
}

void NpyReader::read_rows(std::size_t count, double* out) {
  if (rows_read_ + count > header_.rows())
    throw DataError(fmt::format("asked for rows past the end ({} rows)", header_.rows()), path_);
  read_values(count * header_.cols(), out);
  rows_read_ += count;
}

std::vector<double> NpyReader::read_rest() {
  const std::size_t n = (header_.rows() - rows_read_) * header_.cols();
  std::vector<double> values;
  if (size_checked_ || n == 0) {
    reserve_huge_pages(values, n);  // 40 faults for 80 MB, not 20,000
    values.resize(n);
    read_values(n, values.data());
  } else {
    // Doubling from 1 Mi values: at most twice what arrived, and O(n) copying in all.
    while (values.size() < n) {
      const std::size_t have = values.size(),
                        chunk = std::min(n - have, std::max<std::size_t>(have, 1 << 20));
      values.resize(have + chunk);
      read_values(chunk, values.data() + have);
    }
  }
  rows_read_ = header_.rows();
  return values;
}

NpyArray read_npy(const std::string& path, bool finite_only) {
  NpyReader reader(path, finite_only);
  NpyArray a;
  a.header = reader.header();
  a.data = reader.read_rest();
  return a;
}

void write_npy_header(std::ostream& out, const std::vector<std::size_t>& shape, NpyDtype dtype) {
  std::string dims;
  for (std::size_t s : shape) dims += std::to_string(s) + ",";
  if (shape.size() > 1) dims.pop_back();  // (3,) for 1-D, (3,4) for 2-D
  std::string dict = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}",
                                 dtype == NpyDtype::f8 ? "<f8" : "<f4", dims);
  // Magic (6) + version (2) + length (2) + dict + padding + '\n' is a multiple of 64.
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  out.write("\x93NUMPY\x01\x00", 8);
  const unsigned char len[2] = {static_cast<unsigned char>(dict.size() & 0xff),
                                static_cast<unsigned char>(dict.size() >> 8)};
  out.write(reinterpret_cast<const char*>(len), 2);
  out.write(dict.data(), static_cast<std::streamsize>(dict.size()));
}

void write_npy_values(std::ostream& out, const double* data, std::size_t n, NpyDtype dtype) {
  if (dtype == NpyDtype::f8) {
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(n * 8));
  } else {
    // Converted a chunk at a time: no copy of the whole array.
    constexpr std::size_t kChunk = 1 << 14;
    std::vector<float> f(std::min(n, kChunk));
    for (std::size_t first = 0; first < n; first += kChunk) {
      const std::size_t len = std::min(kChunk, n - first);
      std::copy(data + first, data + first + len, f.begin());
      out.write(reinterpret_cast<const char*>(f.data()), static_cast<std::streamsize>(len * 4));
    }
  }
}

void write_npy(std::ostream& out, const double* data, const std::vector<std::size_t>& shape,
               NpyDtype dtype) {
  std::size_t n = 1;
  for (std::size_t s : shape) n *= s;
  write_npy_header(out, shape, dtype);
  write_npy_values(out, data, n, dtype);
}

void check_fits_f4(const double* data, std::size_t n, std::size_t first, const std::string& where) {
  for (std::size_t i = 0; i < n; ++i)
    if (std::isfinite(data[i]) && std::abs(data[i]) > std::numeric_limits<float>::max())
      throw DataError(
          fmt::format("value {} at index {} does not fit in f4 (use f8)", data[i], first + i),
          where);
}

void save_npy(const std::string& path, const double* data, const std::vector<std::size_t>& shape,
              NpyDtype dtype, bool stream) {
  if (dtype == NpyDtype::f4) {
    std::size_t n = 1;
    for (std::size_t s : shape) n *= s;
    check_fits_f4(data, n, 0, path == "-" || path.empty() ? "stdout" : path);
  }
  AtomicOutput out(path, stream ? AtomicOutput::Holding::stream : AtomicOutput::Holding::whole);
  write_npy(out.stream(), data, shape, dtype);
  out.commit();
}

NpyDtype parse_npy_dtype(const std::string& name) {
  static constexpr Named<NpyDtype> kDtypes[] = {{"f8", NpyDtype::f8},
                                                {"float64", NpyDtype::f8},
                                                {"f4", NpyDtype::f4},
                                                {"float32", NpyDtype::f4}};
  return parse_named(kDtypes, name, "dtype", "{dtype}");
}

}  // namespace dpaudit
