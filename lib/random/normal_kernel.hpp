// Normal number w of a Philox stream, one at a time, in code that compiles for a CUDA GPU as
// well as for the host: the arithmetic of philox.cpp and ziggurat.cpp, operation for
// operation, so that every number it gives is the CPU's, bit for bit. The host compiles it
// for the tests (test_normal_kernel compares it with philox_normals), nvcc for the GPU
// scorer (lib/canary/cuda/), there with -fmad=false: a multiplication and an addition are
// never fused into one rounding, as on the CPU.
//
// What the GPU cannot reproduce bit for bit it stops at: libm's exp and log are not the
// CPU's there. A number whose ziggurat needs one of them (a tail beyond r: two logs, about
// 2.6e-4 of the numbers; a wedge height too close to exp(-x^2/2) for the Taylor bounds:
// about 1e-6) is reported with where it stopped (Stop). A tail is finished from the two
// logarithms the host computes (finish_tail); anything else its caller takes from
// philox_normals.
#pragma once
#include <cstdint>

#ifdef __CUDACC__
#define DPAUDIT_HOST_DEVICE __host__ __device__
#else
#define DPAUDIT_HOST_DEVICE
#endif

namespace dpaudit::normal_kernel {

// The ziggurat's tables as ziggurat.cpp uses them: the fast path's edge[i] 2^-24 and
// ratio[i] 2^24 (FastLayer), and ZigguratTables' edge, ratio and density unscaled.
struct Tables {
  double fast_edge[256];
  double fast_ratio[256];
  double edge[257];
  double ratio[256];
  double density[257];
};

DPAUDIT_HOST_DEVICE inline std::uint32_t mul_high(std::uint32_t a, std::uint32_t b) {
#ifdef __CUDA_ARCH__
  return __umulhi(a, b);
#else
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}

// Philox4x32-10 of counter c under key, in place (philox.hpp's philox_block).
DPAUDIT_HOST_DEVICE inline void philox(std::uint32_t c[4], std::uint64_t key) {
  std::uint32_t k0 = static_cast<std::uint32_t>(key), k1 = static_cast<std::uint32_t>(key >> 32);
  for (int r = 0; r < 10; ++r) {
    const std::uint32_t lo0 = 0xD2511F53u * c[0], hi0 = mul_high(0xD2511F53u, c[0]);
    const std::uint32_t lo1 = 0xCD9E8D57u * c[2], hi1 = mul_high(0xCD9E8D57u, c[2]);
    const std::uint32_t n0 = hi1 ^ c[1] ^ k0, n2 = hi0 ^ c[3] ^ k1;
    c[0] = n0;
    c[1] = lo1;
    c[2] = n2;
    c[3] = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
}

// The counter of block `block` of stream `stream`, with `tag` in the top byte of word 1
// (philox.hpp's philox_counter).
DPAUDIT_HOST_DEVICE inline void philox_counter(std::uint64_t stream, std::uint64_t block,
                                               std::uint32_t tag, std::uint32_t c[4]) {
  c[0] = static_cast<std::uint32_t>(block);
  c[1] = static_cast<std::uint32_t>(block >> 32) | (tag << 24);
  c[2] = static_cast<std::uint32_t>(stream);
  c[3] = static_cast<std::uint32_t>(stream >> 32);
}

// A candidate word: layer = bits 0-7, sign = bit 8, abscissa 2m + 1 from m = bits 9-31.
DPAUDIT_HOST_DEVICE inline double abscissa(std::uint32_t word) {
  return static_cast<double>(static_cast<std::int32_t>((word >> 8) | 1u));
}
DPAUDIT_HOST_DEVICE inline double signed_by(std::uint32_t word, double magnitude) {
  return (word & 0x100u) ? -magnitude : magnitude;
}

// The fast path: the first candidate, word w of the stream. True when it lies inside its
// layer's rectangle (about 98.5% of words), with the number in x.
DPAUDIT_HOST_DEVICE inline bool first_candidate(const Tables& t, std::uint32_t word, double& x) {
  const std::uint32_t layer = word & 0xFFu;
  const double a = abscissa(word);
  x = signed_by(word, a * t.fast_edge[layer]);
  return a < t.fast_ratio[layer];
}

enum class Finish { accepted, rejected, deferred };

// ziggurat.cpp's wedge_or_tail, for a rejected candidate `word` and the block b of its
// sub-stream, without libm: a tail (layer 0) is deferred, and so is a wedge height that the
// Taylor bounds of below_density leave to exp.
DPAUDIT_HOST_DEVICE inline Finish wedge(const Tables& t, std::uint32_t word,
                                        const std::uint32_t b[4], double& x) {
  const std::uint32_t layer = word & 0xFFu;
  if (layer == 0) return Finish::deferred;
  const double u = abscissa(word) * 0x1p-24;
  const std::uint64_t bits = (static_cast<std::uint64_t>(b[2]) << 32) | b[1];
  const double uniform = (static_cast<double>(bits >> 11) + 0.5) * 0x1p-53;
  const double magnitude = u * t.edge[layer];
  const double f_outer = t.density[layer], f_inner = t.density[layer + 1];
  const double h = f_outer + uniform * (f_inner - f_outer);
  const double x_inner = t.edge[layer + 1];
  constexpr double kMargin = 0x1p-40;
  const double d = 0.5 * (magnitude * magnitude - x_inner * x_inner);
  const double lower = 1 - d * (1 - d * (0.5 - d * (1.0 / 6)));
  const bool below = h < f_inner * (lower - kMargin);
  const bool above = h > f_inner * (lower + d * d * d * d * (1.0 / 24) + kMargin);
  if (!below && !above) return Finish::deferred;
  x = signed_by(word, magnitude);
  return below ? Finish::accepted : Finish::rejected;
}

// A later candidate's rectangle test (ziggurat.cpp's inside_rectangle).
DPAUDIT_HOST_DEVICE inline bool later_candidate(const Tables& t, std::uint32_t word, double& x) {
  const std::uint32_t layer = word & 0xFFu;
  const double u = abscissa(word) * 0x1p-24;
  x = signed_by(word, u * t.edge[layer]);
  return u < t.ratio[layer];
}

// Where a number stopped for libm: candidate `word` of attempt `attempt`, whose sub-stream
// block is b; a tail when the candidate's layer is 0, else a wedge height that needs exp.
struct Stop {
  std::uint32_t word;
  std::uint32_t attempt;
  std::uint32_t b[4];
  DPAUDIT_HOST_DEVICE bool tail() const { return (word & 0xFFu) == 0; }
};

// Normal number w of stream (key, stream), candidate `word` rejected before attempt
// `attempt`: the attempts (w, attempt), (w, attempt + 1), ... as finish_rejected takes them.
// True with the number in x, or false with where it stopped in `stop`.
DPAUDIT_HOST_DEVICE inline bool finish_candidate(const Tables& t, std::uint64_t key,
                                                 std::uint64_t stream, std::uint64_t w,
                                                 std::uint32_t word, double& x, Stop& stop,
                                                 std::uint32_t attempt = 1) {
  for (;; ++attempt) {
    std::uint32_t b[4];
    philox_counter(stream, w, attempt, b);
    philox(b, key);
    const Finish f = wedge(t, word, b, x);
    if (f == Finish::deferred) {
      stop = {word, attempt, {b[0], b[1], b[2], b[3]}};
      return false;
    }
    if (f == Finish::accepted) return true;
    word = b[0];
    if (later_candidate(t, word, x)) return true;
  }
}

// A tail stop's two uniforms, whose logarithms its number needs (Marsaglia 1964): u for the
// distance beyond r, v for the test.
DPAUDIT_HOST_DEVICE inline void tail_uniforms(const Stop& s, double& u, double& v) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(s.b[2]) << 32) | s.b[1];
  u = (static_cast<double>(bits >> 11) + 0.5) * 0x1p-53;
  v = (static_cast<double>(s.b[3]) + 0.5) * 0x1p-32;
}

// The number of a tail stop, given log(u) and log(v) of its tail_uniforms as the host's libm
// computes them (ziggurat.cpp's wedge_or_tail, layer 0): true with the number in x, or false
// with the next stop in `next` (the tail rejected, and a later candidate needing libm too).
DPAUDIT_HOST_DEVICE inline bool finish_tail(const Tables& t, std::uint64_t key,
                                            std::uint64_t stream, std::uint64_t w, const Stop& s,
                                            double log_u, double log_v, double& x, Stop& next) {
  const double r = t.edge[1];
  const double beyond = -log_u / r;
  const double y = -log_v;
  x = signed_by(s.word, r + beyond);
  if (2 * y > beyond * beyond) return true;
  const std::uint32_t word = s.b[0];
  if (later_candidate(t, word, x)) return true;
  return finish_candidate(t, key, stream, w, word, x, next, s.attempt + 1);
}

}  // namespace dpaudit::normal_kernel
