// The Gaussian sum query with canaries inserted, released once (Andrew et al. 2024, Alg. 1):
//   rho = C * ( sum_i clip_1(x_i) + sum_j clip_1(c_j) + sigma Z ),  Z ~ N(0, I_d),
// where clip_1(x) = x min(1, 1/||x||) bounds every contribution's norm by 1 (the
// sensitivity), C (--clip) rescales to sensitivity C, and sigma is the noise
// multiplier. Unit canaries (sphere specs) pass clip_1 unchanged.
//
// The sum is exact: contributions are added as 64-bit fixed-point numbers, so it is
// the same whatever the number of threads or the order of terms (FixedPointSum).
// The generated terms (random clients and canaries) go in one of two ways, the same bytes either
// way (GaussianSumConfig::kept_term_bytes chooses):
// - one pass, when one term per thread fits in a small budget (16 MiB by default: d up to
//   2^21 on one thread): each term is generated once, whole, and added from its buffer to a
//   sum over all coordinates. Memory: that sum (8 bytes per coordinate) and the kept terms,
//   at most the budget; the release reuses a term's buffer.
// - two passes, otherwise, neither of which keeps a term: the first computes each term's norm,
//   the second adds every term to one block of coordinates at a time, regenerated there, then
//   adds the block's noise. Memory: the release (8 bytes per coordinate) and a few blocks per
//   thread.
// So the memory is at most 8 bytes per coordinate plus the budget. Client rows from a file
// (ClientRows) add their exact sum and one row (16 bytes per coordinate).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "canary/canary_set.hpp"

namespace dpaudit {

// Sum of up to max_terms vectors whose entries lie in [-1, 1] (e.g. of norm <= 1), each
// entry rounded to a multiple of 2^-s, s = 62 - ceil(log2(max_terms + 1)) (so no sum
// can overflow): integer addition is exact and order-free. The rounding error of a
// term is at most 2^-(s+1) per entry (2^-53 for up to 1023 terms).
class FixedPointSum {
 public:
  FixedPointSum(std::size_t dim, std::size_t max_terms);
  // One term x * factor (dim entries); every x[i] * factor must lie in [-1, 1].
  void add(const double* x, double factor = 1);
  // Entries [begin, end) of such a term (threads may add disjoint ranges at once).
  void add(const double* x, double factor, std::size_t begin, std::size_t end);
  void total(double* out) const;  // the sum, dim entries
  // Entries [begin, end) of the sum into out[0, end - begin).
  void total(double* out, std::size_t begin, std::size_t end) const;
  // Adds entries [begin, end) of `other` (same max_terms) to entries [0, end - begin).
  void add_entries(const FixedPointSum& other, std::size_t begin, std::size_t end);
  void clear();  // every entry back to 0
  int scale_bits() const { return scale_bits_; }

 private:
  int scale_bits_;
  double scale_;
  std::vector<std::int64_t> acc_;
};

// zero: no client contributes; random: standard Gaussian vectors; given: the caller's
// vectors, one at a time (a tool streams them from a file: see ClientRows).
enum class ClientData { zero, random, given };

// The caller's client vectors for ClientData::given: next(row) writes the next one
// (dim entries) into row; it is called exactly `count` times, in order.
struct ClientRows {
  std::size_t count = 0;
  std::function<void(double* row)> next;
};

struct GaussianSumConfig {
  std::size_t dim = 0;
  std::size_t clients = 0;  // random: how many (zero: ignored; given: ClientRows::count)
  ClientData client_data = ClientData::zero;
  double noise = 1;        // sigma, the noise multiplier
  double clip = 1;         // C, the sensitivity
  std::uint64_t seed = 0;  // noise and random clients (derived seeds, see .cpp)
  int threads = 0;         // <= 0: all cores
  // Memory for terms kept whole, one per thread (8 bytes per coordinate each; threads beyond
  // the number of terms keep none): when they fit, one pass, else two (see above). 0 forces
  // two passes, SIZE_MAX one.
  std::size_t kept_term_bytes = std::size_t{16} << 20;
};

// The release rho (dim entries). Random clients are standard Gaussian vectors clipped
// to norm 1; given clients (`given`, required for ClientData::given) are clipped to
// norm 1 too. DataError for a canary set whose dimension differs from dim (naming both
// sizes) or a release entry that overflows to +-inf (a huge clip or noise).
// `progress`, if set, is called from the calling thread with the work done so far, out of
// 2 (random clients + canaries): each counts once when its norm is known and once when it
// has been added (in one pass, both at once, after each round of one term per thread).
std::vector<double> gaussian_sum_release(const GaussianSumConfig& config, const CanarySet* canaries,
                                         const ClientRows* given = nullptr,
                                         const std::function<void(std::size_t)>& progress = {});

}  // namespace dpaudit
