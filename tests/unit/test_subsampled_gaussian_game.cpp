// Nasr et al. 2021's malicious-dataset game reduced to one dimension (Sec. IV-F/G): determinism,
// the documented stream layout, and its distributions against closed forms. Statistical
// checks use 200,000 trials and a tolerance of 4.5 standard errors (a false failure
// about once in 150,000 runs per check).
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <doctest/doctest.h>
#include <boost/math/distributions/normal.hpp>

#include "games/subsampled_gaussian_game.hpp"
#include "random/philox.hpp"
#include "random/philox_stream.hpp"

using namespace dpaudit;

namespace {

constexpr std::uint64_t kTrials = 200000;
constexpr double kSe = 4.5;

SubsampledGaussianGame game(double z, double q, std::uint64_t steps, double signal = 1) {
  SubsampledGaussianGame g;
  g.noise_multiplier = z;
  g.q = q;
  g.steps = steps;
  g.signal = signal;
  g.seed = 2021;
  return g;
}

// Scores of one label from play_subsampled_gaussian_game's interleaved output.
std::vector<double> of_label(const std::vector<double>& scores, int label) {
  std::vector<double> out;
  for (std::size_t i = static_cast<std::size_t>(label); i < scores.size(); i += 2)
    out.push_back(scores[i]);
  return out;
}

double mean(const std::vector<double>& x) {
  double s = 0;
  for (double v : x) s += v;
  return s / static_cast<double>(x.size());
}

double variance(const std::vector<double>& x) {
  const double m = mean(x);
  double s = 0;
  for (double v : x) s += (v - m) * (v - m);
  return s / static_cast<double>(x.size() - 1);
}

double fraction_above(const std::vector<double>& x, double threshold) {
  double n = 0;
  for (double v : x) n += v > threshold;
  return n / static_cast<double>(x.size());
}

// |p_hat - p| within kSe binomial standard errors of n draws.
bool binomial_close(double p_hat, double p, std::uint64_t n) {
  return std::abs(p_hat - p) <= kSe * std::sqrt(p * (1 - p) / static_cast<double>(n));
}

}  // namespace

TEST_CASE("a trial is a pure function of (game, trial, label), whatever the threads or shard") {
  SubsampledGaussianGame g = game(0.9, 0.05, 37);
  const std::vector<double> one = play_subsampled_gaussian_game(g, 100, 400, 1);
  for (int threads : {2, 3, 0}) {
    const std::vector<double> many = play_subsampled_gaussian_game(g, 100, 400, threads);
    REQUIRE(many.size() == one.size());
    CHECK(std::memcmp(many.data(), one.data(), one.size() * sizeof(double)) == 0);
  }
  const std::vector<double> shard = play_subsampled_gaussian_game(g, 250, 260, 2);
  CHECK(std::memcmp(shard.data(), one.data() + 2 * 150, shard.size() * sizeof(double)) == 0);
  for (std::uint64_t trial : {100u, 177u, 399u}) {
    CHECK(play_subsampled_gaussian_trial(g, trial, 0) == one[2 * (trial - 100)]);
    CHECK(play_subsampled_gaussian_trial(g, trial, 1) == one[2 * (trial - 100) + 1]);
    CHECK(play_subsampled_gaussian_trial(g, trial, 1) ==
          play_subsampled_gaussian_trial(g, trial, 1));
  }
  CHECK(one[0] != one[1]);  // the labels draw from different streams
  g.seed = 2022;
  CHECK(play_subsampled_gaussian_trial(g, 100, 0) != one[0]);
  g.sampling = Sampling::shuffle;
  g.epoch_steps = 10;
  const std::vector<double> shuffled = play_subsampled_gaussian_game(g, 0, 200, 1);
  const std::vector<double> shuffled2 = play_subsampled_gaussian_game(g, 0, 200, 2);
  CHECK(std::memcmp(shuffled.data(), shuffled2.data(), shuffled.size() * sizeof(double)) == 0);
}

TEST_CASE("the scores follow the stream layout the header documents") {
  // Score `sum` adds d_t = included_t * signal + noise_scale z N_t; recompute it from the
  // streams, with T = 5000 also across the game's batches of 4096 steps.
  const std::uint64_t trial = 12345;
  for (Sampling sampling : {Sampling::poisson, Sampling::shuffle}) {
    for (std::uint64_t steps : {50u, 5000u}) {
      SubsampledGaussianGame g = game(0.7, 0.3, steps, 2.5);
      g.score = WatermarkScore::sum;
      g.sampling = sampling;
      g.epoch_steps = 7;  // shuffle
      g.noise_scale = 0.25;
      const std::uint64_t key = derive_seed(g.seed, 0x736767616d65);
      for (int label : {0, 1}) {
        const std::uint64_t stream = 2 * trial + static_cast<std::uint64_t>(label);
        std::vector<double> noise(steps);
        PhiloxStream(key, stream).fill_normal(noise.data(), noise.size());
        std::vector<std::uint32_t> words(2 * steps);
        philox_words(key, stream, steps, words.size(), words.data());
        PhiloxStream slots(key, stream, steps);
        std::uint64_t canary_step = 0;
        double want = 0;
        std::uint64_t sampled = 0;
        for (std::uint64_t t = 0; t < steps; ++t) {
          bool included = false;
          if (label == 1 && sampling == Sampling::poisson) {
            included = uniform_from_words(words[2 * t], words[2 * t + 1]) < g.q;
          } else if (label == 1) {
            if (t % 7 == 0) {
              std::uint64_t x;
              do x = slots.next_u64();
              while (x < (0 - std::uint64_t{7}) % 7);  // 2^64 mod 7 = 2
              canary_step = t + x % 7;
            }
            included = t == canary_step;
          }
          sampled += included;
          want += (included ? g.signal : 0.0) + 0.25 * g.noise_multiplier * noise[t];
        }
        if (label == 1) CHECK(sampled > 0);  // the check exercises inclusion
        CHECK(play_subsampled_gaussian_trial(g, trial, label) == want);
      }
    }
  }
}

TEST_CASE("q = 1, T = 1: the llr score is an affine map of d ~ N(label, z^2)") {
  // With q = 1 the step's llr is (2d - 1) / (2 z^2), so (2 z^2 score + 1) / 2 = d,
  // which is N(1, z^2) under D' and N(0, z^2) under D. Standard errors: z / sqrt(n)
  // for the mean, z^2 sqrt(2 / (n - 1)) for the variance.
  const double z = 0.8;
  const std::vector<double> scores = play_subsampled_gaussian_game(game(z, 1, 1), 0, kTrials, 0);
  const double n = static_cast<double>(kTrials);
  for (int label : {0, 1}) {
    std::vector<double> d = of_label(scores, label);
    for (double& v : d) v = (2 * z * z * v + 1) / 2;
    CHECK(std::abs(mean(d) - label) <= kSe * z / std::sqrt(n));
    CHECK(std::abs(variance(d) - z * z) <= kSe * z * z * std::sqrt(2 / (n - 1)));
  }
}

TEST_CASE(
    "q = 1, T = 1: TPR at a fixed FPR is the Gaussian mechanism's, Phi(1/z - Phi^-1(1 - FPR))") {
  // The optimal test of N(0, z^2) against N(1, z^2) thresholds d at z Phi^-1(1 - FPR),
  // i.e. the llr score at (2 z Phi^-1(1 - FPR) - 1) / (2 z^2) (Neyman-Pearson; the
  // trade-off curve of the Gaussian mechanism of sensitivity 1/z).
  const boost::math::normal phi;
  for (double z : {0.5, 1.0, 2.0}) {
    const std::vector<double> scores = play_subsampled_gaussian_game(game(z, 1, 1), 0, kTrials, 0);
    for (double fpr : {0.01, 0.1}) {
      const double cut = boost::math::quantile(phi, 1 - fpr);
      const double threshold = (2 * z * cut - 1) / (2 * z * z);
      const double tpr = boost::math::cdf(phi, 1 / z - cut);
      CHECK(binomial_close(fraction_above(of_label(scores, 0), threshold), fpr, kTrials));
      CHECK(binomial_close(fraction_above(of_label(scores, 1), threshold), tpr, kTrials));
    }
  }
}

TEST_CASE("Poisson: the canary is missed in a fraction (1 - q)^T of the D' trials") {
  // Signal 1000 with noise z = 1: a step holding the canary scores about log q + 999.5
  // ~ 995, any other step below 2 (d < 6 in 2e7 draws), so the number of steps holding
  // the canary, K ~ Binomial(T, q), reads off the score: K = 0 below 500, K = 1 in [500,
  // 1500). P(K = 0) = 0.99^100 = 0.36603, P(K = 1) = 100 * 0.01 * 0.99^99 = 0.36973.
  const double q = 0.01;
  const std::uint64_t steps = 100;
  const std::vector<double> scores =
      play_subsampled_gaussian_game(game(1, q, steps, 1e3), 0, kTrials, 0);
  const std::vector<double> in = of_label(scores, 1), out = of_label(scores, 0);
  const double p0 = std::pow(1 - q, steps), p1 = steps * q * std::pow(1 - q, steps - 1);
  CHECK(binomial_close(1 - fraction_above(in, 500), p0, kTrials));
  CHECK(binomial_close(fraction_above(in, 500) - fraction_above(in, 1500), p1, kTrials));
  CHECK(fraction_above(out, 500) == 0.0);
}

TEST_CASE("Poisson: the llr is the exact likelihood ratio, E_D[e^S] = E_D'[e^-S] = 1") {
  // S = log prod_t (1 - q + q p1(d_t)/p0(d_t)) is the log density ratio of the T steps'
  // statistics under D' (Poisson canary) and D, so E_D[e^S] = 1 and E_D'[e^-S] = 1. Per
  // step E_D[(e^L)^2] = 1 + q^2 (e^{1/z^2} - 1), so Var_D e^S = (1 + q^2 (e^{1/z^2} - 1))^T - 1;
  // under D' the sample variance serves. A wrong inclusion rate or noise scale moves
  // these means (e.g. q' = 2q shifts E_D'[e^-S] by about T q^2 (e^{1/z^2} - 1) = 0.017).
  const double z = 1, q = 0.01;
  const std::uint64_t steps = 100;
  const std::vector<double> scores =
      play_subsampled_gaussian_game(game(z, q, steps), 0, kTrials, 0);
  std::vector<double> ratio0 = of_label(scores, 0), ratio1 = of_label(scores, 1);
  for (double& v : ratio0) v = std::exp(v);
  for (double& v : ratio1) v = std::exp(-v);
  const double n = static_cast<double>(kTrials);
  const double var0 = std::pow(1 + q * q * std::expm1(1 / (z * z)), static_cast<double>(steps)) - 1;
  CHECK(std::abs(mean(ratio0) - 1) <= kSe * std::sqrt(var0 / n));
  CHECK(std::abs(mean(ratio1) - 1) <= kSe * std::sqrt(variance(ratio1) / n));
}

TEST_CASE("shuffle: one canary step per epoch; a partial last epoch holds it w.p. len / epoch") {
  // Signal 1000, z = 1: each canary step adds about log q + 999.5 (q = 1/100 here), so
  // the score counts the canary steps K. T = 100 = one epoch: K = 1 always. T = 150:
  // one full epoch and half of one: K = 2 with probability 1/2. T = 30 of an epoch of
  // 100: K = 1 with probability 0.3.
  SubsampledGaussianGame g = game(1, 0.01, 100, 1e3);
  g.sampling = Sampling::shuffle;
  g.epoch_steps = 100;
  std::vector<double> in = of_label(play_subsampled_gaussian_game(g, 0, kTrials, 0), 1);
  CHECK(fraction_above(in, 500) == 1.0);
  CHECK(fraction_above(in, 1500) == 0.0);
  g.steps = 150;
  std::vector<double> scores = play_subsampled_gaussian_game(g, 0, kTrials, 0);
  in = of_label(scores, 1);
  CHECK(fraction_above(in, 500) == 1.0);
  CHECK(binomial_close(fraction_above(in, 1500), 0.5, kTrials));
  CHECK(fraction_above(in, 2500) == 0.0);
  CHECK(fraction_above(of_label(scores, 0), 500) == 0.0);
  g.steps = 30;
  CHECK(binomial_close(
      fraction_above(of_label(play_subsampled_gaussian_game(g, 0, kTrials, 0), 1), 500), 0.3,
      kTrials));
}

TEST_CASE("shuffle: the canary's slot is uniform within the epoch") {
  // T = 1 of an epoch of 7 steps: the slot is 0 with probability 1/7; 3 of 7 steps
  // (T = 3) hold it with probability 3/7. With score `sum` and z tiny, the score is
  // the signal when the canary is in.
  SubsampledGaussianGame g = game(1e-3, 1.0 / 7, 1, 1);
  g.sampling = Sampling::shuffle;
  g.epoch_steps = 7;
  g.score = WatermarkScore::sum;
  for (std::uint64_t steps : {1u, 3u}) {
    g.steps = steps;
    const std::vector<double> in = of_label(play_subsampled_gaussian_game(g, 0, kTrials, 0), 1);
    CHECK(binomial_close(fraction_above(in, 0.5), steps / 7.0, kTrials));
    CHECK(fraction_above(in, 1.5) == 0.0);
  }
}

TEST_CASE("games outside their ranges are refused") {
  const SubsampledGaussianGame ok = game(1, 0.01, 10);
  SubsampledGaussianGame g = ok;
  g.noise_multiplier = 0;
  CHECK_THROWS_AS(play_subsampled_gaussian_trial(g, 0, 0), std::invalid_argument);
  g.noise_multiplier = std::nan("");
  CHECK_THROWS_AS(play_subsampled_gaussian_game(g, 0, 1, 1), std::invalid_argument);
  g = ok;
  g.q = 1.5;
  CHECK_THROWS_AS(play_subsampled_gaussian_trial(g, 0, 0), std::invalid_argument);
  g = ok;
  g.signal = INFINITY;
  CHECK_THROWS_AS(play_subsampled_gaussian_trial(g, 0, 0), std::invalid_argument);
  g = ok;
  g.sampling = Sampling::shuffle;
  g.epoch_steps = 0;
  CHECK_THROWS_AS(play_subsampled_gaussian_trial(g, 0, 1), std::invalid_argument);
  g = ok;
  g.sampling = Sampling::without_replacement;  // the canary's steps are Poisson or shuffled
  CHECK_THROWS_AS(play_subsampled_gaussian_trial(g, 0, 1), std::invalid_argument);
  CHECK_THROWS_AS(play_subsampled_gaussian_trial(ok, 0, 2), std::invalid_argument);
  CHECK_THROWS_AS(play_subsampled_gaussian_trial(ok, std::uint64_t{1} << 63, 0),
                  std::invalid_argument);
  CHECK_THROWS_AS(play_subsampled_gaussian_game(ok, 5, 4, 1), std::invalid_argument);
  CHECK(play_subsampled_gaussian_game(ok, 4, 4, 1).empty());
}
