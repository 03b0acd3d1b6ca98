// Testing by betting (Shafer 2021; Waudby-Smith & Ramdas 2023): a gambler starts with wealth
// 1 and before trial t stakes a fraction lambda_t in [0, 1/2] of it on an outcome g_t in
// [-1, 1], W_t = prod_{i <= t} (1 + lambda_i g_i). When every g_t has conditional mean <= 0
// given the past (the null) and lambda_t depends on the past only, W is a nonnegative
// supermartingale, and Ville's inequality gives P(sup_t W_t >= 1/alpha) <= alpha: the test
// "reject once W reaches 1/alpha" has level alpha however often, and whenever, one looks.
//
// The fractions follow online Newton step on the log wealth (Cutkosky & Orabona 2018, "Black-
// box reductions for parameter-free online learning in Banach spaces"; the betting form of
// Shekhar & Ramdas 2023, "Nonparametric two-sample testing by betting", Alg. 1):
//   z_t = g_t / (1 + lambda_t g_t),  A_t = 1 + sum_{i <= t} z_i^2,
//   lambda_{t+1} = clip(lambda_t + 2 / (2 - ln 3) * z_t / A_t, 0, 1/2),
// which grows the wealth at nearly the rate of the best constant fraction in hindsight. The
// fraction stays in [0, 1/2], so every factor is at least 1/2 and the bet is one-sided: it
// gains only when the outcomes' mean is positive.
//
// BettingLanes runs many such gamblers side by side (one per lane), each on its own outcome
// sequence; the arithmetic is IEEE double in a fixed order, so the same outcomes give the
// same wealth bit for bit on every machine.
#pragma once
#include <cstddef>
#include <vector>

namespace dpaudit {

class BettingLanes {
 public:
  explicit BettingLanes(std::size_t lanes);

  // One trial for lanes [begin, end): lane j bets on outcome g[j - begin] in [-1, 1].
  void bet(std::size_t begin, std::size_t end, const double* g);

  // crossed[j] |= (W_t of lane j here + W_t of lane j in `other` >= level), for j in [begin, end).
  void mark_crossed(const BettingLanes& other, std::size_t begin, std::size_t end, double level,
                    char* crossed) const;

  // W_t of lane j; 0 once it is below 2^-1000 (far below any level a test uses).
  double wealth(std::size_t j) const { return w_[j] * scale_[j]; }
  // ln W_t of lane j (exact to rounding, however small).
  double log_wealth(std::size_t j) const;
  // The fraction lane j stakes on its next trial.
  double fraction(std::size_t j) const { return lambda_[j]; }
  std::size_t size() const { return w_.size(); }

 private:
  void rescale();

  // Wealth is w_[j] * 2^exponent_[j], scale_[j] = 2^exponent_[j] (0 below 2^-1000): w_ is
  // brought back to [1/2, 1) whenever it leaves [2^-64, 2^64], checked every 32 trials (a
  // factor lies in [1/2, 3/2], so 32 trials move it by less than 2^19 either way).
  std::vector<double> lambda_, sum_z2_, w_, scale_;
  std::vector<long> exponent_;
  std::size_t since_rescale_ = 0;
};

}  // namespace dpaudit
