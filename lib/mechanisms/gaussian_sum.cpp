#include "mechanisms/gaussian_sum.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "canary/lane_sum.hpp"
#include "core/error.hpp"
#include "core/parallel.hpp"
#include "random/multiversion.hpp"
#include "random/philox.hpp"
#include "random/philox_stream.hpp"

namespace dpaudit {

namespace {

// Purposes of the streams drawn from the mechanism's --seed (random/philox.hpp,
// derive_seed), distinct from canary specs that may use the same seed.
constexpr std::uint64_t kNoisePurpose = 0x6e6f697365;   // "noise"
constexpr std::uint64_t kClientPurpose = 0x636c69656e;  // "clien"
constexpr std::size_t kNoiseChunk = 1 << 16;
constexpr std::size_t kTermChunk = 4096;  // generated and squared while in L1 cache

// acc[i] += round(x[i] * scale), rounding half away from zero.
DPAUDIT_MULTIVERSION
void add_fixed_point(const double* __restrict x, std::size_t n, double scale,
                     std::int64_t* __restrict acc) {
  for (std::size_t i = 0; i < n; ++i) {
    const double y = x[i] * scale;
    acc[i] += static_cast<std::int64_t>(y + std::copysign(0.5, y));
  }
}

// Fills term (d entries) chunk by chunk with fill(begin, len, out); returns ||term||.
template <class Fill>
double fill_with_norm(std::size_t d, double* term, Fill fill) {
  LaneSum norm2;
  for (std::size_t begin = 0; begin < d; begin += kTermChunk) {
    const std::size_t len = std::min(kTermChunk, d - begin);
    fill(begin, len, term + begin);
    norm2.add_squares(term + begin, len);
  }
  return std::sqrt(norm2.total());
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

void FixedPointSum::total(double* out) const {
  for (std::size_t i = 0; i < acc_.size(); ++i)
    out[i] = std::ldexp(static_cast<double>(acc_[i]), -scale_bits_);
}

namespace {

// Adds the given clients' rows, each clipped to norm 1, to the sum.
void add_given_clients(const ClientRows& given, std::size_t count, std::size_t d,
                       FixedPointSum& sum) {
  std::vector<double> row(d);
  for (std::size_t i = 0; i < count; ++i) {
    given.next(row.data());
    LaneSum norm2;
    norm2.add_squares(row.data(), d);
    sum.add(row.data(), clip_factor(std::sqrt(norm2.total())));
  }
}

// release <- C (release + sigma Z), in place, refusing a release that is not finite.
void add_noise(const GaussianSumConfig& config, std::vector<double>& release) {
  const std::size_t d = release.size();
  // Coordinate i's noise is number i of the noise stream.
  const std::uint64_t noise_seed = derive_seed(config.seed, kNoisePurpose);
  const std::size_t chunks = (d + kNoiseChunk - 1) / kNoiseChunk;
  parallel_blocks(chunks, config.threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    std::vector<double> z(kNoiseChunk);
    for (std::size_t c = begin; c < end; ++c) {
      const std::size_t first = c * kNoiseChunk, len = std::min(kNoiseChunk, d - first);
      PhiloxStream(noise_seed, 0, first).fill_normal(z.data(), len);
      for (std::size_t i = 0; i < len; ++i)
        release[first + i] = config.clip * (release[first + i] + config.noise * z[i]);
    }
  });
  // A huge clip or noise overflows; never write inf into the release.
  for (std::size_t i = 0; i < d; ++i)
    if (!std::isfinite(release[i]))
      throw DataError(Pattern{"the release overflows at coordinate " + std::to_string(i) +
                              ": C (sum + sigma Z) is not finite; lower {clip} or {noise}"});
}

}  // namespace

std::vector<double> gaussian_sum_release(const GaussianSumConfig& config, const CanarySet* canaries,
                                         const ClientRows* given,
                                         const std::function<void(std::size_t)>& progress) {
  const std::size_t d = config.dim;
  const std::size_t k = canaries ? canaries->count() : 0;
  if (canaries && canaries->dim() != d)
    throw DataError(Pattern{"canary " + dimension_mismatch(canaries->dim(), d)},
                    literal(canaries->source()));

  if (config.client_data == ClientData::given && !given)
    throw std::invalid_argument("gaussian_sum_release: ClientData::given needs the client rows");
  const std::size_t given_clients = config.client_data == ClientData::given ? given->count : 0;
  const std::size_t random_clients = config.client_data == ClientData::random ? config.clients : 0;
  const std::size_t terms = given_clients + random_clients + k;

  // Random clients and canaries, one term each, in rounds of `threads` terms: every
  // thread generates one term (and its norm), then the threads add all of the round's
  // terms into one exact sum, each over its own range of coordinates. Memory: the sum
  // and one term per thread.
  const std::uint64_t client_seed = derive_seed(config.seed, kClientPurpose);
  const std::size_t generated = random_clients + k;
  const std::size_t threads = std::max<std::size_t>(
      1, config.threads > 0 ? std::size_t(config.threads) : std::thread::hardware_concurrency());
  FixedPointSum sum(d, terms);
  std::vector<std::vector<double>> round_terms(std::min(threads, generated),
                                               std::vector<double>(d));
  std::vector<double> factors(round_terms.size());
  auto generate = [&](std::size_t i, double* term) {
    if (i < random_clients) {
      const double norm =
          fill_with_norm(d, term, [&](std::size_t from, std::size_t len, double* out) {
            PhiloxStream(client_seed, i, from).fill_normal(out, len);
          });
      return clip_factor(norm);
    }
    const std::size_t j = i - random_clients;
    const double norm = fill_with_norm(
        d, term,
        [&](std::size_t from, std::size_t len, double* out) { canaries->raw(j, from, len, out); });
    return canaries->raw_needs_normalising() ? 1 / norm : clip_factor(norm);
  };
  for (std::size_t first = 0; first < generated; first += round_terms.size()) {
    const std::size_t n = std::min(round_terms.size(), generated - first);
    parallel_blocks(n, int(n), [&](std::size_t begin, std::size_t end, std::size_t) {
      for (std::size_t t = begin; t < end; ++t)
        factors[t] = generate(first + t, round_terms[t].data());
    });
    parallel_blocks(d, int(threads), [&](std::size_t begin, std::size_t end, std::size_t) {
      for (std::size_t t = 0; t < n; ++t) sum.add(round_terms[t].data(), factors[t], begin, end);
    });
    if (progress) progress(first + n);
  }
  if (given_clients) add_given_clients(*given, given_clients, d, sum);

  // The release reuses a term's buffer, and the others are freed before the output.
  std::vector<double> release =
      round_terms.empty() ? std::vector<double>(d) : std::move(round_terms[0]);
  round_terms.clear();
  sum.total(release.data());
  add_noise(config, release);
  return release;
}

}  // namespace dpaudit
