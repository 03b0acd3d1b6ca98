#include "canary/canary_set.hpp"

#include <algorithm>
#include <fstream>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "io/npy.hpp"

namespace dpaudit {

namespace {

bool has_npy_magic(const std::string& path) {
  if (path == "-" || path.empty()) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError("cannot open canaries", path);
  char magic[6] = {};
  in.read(magic, sizeof magic);
  return in.gcount() == 6 && std::equal(magic, magic + 6, "\x93NUMPY");
}

}  // namespace

CanarySet CanarySet::open(const std::string& spec_or_npy) {
  if (!has_npy_magic(spec_or_npy)) return from_spec(read_canary_spec(spec_or_npy), spec_or_npy);
  NpyArray a = read_npy(spec_or_npy);
  return from_matrix(std::move(a.data), a.rows(), a.cols(), spec_or_npy);
}

CanarySet CanarySet::from_spec(const CanarySpec& spec, std::string source) {
  validate_canary_spec(spec, source);
  CanarySet s;
  s.spec_ = spec;
  s.count_ = spec.count;
  s.dim_ = spec.dim;
  s.source_ = std::move(source);
  return s;
}

CanarySet CanarySet::from_matrix(std::vector<double> rows, std::size_t count, std::size_t dim,
                                 std::string source) {
  if (count == 0 || dim == 0) throw DataError("no canaries in the matrix", source);
  if (rows.size() != count * dim) throw DataError("matrix size is not count x dim", source);
  CanarySet s;
  s.rows_ = std::move(rows);
  s.count_ = count;
  s.dim_ = dim;
  s.source_ = std::move(source);
  return s;
}

void CanarySet::get(std::size_t j, double* out) const {
  if (spec_) {
    generate_canary(*spec_, j, out);
  } else {
    raw(j, 0, dim_, out);
  }
}

void CanarySet::raw(std::size_t j, std::size_t begin, std::size_t len, double* out) const {
  if (spec_) {
    generate_canary_raw(*spec_, j, begin, len, out);
  } else {
    const double* row = rows_.data() + j * dim_ + begin;
    std::copy(row, row + len, out);
  }
}

std::vector<double> CanarySet::rows(std::size_t first, std::size_t n, int threads) const {
  std::vector<double> m(n * dim_);
  parallel_blocks(n, threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    for (std::size_t i = begin; i < end; ++i) get(first + i, m.data() + i * dim_);
  });
  return m;
}

bool CanarySet::shares_canaries_with(const CanarySet& other) const {
  if (!spec_ || !other.spec_) return !spec_ && !other.spec_ && source_ == other.source_;
  const CanarySpec &a = *spec_, &b = *other.spec_;
  if (a.kind != b.kind || a.dim != b.dim) return false;
  if (a.kind == CanaryKind::dummy) return a.clip == b.clip && a.flip == b.flip;
  return a.seed == b.seed && a.first_index < b.first_index + b.count &&
         b.first_index < a.first_index + a.count;
}

bool CanarySet::raw_needs_normalising() const {
  return spec_ && dpaudit::raw_needs_normalising(*spec_);
}

}  // namespace dpaudit
