#include "mechanisms/gaussian_sum.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "canary/lane_sum.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "core/thread_team.hpp"
#include "core/x86_simd.hpp"
#include "random/multiversion.hpp"
#include "random/philox.hpp"
#include "random/philox_stream.hpp"

namespace dpaudit {

namespace {

// Purposes of the streams drawn from the mechanism's --seed (random/philox.hpp,
// derive_seed), distinct from canary specs that may use the same seed.
constexpr std::uint64_t kNoisePurpose = 0x6e6f697365;   // "noise"
constexpr std::uint64_t kClientPurpose = 0x636c69656e;  // "clien"
// Entries generated at a time: a term's chunk (and, in the second pass, the block's fixed-point
// sum of as many entries) stays in the L1 or L2 cache.
constexpr std::size_t kChunk = 4096;
// Each pass runs in at most this many rounds of parallel work (the progress steps).
constexpr std::size_t kRounds = 64;

// acc[i] += round(x[i] * scale), rounding half away from zero.
DPAUDIT_MULTIVERSION
void add_fixed_point_scalar(const double* __restrict x, std::size_t n, double scale,
                            std::int64_t* __restrict acc) {
  for (std::size_t i = 0; i < n; ++i) {
    const double y = x[i] * scale;
    acc[i] += static_cast<std::int64_t>(y + std::copysign(0.5, y));
  }
}

#ifdef DPAUDIT_X86_SIMD
// The same, four entries at a time with AVX2, which cannot convert doubles to 64-bit
// integers: the rounded entry t = trunc(y + copysign(0.5, y)), an integer with |t| < 2^51, is
// read off the bits of t + 1.5 2^52, an exact sum whose last bit weighs 1. Four entries with a
// larger |t| (or a NaN) take the scalar path. The same bits as the scalar path.
DPAUDIT_TARGET("avx2")
void add_fixed_point_avx2(const double* x, std::size_t n, double scale, std::int64_t* acc) {
  const __m256d s = _mm256_set1_pd(scale), half = _mm256_set1_pd(0.5), sign = _mm256_set1_pd(-0.0),
                magic = _mm256_set1_pd(0x1.8p52), limit = _mm256_set1_pd(0x1p51);
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256d y = _mm256_mul_pd(_mm256_loadu_pd(x + i), s);
    const __m256d t = _mm256_round_pd(_mm256_add_pd(y, _mm256_or_pd(half, _mm256_and_pd(y, sign))),
                                      _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
    if (_mm256_movemask_pd(_mm256_cmp_pd(_mm256_andnot_pd(sign, t), limit, _CMP_LT_OQ)) != 0xf) {
      add_fixed_point_scalar(x + i, 4, scale, acc + i);
      continue;
    }
    const __m256i k =
        _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(t, magic)), _mm256_castpd_si256(magic));
    auto* a = reinterpret_cast<__m256i*>(acc + i);
    _mm256_storeu_si256(a, _mm256_add_epi64(_mm256_loadu_si256(a), k));
  }
  add_fixed_point_scalar(x + i, n - i, scale, acc + i);
}

// The same, eight entries at a time with AVX-512DQ, whose conversion truncates a double to a
// 64-bit integer as the scalar path's cast compiles to (cvttsd2si: the same result for every
// entry, out-of-range ones included), so that no entry needs the scalar path.
DPAUDIT_AVX512_CODE_BEGIN
DPAUDIT_TARGET("avx512f,avx512dq")
void add_fixed_point_avx512(const double* x, std::size_t n, double scale, std::int64_t* acc) {
  constexpr int kOrAnd = 0xEA;  // vpternlog's truth table of c | (a & b)
  const __m512i sign = _mm512_set1_epi64(static_cast<long long>(1ull << 63)),
                half = _mm512_castpd_si512(_mm512_set1_pd(0.5));
  const __m512d s = _mm512_set1_pd(scale);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512d y = _mm512_mul_pd(_mm512_loadu_pd(x + i), s);
    const __m512d away = _mm512_castsi512_pd(  // copysign(0.5, y)
        _mm512_ternarylogic_epi64(_mm512_castpd_si512(y), sign, half, kOrAnd));
    const __m512i k = _mm512_cvttpd_epi64(_mm512_add_pd(y, away));
    _mm512_storeu_si512(acc + i, _mm512_add_epi64(_mm512_loadu_si512(acc + i), k));
  }
  add_fixed_point_scalar(x + i, n - i, scale, acc + i);
}
DPAUDIT_AVX512_CODE_END
#endif

void add_fixed_point(const double* x, std::size_t n, double scale, std::int64_t* acc) {
#ifdef DPAUDIT_X86_SIMD
  static const bool avx512 = DPAUDIT_CPU_SUPPORTS("avx512f") && DPAUDIT_CPU_SUPPORTS("avx512dq"),
                    avx2 = DPAUDIT_CPU_SUPPORTS("avx2");
  if (avx512) return add_fixed_point_avx512(x, n, scale, acc);
  if (avx2) return add_fixed_point_avx2(x, n, scale, acc);
#endif
  add_fixed_point_scalar(x, n, scale, acc);
}

// The factor that clips a vector of norm `norm` to norm <= 1.
double clip_factor(double norm) {
  return norm > 1 ? 1 / norm : 1.0;
}

std::string dimension_mismatch(std::size_t got, std::size_t dim) {
  return "dimension " + std::to_string(got) + " does not match {dim} " + std::to_string(dim);
}

}  // namespace

FixedPointSum::FixedPointSum(std::size_t dim, std::size_t max_terms)
    : scale_bits_(62 - static_cast<int>(std::ceil(std::log2(double(max_terms) + 1)))),
      scale_(std::ldexp(1.0, scale_bits_)),
      acc_(dim, 0) {}

void FixedPointSum::add(const double* x, double factor) {
  add(x, factor, 0, acc_.size());
}

void FixedPointSum::add(const double* x, double factor, std::size_t begin, std::size_t end) {
  add_fixed_point(x + begin, end - begin, scale_ * factor, acc_.data() + begin);
}

void FixedPointSum::add_entries(const FixedPointSum& other, std::size_t begin, std::size_t end) {
  if (other.scale_bits_ != scale_bits_)
    throw std::invalid_argument("FixedPointSum::add_entries: sums of different resolutions");
  for (std::size_t i = begin; i < end; ++i) acc_[i - begin] += other.acc_[i];
}

void FixedPointSum::clear() {
  std::fill(acc_.begin(), acc_.end(), 0);
}

void FixedPointSum::total(double* out) const {
  total(out, 0, acc_.size());
}

void FixedPointSum::total(double* out, std::size_t begin, std::size_t end) const {
  for (std::size_t i = begin; i < end; ++i)
    out[i - begin] = std::ldexp(static_cast<double>(acc_[i]), -scale_bits_);
}

namespace {

// The generated terms: random clients 0 .. clients - 1, then the canaries.
class GeneratedTerms {
 public:
  GeneratedTerms(const GaussianSumConfig& config, const CanarySet* canaries)
      : canaries_(canaries),
        clients_(config.client_data == ClientData::random ? config.clients : 0),
        client_seed_(derive_seed(config.seed, kClientPurpose)) {}

  std::size_t count() const { return clients_ + (canaries_ ? canaries_->count() : 0); }

  // Entries [begin, begin + len) of term t before clipping or normalising.
  void raw(std::size_t t, std::size_t begin, std::size_t len, double* out) const {
    if (t < clients_) {
      PhiloxStream(client_seed_, t, begin).fill_normal(out, len);
    } else {
      canaries_->raw(t - clients_, begin, len, out);
    }
  }

  // The factor of term t, whose raw entries have norm `norm`: a random client is
  // clipped to norm 1, a canary normalised (a spec's sphere) or clipped.
  double factor(std::size_t t, double norm) const {
    if (t >= clients_ && canaries_->raw_needs_normalising()) return 1 / norm;
    return clip_factor(norm);
  }

 private:
  const CanarySet* canaries_;
  std::size_t clients_;
  std::uint64_t client_seed_;
};

// fn(begin, end) over [0, n) in at most kRounds rounds, each split over the threads;
// done(end of the round) after each round, from the calling thread.
template <class Fn, class Done>
void in_rounds(std::size_t n, int threads, Fn fn, Done done) {
  const std::size_t round = std::max(resolve_threads(threads), (n + kRounds - 1) / kRounds);
  for (std::size_t first = 0; first < n; first += round) {
    const std::size_t last = std::min(n, first + round);
    parallel_blocks(last - first, threads, [&](std::size_t begin, std::size_t end, std::size_t) {
      fn(first + begin, first + end);
    });
    done(last);
  }
}

// Generates term t (d entries) a chunk at a time, into out[0, d) when `keep`, else each chunk
// into out[0, kChunk) over the last, and returns its factor. Both paths take their factors here,
// so they are the same bits.
double generate_term(const GeneratedTerms& terms, std::size_t t, std::size_t d, double* out,
                     bool keep) {
  LaneSum norm2;
  for (std::size_t from = 0; from < d; from += kChunk) {
    const std::size_t len = std::min(kChunk, d - from);
    double* x = keep ? out + from : out;
    terms.raw(t, from, len, x);
    norm2.add_squares(x, len);
  }
  return terms.factor(t, std::sqrt(norm2.total()));
}

// The first pass: the factor of every generated term, from its norm. Every term is
// generated a chunk at a time and not kept.
std::vector<double> term_factors(const GeneratedTerms& terms, std::size_t d, int threads,
                                 const std::function<void(std::size_t)>& progress) {
  std::vector<double> factors(terms.count());
  in_rounds(
      terms.count(), threads,
      [&](std::size_t begin, std::size_t end) {
        std::vector<double> chunk(std::min(kChunk, d));
        for (std::size_t t = begin; t < end; ++t)
          factors[t] = generate_term(terms, t, d, chunk.data(), false);
      },
      [&](std::size_t done) {
        if (progress) progress(done);
      });
  return factors;
}

// out[i] = C (out[i] + sigma z_i) for the coordinates begin .. begin + len - 1, where out holds
// their sum; z (len entries of scratch) gets their noise, number i of the noise stream for i.
void add_noise(const GaussianSumConfig& config, std::size_t begin, std::size_t len, double* out,
               double* z) {
  PhiloxStream(derive_seed(config.seed, kNoisePurpose), 0, begin).fill_normal(z, len);
  for (std::size_t i = 0; i < len; ++i) out[i] = config.clip * (out[i] + config.noise * z[i]);
}

// Adds the given clients' rows, each clipped to norm 1, to the sum.
void add_given_clients(const ClientRows& given, std::size_t d, FixedPointSum& sum) {
  std::vector<double> row(d);
  for (std::size_t i = 0; i < given.count; ++i) {
    given.next(row.data());
    LaneSum norm2;
    norm2.add_squares(row.data(), d);
    sum.add(row.data(), clip_factor(std::sqrt(norm2.total())));
  }
}

// Refuses a release that is not finite (a huge clip or noise overflows).
void check_finite(const std::vector<double>& release) {
  for (std::size_t i = 0; i < release.size(); ++i)
    if (!std::isfinite(release[i]))
      throw DataError(Pattern{"the release overflows at coordinate " + std::to_string(i) +
                              ": C (sum + sigma Z) is not finite; lower {clip} or {noise}"});
}

// One pass, the terms kept: in rounds of `keepers` terms, each thread generates one term whole
// (and its factor), then the threads add the round's terms into `sum`, each over its own range
// of coordinates, a block at a time. One team of threads runs every round (a round is a few
// milliseconds at the Table 2 size: a thread start a round cost a tenth of the CPU time). The
// release reuses a term's buffer. Memory: the sum and `keepers` terms.
std::vector<double> one_pass_release(const GaussianSumConfig& config, const GeneratedTerms& terms,
                                     std::size_t keepers, FixedPointSum sum,
                                     const std::function<void(std::size_t)>& progress) {
  const std::size_t d = config.dim, generated = terms.count();
  std::vector<std::vector<double>> kept(keepers);  // not copies of one: a term more at once
  for (std::vector<double>& term : kept) term.resize(d);
  std::vector<double> factors(keepers);
  const std::size_t team = resolve_threads(config.threads);  // keepers <= team
  run_team(team, [&](std::size_t k, TeamSync& sync) {
    const std::size_t begin = d * k / team, end = d * (k + 1) / team;  // its coordinates
    for (std::size_t first = 0; first < generated; first += keepers) {
      const std::size_t n = std::min(keepers, generated - first);
      if (k < n) factors[k] = generate_term(terms, first + k, d, kept[k].data(), true);
      sync.wait();
      // a block of the sum at a time, every term added there while it is in cache
      for (std::size_t from = begin; from < end; from += kChunk)
        for (std::size_t t = 0; t < n; ++t)
          sum.add(kept[t].data(), factors[t], from, std::min(end, from + kChunk));
      sync.wait();                                        // the terms' buffers are free again
      if (k == 0 && progress) progress(2 * (first + n));  // each norm known and each term added
    }
  });
  std::vector<double> release = std::move(kept[0]);
  kept.clear();
  sum.total(release.data());
  const std::size_t blocks = (d + kChunk - 1) / kChunk;
  parallel_blocks(
      blocks, config.threads, [&](std::size_t first_block, std::size_t end_block, std::size_t) {
        std::vector<double> z(kChunk);
        for (std::size_t b = first_block; b < end_block; ++b) {
          const std::size_t begin = b * kChunk;
          add_noise(config, begin, std::min(kChunk, d - begin), release.data() + begin, z.data());
        }
      });
  return release;
}

// Two passes, no term kept: the factors first (term_factors), then a block of kChunk
// coordinates at a time: every term's entries there, generated again, go into the block's exact
// sum (with `given`'s entries, if any); then C (sum + sigma Z) of the block is written.
std::vector<double> two_pass_release(const GaussianSumConfig& config, const GeneratedTerms& terms,
                                     std::size_t max_terms, const FixedPointSum* given,
                                     const std::function<void(std::size_t)>& progress) {
  const std::size_t d = config.dim, generated = terms.count();
  const std::vector<double> factors = term_factors(terms, d, config.threads, progress);
  std::vector<double> release(d);
  const std::size_t blocks = (d + kChunk - 1) / kChunk;
  in_rounds(
      blocks, config.threads,
      [&](std::size_t first_block, std::size_t end_block) {
        FixedPointSum sum(kChunk, max_terms);
        std::vector<double> x(kChunk);
        for (std::size_t b = first_block; b < end_block; ++b) {
          const std::size_t begin = b * kChunk, len = std::min(kChunk, d - begin);
          sum.clear();
          if (given) sum.add_entries(*given, begin, begin + len);
          for (std::size_t t = 0; t < generated; ++t) {
            terms.raw(t, begin, len, x.data());
            sum.add(x.data(), factors[t], 0, len);
          }
          double* out = release.data() + begin;
          sum.total(out, 0, len);
          add_noise(config, begin, len, out, x.data());
        }
      },
      [&](std::size_t done) {
        if (progress && generated) progress(generated + generated * done / blocks);
      });
  return release;
}

}  // namespace

std::vector<double> gaussian_sum_release(const GaussianSumConfig& config, const CanarySet* canaries,
                                         const ClientRows* given,
                                         const std::function<void(std::size_t)>& progress) {
  const std::size_t d = config.dim;
  if (canaries && canaries->dim() != d)
    throw DataError(Pattern{"canary " + dimension_mismatch(canaries->dim(), d)},
                    literal(canaries->source()));
  if (config.client_data == ClientData::given && !given)
    throw std::invalid_argument("gaussian_sum_release: ClientData::given needs the client rows");
  const GeneratedTerms terms(config, canaries);
  const std::size_t generated = terms.count();
  const bool with_given = config.client_data == ClientData::given;
  const std::size_t max_terms = generated + (with_given ? given->count : 0);

  // The given clients' rows are read once, into a sum over all coordinates.
  std::optional<FixedPointSum> given_sum;
  if (with_given) {
    given_sum.emplace(d, max_terms);
    add_given_clients(*given, d, *given_sum);
  }
  // One pass when a term per thread fits in kept_term_bytes (GaussianSumConfig).
  const std::size_t keepers = std::min(resolve_threads(config.threads), generated);
  std::vector<double> release =
      keepers > 0 && d <= config.kept_term_bytes / (sizeof(double) * keepers)
          ? one_pass_release(config, terms, keepers,
                             given_sum ? std::move(*given_sum) : FixedPointSum(d, max_terms),
                             progress)
          : two_pass_release(config, terms, max_terms, given_sum ? &*given_sum : nullptr, progress);
  check_finite(release);
  return release;
}

}  // namespace dpaudit
