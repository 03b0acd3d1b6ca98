#include "core/sort_doubles.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <utility>

#include "core/huge_pages.hpp"

namespace dpaudit {
namespace {

constexpr int kBits = 11, kPasses = 6;  // 6 x 11 = 66 >= 64 bits; 2,048 buckets stay in L1/L2
constexpr std::size_t kBuckets = std::size_t{1} << kBits, kRadixFrom = 4096;
// The bucket sort: at most 4,096 buckets a level (~1,200 scores each for 5 * 10^6: in L1/L2),
// runs of at most 32 keys sorted by insertion; a run of more than 65,536 keys (out of cache)
// with an eighth of them in one bucket goes to the radix sort, and so does a fourth level.
constexpr std::size_t kMaxBuckets = 4096, kShort = 32, kInCache = 65536;
constexpr int kMaxDepth = 4;
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

std::size_t digit(std::uint64_t k, int pass) {
  return static_cast<std::size_t>(k >> (kBits * pass)) & (kBuckets - 1);
}

// The i-th key of raw storage (keys live in arrays of doubles too, copied in and out as
// bytes: no double is formed from a key).
std::uint64_t load(const unsigned char* p, std::size_t i) {
  std::uint64_t k;
  std::memcpy(&k, p + 8 * i, 8);
  return k;
}
void store(unsigned char* p, std::size_t i, std::uint64_t k) {
  std::memcpy(p + 8 * i, &k, 8);
}

// The count of each digit of each pass, adding key k.
void count_digits(std::vector<std::size_t>& counts, std::uint64_t k) {
  for (int p = 0; p < kPasses; ++p) ++counts[p * kBuckets + digit(k, p)];
}

// Sorts n keys by an LSD radix sort (passes of 11 bits, skipping a digit all keys share),
// counts holding count_digits of every key, buffer holding n.
void radix_sort(unsigned char* keys, unsigned char* buffer, std::size_t n,
                std::vector<std::size_t>& counts) {
  unsigned char *from = keys, *to = buffer;
  for (int p = 0; p < kPasses; ++p) {
    std::size_t* count = counts.data() + p * kBuckets;
    if (count[digit(load(from, 0), p)] == n) continue;  // one digit for all: the order stays
    std::size_t start = 0;
    for (std::size_t b = 0; b < kBuckets; ++b) start += std::exchange(count[b], start);
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t k = load(from, i);
      store(to, count[digit(k, p)]++, k);
    }
    std::swap(from, to);
  }
  if (from != keys) std::memcpy(keys, from, 8 * n);
}

unsigned char* bytes(std::uint64_t* p) {
  return reinterpret_cast<unsigned char*>(p);
}

// Sorts a short run of keys.
void insertion_sort(std::uint64_t* keys, std::size_t n) {
  for (std::size_t i = 1; i < n; ++i) {
    const std::uint64_t k = keys[i];
    std::size_t j = i;
    for (; j > 0 && keys[j - 1] > k; --j) keys[j] = keys[j - 1];
    keys[j] = k;
  }
}

// Equal intervals of [lo, lo + count / scale]. The bucket of x is monotone in x (a rounded
// subtraction, a product by scale > 0 and the truncation all keep the order), so each bucket
// holds values at or above those of the buckets before it: sorting each sorts the whole.
struct Buckets {
  double lo, scale;
  std::size_t count;
  std::size_t of(double x) const {
    return std::min(count - 1, static_cast<std::size_t>((x - lo) * scale));
  }
};

// The bucket counts of each level, allocated once, before the keys' buffer: small blocks
// allocated after it and kept in the allocator's per-thread cache pinned the freed buffer
// below the heap's top, where the ROC sweep's allocation could not reuse it (+38 MiB peak at
// 10^7 scores).
struct Workspace {
  std::vector<std::size_t> start[kMaxDepth + 1], next[kMaxDepth + 1];
  Workspace() {
    for (int d = 0; d <= kMaxDepth; ++d) {
      start[d].reserve(kMaxBuckets + 1);
      next[d].reserve(kMaxBuckets + 1);
    }
  }
};

// Where each bucket of the n values value_at(i) starts, and its end (count + 1 entries, in
// `start`); false where the data is not spread: n out of cache and an eighth in one bucket.
template <class ValueAt>
bool bucket_starts(const Buckets& b, std::size_t n, ValueAt value_at,
                   std::vector<std::size_t>& start) {
  start.assign(b.count + 1, 0);
  for (std::size_t i = 0; i < n; ++i) ++start[b.of(value_at(i)) + 1];
  if (n > kInCache && *std::max_element(start.begin(), start.end()) >= n / 8) return false;
  std::partial_sum(start.begin(), start.end(), start.begin());
  return true;
}

// Scatters the values value_at(i) into `to` as keys, bucket by bucket.
template <class ValueAt>
void scatter(const Buckets& b, const std::vector<std::size_t>& start, ValueAt value_at,
             std::uint64_t* to, std::vector<std::size_t>& next) {
  next.assign(start.begin(), start.end() - 1);
  const std::size_t n = start.back();
  for (std::size_t i = 0; i < n; ++i) {
    const double x = value_at(i);
    to[next[b.of(x)]++] = key_of(x);
  }
}

std::size_t largest_bucket(const std::vector<std::size_t>& start) {
  std::size_t largest = 0;
  for (std::size_t i = 0; i + 1 < start.size(); ++i)
    largest = std::max(largest, start[i + 1] - start[i]);
  return largest;
}

void sort_keys(std::uint64_t* keys, std::uint64_t* scratch, std::size_t n, int depth, Workspace& w);

// Sorts one bucket of keys in place, scratch holding n.
void sort_bucket(std::uint64_t* keys, std::uint64_t* scratch, std::size_t n, int depth,
                 Workspace& w) {
  if (n <= kShort) {
    insertion_sort(keys, n);
  } else {
    sort_keys(keys, scratch, n, depth, w);
  }
}

// Sorts keys in place by buckets of their values, recursively, scratch holding n. What
// cannot be spread (an infinite range, heavy tails, clusters within clusters) goes to the
// radix sort (std::sort when short).
void sort_keys(std::uint64_t* keys, std::uint64_t* scratch, std::size_t n, int depth,
               Workspace& w) {
  const auto [min, max] = std::minmax_element(keys, keys + n);
  if (*min == *max) return;
  const double lo = value_of(*min);
  const Buckets b{lo, double(std::min(n, kMaxBuckets)) / (value_of(*max) - lo),
                  std::min(n, kMaxBuckets)};
  const auto value_at = [keys](std::size_t i) { return value_of(keys[i]); };
  if (depth >= kMaxDepth || !(b.scale > 0 && std::isfinite(b.scale)) ||
      !bucket_starts(b, n, value_at, w.start[depth])) {
    if (n >= kRadixFrom) {
      std::vector<std::size_t> counts(kPasses * kBuckets, 0);
      for (std::size_t i = 0; i < n; ++i) count_digits(counts, keys[i]);
      radix_sort(bytes(keys), bytes(scratch), n, counts);
    } else {
      std::sort(keys, keys + n);
    }
    return;
  }
  const std::vector<std::size_t>& start = w.start[depth];
  scatter(b, start, value_at, scratch, w.next[depth]);
  std::copy(scratch, scratch + n, keys);
  // One insertion sort where no bucket is long: each key moves within its bucket only.
  if (largest_bucket(start) <= kShort) {
    insertion_sort(keys, n);
    return;
  }
  for (std::size_t i = 0; i + 1 < start.size(); ++i)
    sort_bucket(keys + start[i], scratch, start[i + 1] - start[i], depth + 1, w);
}

// The radix sort of v in place (its keys in v's own storage), for data not spread.
void radix_sort(std::vector<double>& v) {
  unsigned char* keys = reinterpret_cast<unsigned char*>(v.data());
  std::vector<std::size_t> counts(kPasses * kBuckets, 0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::uint64_t k = key_of(v[i]);
    store(keys, i, k);
    count_digits(counts, k);
  }
  std::vector<std::uint64_t> buffer;
  reserve_huge_pages(buffer, v.size());  // the scatter stays in the TLB
  buffer.resize(v.size());
  radix_sort(keys, bytes(buffer.data()), v.size(), counts);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = value_of(load(keys, i));
}

// Whether one bucket holds an eighth of every 16th value or more: the data is not spread
// (heavy tails, outliers, few distinct values), the radix sort will do better, and the full
// count need not be made.
template <class ValueAt>
bool sample_not_spread(const Buckets& b, std::size_t n, ValueAt value_at,
                       std::vector<std::size_t>& count) {
  count.assign(b.count, 0);
  for (std::size_t i = 0; i < n; i += 16) ++count[b.of(value_at(i))];
  return *std::max_element(count.begin(), count.end()) >= (n / 16) / 8;
}

}  // namespace

void sort_ascending(std::vector<double>& v) {
  const std::size_t n = v.size();
  if (n < kRadixFrom) {
    std::sort(v.begin(), v.end());
    return;
  }
  // A bucket sort by value (a distribution sort, Knuth vol. 3, 5.2.5): 4,096 equal intervals
  // of [min, max], each then sorted in cache by the same means with as many buckets as keys,
  // and insertion sorts: for smooth data two passes and one scatter over memory where the
  // radix sort makes six. Exact all the same: the keys decide the order within a bucket.
  const auto [min, max] = std::minmax_element(v.begin(), v.end());
  const Buckets b{*min, double(kMaxBuckets) / (*max - *min), kMaxBuckets};
  const auto value_at = [&v](std::size_t i) { return v[i]; };
  Workspace w;
  if (!(b.scale > 0 && std::isfinite(b.scale)) || sample_not_spread(b, n, value_at, w.next[0]) ||
      !bucket_starts(b, n, value_at, w.start[0])) {
    radix_sort(v);
    return;
  }
  const std::vector<std::size_t>& start = w.start[0];
  std::vector<std::uint64_t> scratch(largest_bucket(start));
  std::vector<std::uint64_t> keys;  // allocated last (Workspace)
  reserve_huge_pages(keys, n);      // the scatter stays in the TLB
  keys.resize(n);
  scatter(b, start, value_at, keys.data(), w.next[0]);
  for (std::size_t i = 0; i + 1 < start.size(); ++i) {
    sort_bucket(keys.data() + start[i], scratch.data(), start[i + 1] - start[i], 1, w);
    for (std::size_t j = start[i]; j < start[i + 1]; ++j) v[j] = value_of(keys[j]);
  }
}

}  // namespace dpaudit
