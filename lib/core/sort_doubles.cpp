#include "core/sort_doubles.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "core/huge_pages.hpp"

namespace dpaudit {
namespace {

constexpr int kBits = 11, kPasses = 6;  // 6 x 11 = 66 >= 64 bits; 2,048 buckets stay in L1/L2
constexpr std::size_t kBuckets = std::size_t{1} << kBits, kRadixFrom = 4096;
constexpr std::uint64_t kSign = std::uint64_t{1} << 63;

// A double's bits as an unsigned key in the same order: negatives all bits flipped (their
// order reverses), the others with the sign bit set (they go above the negatives).
std::uint64_t key_of(double x) {
  std::uint64_t u;
  std::memcpy(&u, &x, 8);
  return (u & kSign) ? ~u : (u | kSign);
}

double value_of(std::uint64_t k) {
  const std::uint64_t u = (k & kSign) ? (k & ~kSign) : ~k;
  double x;
  std::memcpy(&x, &u, 8);
  return x;
}

// The key stored in v's i-th element.
std::uint64_t key_at(const double* v, std::size_t i) {
  std::uint64_t k;
  std::memcpy(&k, v + i, 8);
  return k;
}

std::size_t digit(std::uint64_t k, int pass) {
  return static_cast<std::size_t>(k >> (kBits * pass)) & (kBuckets - 1);
}

}  // namespace

void sort_ascending(std::vector<double>& v) {
  const std::size_t n = v.size();
  if (n < kRadixFrom) {
    std::sort(v.begin(), v.end());
    return;
  }
  // The keys live in v's own storage (copied in and out as bytes: no double is formed from
  // a key) and one buffer of n: 10^7 scores touch 80 MB less memory, whose first-touch page
  // faults cost as much as a pass.
  std::vector<std::uint64_t> other;
  reserve_huge_pages(other, n);  // the scatter stays in the TLB
  other.resize(n);
  std::vector<std::size_t> counts(kPasses * kBuckets, 0);
  for (double& x : v) {
    const std::uint64_t k = key_of(x);
    std::memcpy(&x, &k, 8);
    for (int p = 0; p < kPasses; ++p) ++counts[p * kBuckets + digit(k, p)];
  }
  bool in_v = true;  // where the keys are now
  for (int p = 0; p < kPasses; ++p) {
    std::size_t* count = counts.data() + p * kBuckets;
    const std::uint64_t first = in_v ? key_at(v.data(), 0) : other[0];
    if (count[digit(first, p)] == n) continue;  // one digit for all: the pass keeps the order
    std::size_t start = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) start += std::exchange(count[b], start);
    if (in_v) {
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t k = key_at(v.data(), i);
        other[count[digit(k, p)]++] = k;
      }
    } else {
      for (const std::uint64_t k : other) std::memcpy(&v[count[digit(k, p)]++], &k, 8);
    }
    in_v = !in_v;
  }
  for (std::size_t i = 0; i < n; ++i) v[i] = value_of(in_v ? key_at(v.data(), i) : other[i]);
}

}  // namespace dpaudit
