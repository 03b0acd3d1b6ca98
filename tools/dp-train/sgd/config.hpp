// Configuration of `dp-train sgd`: central DP-SGD (Abadi et al. 2016) and 004's
// distinguishing game played on it (Nasr et al. 2021, Sec. III-IV), as parsed from the
// command line and reported by --json. No LibTorch here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "games/subsampled_gaussian_game.hpp"
#include "games/watermark.hpp"
#include "io/json.hpp"

namespace dpaudit::dp_train {

// 004 Table I: what the adversary inserts and what the distinguisher sees.
enum class SgdThreat {
  api,                  // C1/D1: a natural example; the final model's loss on it
  static_poison,        // C2/D1: an input crafted on shadow models; the final model's loss on it
  intermediate_poison,  // C2/D2: the same input; its loss over every intermediate model
  adaptive_poison,      // C3/D2: a fresh poison every step; a query's loss over every model
  gradient_canary,      // C4/D3: a gradient watermark; every intermediate model
  malicious_dataset,    // C5/D3: the watermark, a crafted dataset and learning rate 0
};
// D2 (004 Sec. IV-C): how the losses over the intermediate models become one number.
enum class LossReduce { max, mean };
// C3's step on the poison: descent on the query's loss after the virtual step (what the
// text says it is for), or the ascent Crafter 3 prints.
enum class CraftSign { descent, printed };
enum class LotSampling { poisson, shuffle };
// Realistic implementation bugs a CI privacy gate must catch (none by default).
enum class SgdFault {
  none,
  no_clip,             // per-example gradients are never clipped
  noise_ignores_clip,  // the noise has sd z, not z C (the same when C = 1)
  shuffle_as_poisson,  // lots are shuffled fixed-size batches; the accountant assumes Poisson
};
// malicious-dataset only: train for real, or play the equivalent 1-D game
// (games/subsampled_gaussian_game.hpp).
enum class SgdEngine { train, simulate };

SgdThreat parse_threat(const std::string& name);      // UsageError naming --threat
LotSampling parse_sampling(const std::string& name);  // --sampling
SgdFault parse_fault(const std::string& name);        // --fault
SgdEngine parse_engine(const std::string& name);      // --engine
LossReduce parse_reduce(const std::string& name);     // --reduce
CraftSign parse_craft_sign(const std::string& name);  // --craft-sign
std::string to_string(SgdThreat t);
// The threats whose adversary crafts an input (C2, C3) and so trains shadow models.
bool crafts_input(SgdThreat t);
// The threats whose distinguisher reads every intermediate model's loss (D2).
bool reads_intermediate_losses(SgdThreat t);
// The threats whose canary is the gradient watermark and whose distinguisher is D3 (C4, C5).
bool uses_watermark(SgdThreat t);
std::string to_string(SgdFault f);

struct SgdConfig {
  // data and model
  std::string task = "fashion-mnist";
  std::string data_dir;
  std::string model = "mlp";
  std::int64_t hidden = 32;  // 004's reduced setting (spec B.5): 784-32-10
  std::size_t train_size =
      1000;  // the first N training examples (malicious-dataset: N crafted inputs)
  // DP-SGD
  LotSampling sampling = LotSampling::poisson;
  double q = 0.1;         // Poisson rate; shuffle: batch / train_size
  std::size_t batch = 0;  // shuffle: lot size B
  std::size_t steps = 100;
  double lr = 0.15;  // 004 App. A (MNIST, CIFAR-10)
  double clip = 1.0;
  double noise_multiplier = 0;  // z; 0 with eps > 0: calibrated
  double eps = 0;
  double delta = 1e-5;
  // the game
  SgdThreat threat = SgdThreat::api;
  std::size_t trials = 1;       // per hypothesis
  std::size_t first_trial = 0;  // --trial-range A:B
  std::size_t last_trial = 0;
  std::size_t watermark_coords = 2;  // 2n coordinates of C4's watermark
  std::size_t observe_steps = 10;    // t_o: steps C4 watches before choosing them (C5 needs none)
  double canary_norm = 10;           // the watermark's norm before clipping, in units of C
  WatermarkScore score = WatermarkScore::llr;
  // C2 (004 Sec. IV-B): shadow models trained like the target on D_shadow (the next N
  // training examples), then normalised gradient ascent on the input.
  std::size_t shadow_models = 8;
  std::size_t craft_steps = 100;
  double craft_lr = 0.5;  // L2 length of each ascent step (pixels in [0, 1])
  // C3 (Sec. IV-D): a poison re-crafted from 0 against theta_t whenever it is drawn.
  std::size_t adaptive_steps = 10;
  double adaptive_lr = 1;  // L2 length of each step
  CraftSign craft_sign = CraftSign::descent;
  LossReduce reduce = LossReduce::max;  // D2
  SgdEngine engine = SgdEngine::train;
  SgdFault fault = SgdFault::none;
  std::uint64_t seed = 1;
  int threads = 0;
  bool quiet = false;

  // Throws UsageError for an inconsistent configuration (before any work), and for one
  // that makes the audit blind: every score the same, or a --fault that changes nothing
  // the distinguisher sees.
  void validate() const;
  // Throws DataError when the run at noise multiplier `sigma` cannot give finite scores:
  // the trainer's single-precision update or D3's per-step statistic (of order 1/z^2)
  // would overflow. Names the option to change.
  void check_arithmetic(double sigma) const;
  // The lot size the update is divided by: q N (Poisson) or B (shuffle).
  double expected_lot() const;
  // The rate the accountant assumes per step: q (Poisson) or B / N (shuffle).
  double sampling_rate() const;
  // Steps per epoch of shuffled lots: ceil(N / B).
  std::size_t epoch_steps() const;
  // The option that sets the lot size: --q (Poisson) or --batch (shuffle); and the one
  // that sets the noise: --eps when z is calibrated, else --noise-multiplier.
  std::string lot_option() const;
  std::string noise_option() const;
  Json to_json() const;
};

}  // namespace dpaudit::dp_train
