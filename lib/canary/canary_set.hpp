// A set of canaries given either as a spec (regenerated on demand: O(dim) memory for
// any count) or as an NPY matrix (count x dim, held in memory). Tools that take
// canaries accept either: CanarySet::open tells them apart by the NPY magic bytes.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "canary/canary_spec.hpp"

namespace dpaudit {

class CanarySet {
 public:
  // A spec (JSON) or an NPY matrix (one canary per row; a 1-D array is one canary).
  // DataError for what read_canary_spec/read_npy reject, and for an empty matrix.
  static CanarySet open(const std::string& spec_or_npy);
  static CanarySet from_spec(const CanarySpec& spec, std::string source = "spec");
  static CanarySet from_matrix(std::vector<double> rows, std::size_t count, std::size_t dim,
                               std::string source);

  std::size_t count() const { return count_; }
  std::size_t dim() const { return dim_; }
  const std::string& source() const { return source_; }
  // The spec the canaries are regenerated from; null for an NPY matrix.
  const CanarySpec* spec() const { return spec_ ? &*spec_ : nullptr; }

  // Canary j (dim entries) into out.
  void get(std::size_t j, double* out) const;
  // Entries [begin, begin + len) of canary j before normalisation (see canary_spec.hpp):
  // canary j is raw_j / ||raw_j|| when raw_needs_normalising(), else raw_j.
  void raw(std::size_t j, std::size_t begin, std::size_t len, double* out) const;
  bool raw_needs_normalising() const;
  // Whether some canary is in both sets: two specs of the same kind and dim with the
  // same seed and overlapping index ranges (sphere) or the same clip and flip (dummy:
  // all its canaries are one vector), or the same NPY file.
  bool shares_canaries_with(const CanarySet& other) const;
  // What a tool says when its seen and unseen sets share canaries: a pattern naming the
  // parameters (core/error.hpp's render_parameters).
  static constexpr const char* kSharedNote =
      "{canaries} and {unseen} share canaries: those are scored as both inserted and not";
  // Canaries first .. first + n - 1, n x dim, row i = get(first + i); threads <= 0: all
  // cores.
  std::vector<double> rows(std::size_t first, std::size_t n, int threads) const;

 private:
  CanarySet() = default;
  std::optional<CanarySpec> spec_;
  std::vector<double> rows_;
  std::size_t count_ = 0;
  std::size_t dim_ = 0;
  std::string source_;
};

}  // namespace dpaudit
