#include "games/subsampled_gaussian_game.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/parallel.hpp"
#include "random/philox.hpp"
#include "random/philox_stream.hpp"

namespace dpaudit {

namespace {

// Purpose of the game's key under the user's seed (random/philox.hpp, derive_seed).
constexpr std::uint64_t kGamePurpose = 0x736767616d65;       // "sggame"
constexpr std::uint64_t kMaxSteps = std::uint64_t{1} << 50;  // 3T words stay inside a stream (2^58)
constexpr std::uint64_t kMaxTrial = std::uint64_t{1} << 63;  // 2 * trial + label fits 64 bits
constexpr std::size_t kChunk = 4096;                         // steps per batch of random numbers

void validate(const SubsampledGaussianGame& g) {
  const auto fail = [](const std::string& what) {
    throw std::invalid_argument("subsampled Gaussian game: " + what);
  };
  if (!(g.noise_multiplier > 0) || !std::isfinite(g.noise_multiplier))
    fail("the noise multiplier must be positive and finite");
  if (!(g.q >= 0 && g.q <= 1)) fail("q must lie in [0, 1]");
  if (!std::isfinite(g.signal)) fail("the signal must be finite");
  if (!(g.noise_scale > 0) || !std::isfinite(g.noise_scale))
    fail("the noise scale must be positive and finite");
  if (g.steps > kMaxSteps) fail("at most 2^50 steps");
  if (g.sampling == Sampling::without_replacement)
    fail("the canary's steps are Poisson-sampled or shuffled, not without replacement");
  if ((by_epochs(g.sampling) || g.score == WatermarkScore::epoch_max) && g.epoch_steps == 0)
    fail("an epoch needs at least one step");
}

// Scratch buffers of one thread, reused across its trials.
struct Scratch {
  std::vector<double> noise;
  std::vector<std::uint32_t> words;
  std::vector<unsigned char> included;
};

// A uniform integer in [0, n): the next 64-bit word x >= 2^64 mod n, taken mod n (the
// accepted range holds a whole number of copies of [0, n)).
std::uint64_t uniform_below_exact(PhiloxStream& stream, std::uint64_t n) {
  const std::uint64_t reject_below = (0 - n) % n;  // 2^64 mod n
  for (;;) {
    const std::uint64_t x = stream.next_u64();
    if (x >= reject_below) return x % n;
  }
}

// D3's score of one trial under one hypothesis; the stream layout is the header's.
double play_trial(const SubsampledGaussianGame& g, std::uint64_t key, std::uint64_t trial,
                  int label, Scratch& s) {
  const std::uint64_t stream_id = 2 * trial + static_cast<std::uint64_t>(label);
  const std::uint64_t steps = g.steps;
  const std::size_t chunk = static_cast<std::size_t>(std::min<std::uint64_t>(steps, kChunk));
  s.noise.resize(chunk);
  s.included.assign(chunk, 0);
  if (label && g.sampling == Sampling::poisson) s.words.resize(2 * chunk);
  PhiloxStream noise(key, stream_id, 0);
  PhiloxStream slots(key, stream_id, steps);  // shuffle: the epochs' slots
  std::uint64_t canary_step = steps;          // shuffle: the current epoch's canary step
  WatermarkScorer scorer(g.score, g.noise_multiplier, g.q, g.epoch_steps);
  for (std::uint64_t begin = 0; begin < steps; begin += chunk) {
    const std::size_t len = static_cast<std::size_t>(std::min<std::uint64_t>(chunk, steps - begin));
    noise.fill_normal(s.noise.data(), len);
    if (label && g.sampling == Sampling::poisson) {
      philox_words(key, stream_id, steps + 2 * begin, 2 * len, s.words.data());
      for (std::size_t i = 0; i < len; ++i)
        s.included[i] = uniform_from_words(s.words[2 * i], s.words[2 * i + 1]) < g.q;
    } else if (label) {
      for (std::size_t i = 0; i < len; ++i) {
        const std::uint64_t t = begin + i;
        if (t % g.epoch_steps == 0) canary_step = t + uniform_below_exact(slots, g.epoch_steps);
        s.included[i] = t == canary_step;
      }
    }
    // Sec. IV-G's 1-D problem: the canary's normalised contribution plus the noise.
    for (std::size_t i = 0; i < len; ++i) {
      const double d =
          (s.included[i] ? g.signal : 0.0) + g.noise_scale * g.noise_multiplier * s.noise[i];
      scorer.add(d);
    }
  }
  return scorer.score();
}

}  // namespace

double play_subsampled_gaussian_trial(const SubsampledGaussianGame& g, std::uint64_t trial,
                                      int label) {
  validate(g);
  if (trial >= kMaxTrial)
    throw std::invalid_argument("subsampled Gaussian game: trial must be below 2^63");
  if (label != 0 && label != 1)
    throw std::invalid_argument("subsampled Gaussian game: label must be 0 or 1");
  Scratch s;
  return play_trial(g, derive_seed(g.seed, kGamePurpose), trial, label, s);
}

std::vector<double> play_subsampled_gaussian_game(const SubsampledGaussianGame& g,
                                                  std::uint64_t first, std::uint64_t last,
                                                  int threads) {
  validate(g);
  if (first > last || last > kMaxTrial)
    throw std::invalid_argument(
        "subsampled Gaussian game: trials [first, last) need first <= last <= 2^63");
  const std::uint64_t key = derive_seed(g.seed, kGamePurpose);
  const std::size_t trials = static_cast<std::size_t>(last - first);
  std::vector<double> scores(2 * trials);
  parallel_blocks(trials, threads, [&](std::size_t begin, std::size_t end, std::size_t) {
    Scratch s;
    for (std::size_t i = begin; i < end; ++i) {
      scores[2 * i] = play_trial(g, key, first + i, 0, s);
      scores[2 * i + 1] = play_trial(g, key, first + i, 1, s);
    }
  });
  return scores;
}

}  // namespace dpaudit
