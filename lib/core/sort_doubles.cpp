#include "core/sort_doubles.hpp"

#include <hwy/contrib/sort/vqsort.h>
#include <hwy/targets.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>

#include "core/huge_pages.hpp"

namespace dpaudit {
namespace {

constexpr int kBits = 11, kPasses = 6;  // 6 x 11 = 66 >= 64 bits; 2,048 buckets stay in L1/L2
constexpr std::size_t kBuckets = std::size_t{1} << kBits, kLongFrom = 4096;
constexpr std::uint64_t kSign = std::uint64_t{1} << 63;

// A double's bits as an unsigned key in the same order: negatives all bits flipped (their
// order reverses), the others with the sign bit set (they go above the negatives). -0.0's
// key is just below 0.0's.
std::uint64_t key_of(std::uint64_t u) {
  return (u & kSign) ? ~u : (u | kSign);
}

std::uint64_t bits_of(std::uint64_t k) {
  return (k & kSign) ? (k & ~kSign) : ~k;
}

// The 64 bits stored in v's i-th element.
std::uint64_t key_at(const double* v, std::size_t i) {
  std::uint64_t k;
  std::memcpy(&k, v + i, 8);
  return k;
}

// v's elements replaced by f of their bits, copied in and out as bytes (no double is formed
// from a key).
template <class F>
void map_bits(std::vector<double>& v, F f) {
  for (double& x : v) {
    std::uint64_t u;
    std::memcpy(&u, &x, 8);
    u = f(u);
    std::memcpy(&x, &u, 8);
  }
}

std::size_t digit(std::uint64_t k, int pass) {
  return static_cast<std::size_t>(k >> (kBits * pass)) & (kBuckets - 1);
}

// Whether VQSort beats the radix sort on this CPU: with SSE4 or wider vectors (5 * 10^6
// normals: AVX-512 0.054 CPU-s, AVX2 0.085, SSE4 0.129 against the radix sort's 0.16; SSSE3
// 0.25, no SIMD 2.6). Highway's targets are bits, the better ones the lower.
bool vqsort_pays() {
#if HWY_ARCH_X86
  return (hwy::SupportedTargets() & (2 * HWY_SSE4 - 1)) != 0;
#else
  return true;
#endif
}

// VQSort over the keys, in v's own storage: no buffer, no page to fault in. Equal keys are
// equal bits, so the result does not depend on VQSort's random pivots.
void vqsort(std::vector<double>& v) {
  map_bits(v, key_of);
  // One Sorter a thread: it holds VQSort's scratch vectors and seed, which a call may not
  // share with another thread's.
  thread_local const hwy::Sorter sorter;
  sorter(reinterpret_cast<std::uint64_t*>(v.data()), v.size(), hwy::SortAscending());
  map_bits(v, bits_of);
}

// LSD radix sort over the keys. They live in v's own storage and one buffer of n: 10^7
// scores touch 80 MB less memory, whose first-touch page faults cost as much as a pass.
void radix_sort(std::vector<double>& v) {
  const std::size_t n = v.size();
  std::vector<std::uint64_t> other;
  reserve_huge_pages(other, n);  // the scatter stays in the TLB
  other.resize(n);
  std::vector<std::size_t> counts(kPasses * kBuckets, 0);
  for (double& x : v) {
    std::uint64_t k;
    std::memcpy(&k, &x, 8);
    k = key_of(k);
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
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t u = bits_of(in_v ? key_at(v.data(), i) : other[i]);
    std::memcpy(&v[i], &u, 8);
  }
}

}  // namespace

void sort_ascending(std::vector<double>& v) {
  if (v.size() < kLongFrom) {
    std::sort(v.begin(), v.end());
  } else if (vqsort_pays()) {
    vqsort(v);
  } else {
    radix_sort(v);
  }
}

}  // namespace dpaudit
