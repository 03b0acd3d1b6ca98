// Nasr et al. 2021's malicious-dataset game (Crafter 5 and Distinguisher 3, Sec. IV-F) reduced to
// one dimension, simulated exactly. With learning rate 0 and a dataset whose gradients vanish on
// the watermark's coordinates, D3's normalised statistic of step t is
//   d_t = included_t * signal + noise_scale z N_t,   N_t ~ N(0, 1) independent,
// where included_t says whether the canary (the watermark gradient, norm C) is in step
// t's lot: never under D (label 0); under D' (label 1) with probability q each step
// (Poisson) or once per epoch (shuffle). This is the 1-D problem of Sec. IV-G: each
// step a subsampled Gaussian mechanism of sensitivity 1 and noise z, so the game's
// trade-off curve is that of the RDP/PLD analysis of DP-SGD, and its empirical epsilon
// should approach the analytic one (Fig. 8: eps 4 -> 3.6).
#pragma once
#include <cstdint>
#include <vector>

#include "adversaries/watermark.hpp"
#include "core/sampling.hpp"

namespace dpaudit {

struct SubsampledGaussianGame {
  double noise_multiplier = 1;  // z > 0: each step's normalised statistic has noise N(0, z^2)
  double q = 0.01;              // Poisson: P(canary in a step's lot), in [0, 1]
  std::uint64_t steps = 100;    // T observed steps
  double signal = 1;            // the canary's contribution in units of the clip norm C (1 for
                                // a correct trainer; larger when a fault lets an unclipped
                                // gradient through)
  double noise_scale = 1;       // the noise drawn, in units of z: 1 for a correct trainer; 1/C
                                // when a fault draws sd z instead of z C (the distinguisher
                                // still assumes z)
  // shuffle: the canary is in exactly one step of each epoch of `epoch_steps` steps,
  // uniformly placed (a trainer that shuffles while its accountant assumes Poisson).
  // Every epoch, the last one included, draws its slot uniformly among epoch_steps
  // slots, so when steps is not a multiple of epoch_steps the partial last epoch of
  // len steps holds the canary with probability len / epoch_steps (the trainer's
  // epoch is cut by the end of training).
  Sampling sampling = Sampling::poisson;  // poisson, or by epochs (shuffle, balls-in-bins: alike)
  std::uint64_t epoch_steps = 100;        // >= 1, for shuffle and epoch_max
  // The distinguisher's statistic (adversaries/watermark.hpp's WatermarkScorer): per step,
  // summed over the steps, with q and z as the Poisson model says, whatever the sampling;
  // or epoch_max over epochs of epoch_steps steps (the test of shuffled lots).
  WatermarkScore score = WatermarkScore::llr;
  std::uint64_t seed = 0;
};

// D3's score of trial `trial` under hypothesis `label` (0: D, 1: D' with the canary), a
// pure function of (game, trial, label). Its randomness is Philox stream
// 2 * trial + label under key derive_seed(seed, 0x736767616d65) ("sggame" in ASCII):
//   normal number t of the stream (words [0, T), ziggurat retries in its sub-streams)
//     is N_t;
//   from word T on, label 1 only: Poisson: U_t = uniform_from_words(word T + 2t,
//     word T + 2t + 1), included_t = U_t < q; shuffle: epoch e's slot is the e-th
//     accepted 64-bit word x (low word first) taken as x mod epoch_steps, a word being
//     accepted when x >= 2^64 mod epoch_steps (exactly uniform).
// Throws std::invalid_argument for a game outside the ranges above, steps > 2^50,
// trial >= 2^63 or a label other than 0 and 1.
double play_subsampled_gaussian_trial(const SubsampledGaussianGame& g, std::uint64_t trial,
                                      int label);

// Trials [first, last): scores[2 * (i - first) + label], computed in parallel over
// `threads` (0 = all cores); byte-identical whatever the thread count.
std::vector<double> play_subsampled_gaussian_game(const SubsampledGaussianGame& g,
                                                  std::uint64_t first, std::uint64_t last,
                                                  int threads);

}  // namespace dpaudit
