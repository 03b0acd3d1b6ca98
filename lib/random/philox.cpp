#include "random/philox.hpp"

#include <algorithm>

#include <Random123/philox.h>

#include "random/multiversion.hpp"

namespace dpaudit {

namespace {

// The Philox4x32 constants (Salmon et al. 2011, Sec. 4; Random123's philox.h).
constexpr std::uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
constexpr int kRounds = 10;
constexpr std::size_t kLanes = 64;  // blocks computed side by side (structure of arrays)

// kLanes consecutive blocks starting at `first_block`, written block-major into out
// (4 * kLanes words). One round: (c0,c1,c2,c3) -> (hi(M1 c2)^c1^k0, lo(M1 c2),
// hi(M0 c0)^c3^k1, lo(M0 c0)); the key is bumped by the Weyl constants between rounds.
DPAUDIT_MULTIVERSION
void philox_lanes(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first_block,
                  std::uint32_t* out) {
  std::uint32_t c0[kLanes], c1[kLanes], c2[kLanes], c3[kLanes];
  for (std::size_t l = 0; l < kLanes; ++l) {
    const std::uint64_t b = first_block + l;
    c0[l] = static_cast<std::uint32_t>(b);
    c1[l] = static_cast<std::uint32_t>(b >> 32);
    c2[l] = static_cast<std::uint32_t>(stream_id);
    c3[l] = static_cast<std::uint32_t>(stream_id >> 32);
  }
  std::uint32_t k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
  for (int r = 0; r < kRounds; ++r) {
#pragma GCC unroll 1  // keep the lane loop whole so that it is vectorised, not unrolled
    for (std::size_t l = 0; l < kLanes; ++l) {
      const std::uint64_t p0 = static_cast<std::uint64_t>(kMul0) * c0[l];
      const std::uint64_t p1 = static_cast<std::uint64_t>(kMul1) * c2[l];
      const std::uint32_t n0 = static_cast<std::uint32_t>(p1 >> 32) ^ c1[l] ^ k0;
      const std::uint32_t n2 = static_cast<std::uint32_t>(p0 >> 32) ^ c3[l] ^ k1;
      c0[l] = n0;
      c1[l] = static_cast<std::uint32_t>(p1);
      c2[l] = n2;
      c3[l] = static_cast<std::uint32_t>(p0);
    }
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  for (std::size_t l = 0; l < kLanes; ++l) {
    out[4 * l] = c0[l];
    out[4 * l + 1] = c1[l];
    out[4 * l + 2] = c2[l];
    out[4 * l + 3] = c3[l];
  }
}

}  // namespace

PhiloxBlock philox_block(const PhiloxBlock& counter, std::uint64_t key) {
  r123::Philox4x32 gen;
  const r123::Philox4x32::ctr_type c = {{counter[0], counter[1], counter[2], counter[3]}};
  const r123::Philox4x32::key_type k = {
      {static_cast<std::uint32_t>(key), static_cast<std::uint32_t>(key >> 32)}};
  const auto r = gen(c, k);
  return {r[0], r[1], r[2], r[3]};
}

PhiloxBlock philox_counter(std::uint64_t stream_id, std::uint64_t block, std::uint32_t tag) {
  return {static_cast<std::uint32_t>(block),
          static_cast<std::uint32_t>(block >> 32) | (tag << 24),
          static_cast<std::uint32_t>(stream_id), static_cast<std::uint32_t>(stream_id >> 32)};
}

void philox_words(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first_word,
                  std::size_t n, std::uint32_t* out) {
  constexpr std::size_t kWords = 4 * kLanes;
  std::uint32_t lanes[kWords];
  std::uint64_t block = first_word / 4;
  std::size_t skip = static_cast<std::size_t>(first_word % 4);
  while (n > 0) {
    if (skip == 0 && n >= kWords) {  // whole batches go straight to out
      philox_lanes(key, stream_id, block, out);
      out += kWords;
      n -= kWords;
    } else {
      philox_lanes(key, stream_id, block, lanes);
      const std::size_t take = std::min(n, kWords - skip);
      std::copy(lanes + skip, lanes + skip + take, out);
      out += take;
      n -= take;
      skip = 0;
    }
    block += kLanes;
  }
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t purpose) {
  const PhiloxBlock b = philox_block(philox_counter(0xFFFFFFFFu, purpose, 0xFF), seed);
  return (static_cast<std::uint64_t>(b[1]) << 32) | b[0];
}

}  // namespace dpaudit
