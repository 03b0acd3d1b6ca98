// Nasr et al. 2021's distinguishing game on DP-SGD (Sec. III), played many times:
// trial i trains one model on D (label 0) and one on D' = D plus the adversary's
// member (label 1), each from its own Philox stream (streams::kSgdTrial + 2 i + label), and
// the distinguisher scores each, higher meaning "trained on D'". A trial is a pure
// function of (the seed, i, the configuration): shards concatenate to the whole run. The
// adversaries (Crafters C1-C5, Distinguishers D1-D3) are in lib/adversaries.
//   api                C1/D1: a test example; score = -loss of the final model on it
//   static-poison      C2/D1: an input crafted on shadow models; the same
//   intermediate-poison C2/D2: the same input; score = -(max or mean) of its loss over
//                      the intermediate models theta_1 .. theta_T
//   adaptive-poison    C3/D2: a poison re-crafted against theta_t whenever it is drawn;
//                      D2 on C2's input as the query, which is never inserted
//   gradient-canary    C4/D3: after watching the first t_o steps, a watermark on the 2n
//                      coordinates that moved least; score = sum_t watermark_step_score
//                      of the update's normalised projection (adversaries/watermark.hpp)
//   malicious-dataset  C5/D3: D = N uniform random inputs labelled by the initial model's
//                      predictions, learning rate 0, then C4/D3; or, with the simulate
//                      engine, the 1-D game it reduces to (Sec. IV-G)
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "games/sgd_game_config.hpp"

namespace dpaudit {

struct SgdGameResult {
  std::size_t trials = 0;     // delivered: all of them, unless the sink stopped the game
  double test_accuracy = -1;  // mean over the evaluated models on D (-1: none, or simulated)
  std::size_t evaluated = 0;
  std::size_t parameters = 0;
  double seconds = 0;
  double setup_seconds = 0;         // data, initial model and, for C2, shadow models and crafting
  double crafted_initial_loss = 0;  // C2: mean shadow loss at the start ...
  double crafted_final_loss = 0;    // ... and at the crafted input
  std::size_t crafts = 0;           // C3: poisons crafted over all trials
  double craft_seconds = 0;         // ... and the CPU seconds they took (summed over threads)
};

// Receives trials first_trial + begin .. + begin + n - 1 in trial order, as soon as they and
// every trial before them are done: scores[2j] on D, scores[2j + 1] on D' of trial
// first_trial + begin + j. Returning false stops the game: no trial starts after it, the
// ones in flight are dropped. Called from one thread at a time.
using SgdScoreSink = std::function<bool(std::size_t begin, const double* scores, std::size_t n)>;

// Plays trials [first_trial, last_trial) at noise multiplier `sigma` over config.threads
// (each taking the next trial as it finishes one; core/ordered_parallel.hpp), handing each
// trial's scores to `sink` in order; `evaluate` models (the first trials' models on D) are
// also scored on the test set. `progress` gets the number of trials delivered. A score may
// come out NaN or infinite (training diverged, or D3's statistic overflowed): the sink
// checks.
SgdGameResult play_sgd_game(const SgdGameConfig& config, double sigma, std::size_t evaluate,
                            const SgdScoreSink& sink,
                            const std::function<void(std::size_t)>& progress = {});

}  // namespace dpaudit
