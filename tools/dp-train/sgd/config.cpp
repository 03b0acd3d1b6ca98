#include "sgd/config.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/names.hpp"
#include "core/trial_range.hpp"

namespace dpaudit::dp_train {

namespace {

constexpr std::size_t kMaxSteps = std::size_t{1} << 50;  // the simulated game's limit
constexpr std::size_t kMaxTrials =
    std::size_t{1} << 39;  // 2 i + label stays below streams::kSgdTarget - streams::kSgdTrial

constexpr Named<SgdThreat> kThreats[] = {{"api", SgdThreat::api},
                                         {"static-poison", SgdThreat::static_poison},
                                         {"intermediate-poison", SgdThreat::intermediate_poison},
                                         {"adaptive-poison", SgdThreat::adaptive_poison},
                                         {"gradient-canary", SgdThreat::gradient_canary},
                                         {"malicious-dataset", SgdThreat::malicious_dataset}};
constexpr Named<LossReduce> kReductions[] = {{"max", LossReduce::max}, {"mean", LossReduce::mean}};
constexpr Named<CraftSign> kCraftSigns[] = {{"descent", CraftSign::descent},
                                            {"printed", CraftSign::printed}};
constexpr Named<SgdFault> kFaults[] = {{"none", SgdFault::none},
                                       {"no-clip", SgdFault::no_clip},
                                       {"noise-ignores-clip", SgdFault::noise_ignores_clip},
                                       {"shuffle-as-poisson", SgdFault::shuffle_as_poisson}};
constexpr Named<SgdEngine> kEngines[] = {{"train", SgdEngine::train},
                                         {"simulate", SgdEngine::simulate}};

// The gradient watermark's settings (Crafters 4 and 5).
void validate_watermark(const SgdConfig& c) {
  if (c.watermark_coords < 2 || c.watermark_coords % 2)
    throw UsageError("the watermark needs an even number 2n >= 2 of coordinates",
                     "--watermark-coords");
  if (c.threat == SgdThreat::gradient_canary && c.observe_steps == 0)
    throw UsageError(
        "the gradient canary chooses its coordinates from the steps it observes: give at least 1 "
        "(with none it has no watermark and every trial scores the same)",
        "--observe-steps");
  if (c.threat == SgdThreat::gradient_canary && c.observe_steps >= c.steps)
    throw UsageError(
        "the adversary must observe fewer steps than the run has (" + std::to_string(c.steps) + ")",
        "--observe-steps");
  if (c.fault == SgdFault::no_clip && c.canary_norm <= 1)
    throw UsageError(
        "the fault no-clip changes nothing D3 sees at --canary-norm <= 1 (a watermark within the "
        "clip "
        "norm is never clipped): give --canary-norm above 1",
        "--fault");
}

}  // namespace

SgdThreat parse_threat(const std::string& name) {
  return parse_named(kThreats, name, "threat", "--threat");
}
LossReduce parse_reduce(const std::string& name) {
  return parse_named(kReductions, name, "reduction", "--reduce");
}
CraftSign parse_craft_sign(const std::string& name) {
  return parse_named(kCraftSigns, name, "sign", "--craft-sign");
}
SgdFault parse_fault(const std::string& name) {
  return parse_named(kFaults, name, "fault", "--fault");
}
SgdEngine parse_engine(const std::string& name) {
  return parse_named(kEngines, name, "engine", "--engine");
}
std::string to_string(SgdThreat t) {
  return name_of(kThreats, t);
}
std::string to_string(SgdFault f) {
  return name_of(kFaults, f);
}

void SgdConfig::validate() const {
  if (train_size == 0) throw UsageError("the train size must be >= 1", "--train-size");
  if (sampling == Sampling::poisson && !(q > 0 && q <= 1))
    throw UsageError("the sampling rate q must lie in (0, 1]", "--q");
  if (by_epochs(sampling) && (batch == 0 || batch > train_size))
    throw UsageError(sampling == Sampling::shuffle
                         ? "shuffled lots need a lot size B in [1, --train-size]"
                         : "balls-in-bins lots need a lot size B in [1, --train-size]",
                     "--batch");
  if (fault == SgdFault::shuffle_as_poisson && sampling != Sampling::poisson)
    throw UsageError(
        "the fault shuffle-as-poisson needs --sampling poisson (it shuffles in its place)",
        "--fault");
  if (steps == 0) throw UsageError("the number of steps must be >= 1", "--steps");
  if (steps > kMaxSteps)
    throw UsageError("at most 2^50 steps (the games' random streams)", "--steps");
  if (trials == 0) throw UsageError("the number of trials must be >= 1", "--trials");
  if (trials > kMaxTrials)
    throw UsageError("at most 2^39 trials (the trials' random streams)", "--trials");
  // The trainer computes in single precision (about 3.4e38): the clip norm and the
  // watermark's norm must be floats with room for sums.
  if (!(clip >= 1e-30 && clip <= 1e30))
    throw UsageError("the clip norm must lie in [1e-30, 1e30]", "--clip");
  if (!(canary_norm * clip <= 1e30))
    throw UsageError("the watermark's norm, --canary-norm times --clip, must be at most 1e30",
                     "--canary-norm");
  // Settings under which the audit is blind.
  if (lr == 0 && !uses_watermark(threat))
    throw UsageError(
        "at learning rate 0 the model never moves, so every trial scores the same: give --lr > 0",
        "--lr");
  check_trial_range({first_trial, last_trial}, trials);
  if (crafts_input(threat)) {
    if (shadow_models == 0)
      throw UsageError("the crafter needs at least one shadow model", "--shadow-models");
    if (model == "cnn")
      throw UsageError(
          "crafting inputs needs a dense model's differentiable path: logreg or mlp, not cnn",
          "--model");
  }
  if (uses_watermark(threat)) validate_watermark(*this);
  if (fault == SgdFault::noise_ignores_clip && clip == 1)
    throw UsageError(
        "the fault noise-ignores-clip changes nothing at --clip 1 (noise sd z equals z C): give "
        "another "
        "--clip",
        "--fault");
  if (fault == SgdFault::shuffle_as_poisson && q == 1)
    throw UsageError(
        "the fault shuffle-as-poisson changes nothing at --q 1 (every lot is the whole data set "
        "either "
        "way): give --q below 1",
        "--fault");
  if (engine == SgdEngine::simulate && threat != SgdThreat::malicious_dataset)
    throw UsageError("only the malicious-dataset game reduces to the simulated 1-D game",
                     "--engine");
  if (score == WatermarkScore::epoch_max && threat != SgdThreat::malicious_dataset)
    throw UsageError(
        "the epoch-max score reads every step's epoch from step 0: only with the "
        "malicious-dataset threat (gradient-canary spends its first steps choosing coordinates)",
        "--score");
}

void SgdConfig::check_arithmetic(double sigma) const {
  // D3's llr and paper scores divide by z^2 each step (adversaries/watermark.hpp).
  if (uses_watermark(threat) && score != WatermarkScore::sum &&
      !(static_cast<double>(steps) / (sigma * sigma) < 1e300))
    throw DataError("at noise multiplier z = " + format_number(sigma) + " D3's " +
                        to_string(score) + " score, of order 1/z^2 per step, overflows a double: " +
                        (eps > 0 ? "lower --eps" : "raise --noise-multiplier"),
                    noise_option());
  if (engine == SgdEngine::simulate) return;
  // The trainer's update, (clipped sum + noise of sd z C) / (q N), is a float.
  if (!(sigma * clip < 1e30))
    throw DataError("the noise's standard deviation z C = " + format_number(sigma * clip) +
                        " overflows the trainer's single precision: " +
                        (eps > 0 ? "raise --eps" : "lower --noise-multiplier"),
                    noise_option());
  const double update = clip * std::max(1.0, sigma) / expected_lot();
  if (!(update < 1e30))
    throw DataError("an update, C max(1, z) / (q N) = " + format_number(update) +
                        ", overflows the trainer's single precision: the expected lot q N = " +
                        format_number(expected_lot()) + " is too small",
                    lot_option());
}

void SgdConfig::check_scores(double sigma, std::size_t trial, const double* scores,
                             std::size_t n) const {
  const double* bad =
      std::find_if(scores, scores + 2 * n, [](double v) { return !std::isfinite(v); });
  if (bad == scores + 2 * n) return;
  const std::string what = "the distinguisher's score is " + format_number(*bad) + " in trial " +
                           std::to_string(trial + static_cast<std::size_t>(bad - scores) / 2);
  if (engine == SgdEngine::train && lr > 0)
    // The lr scales every update, noise included: a step so large that the logits overflow.
    throw DataError(what + ": training diverged, each step adding noise of sd lr z C / (q N) = " +
                        format_number(lr * sigma * clip / expected_lot()) +
                        " to every parameter; lower --lr, " +
                        (eps > 0 ? "raise --eps" : "lower --noise-multiplier") + " or raise " +
                        lot_option(),
                    "--lr");
  throw DataError(
      what + ": D3's per-step statistic overflows a double at z = " + format_number(sigma) +
          ", --clip " + format_number(clip) + " and --canary-norm " + format_number(canary_norm),
      noise_option());
}

std::string SgdConfig::lot_option() const {
  return by_epochs(sampling) ? "--batch" : "--q";
}
std::string SgdConfig::noise_option() const {
  return eps > 0 ? "--eps" : "--noise-multiplier";
}

Json SgdConfig::to_json() const {
  Json j = {{"threat", to_string(threat)},
            {"task", task},
            {"model", model},
            {"train_size", train_size},
            {"sampling", name_of(kSamplingNames, sampling)},
            {"q", json_number(sampling_rate())},
            {"expected_lot", json_number(expected_lot())},
            {"steps", steps},
            {"lr", json_number(lr)},
            {"clip", json_number(clip)},
            {"delta", json_number(delta)},
            {"trials", trials},
            {"trial_range", {first_trial, last_trial}},
            {"engine", name_of(kEngines, engine)},
            {"fault", to_string(fault)},
            {"seed", seed}};
  if (model == "mlp") j["hidden"] = hidden;
  if (crafts_input(threat)) {
    j["shadow_models"] = shadow_models;
    j["craft_steps"] = craft_steps;
    j["craft_lr"] = json_number(craft_lr);
  }
  if (threat == SgdThreat::adaptive_poison) {
    j["adaptive_steps"] = adaptive_steps;
    j["adaptive_lr"] = json_number(adaptive_lr);
    j["craft_sign"] = name_of(kCraftSigns, craft_sign);
  }
  if (reads_intermediate_losses(threat)) j["reduce"] = name_of(kReductions, reduce);
  if (threat == SgdThreat::gradient_canary || threat == SgdThreat::malicious_dataset) {
    j["watermark_coords"] = watermark_coords;
    if (threat == SgdThreat::gradient_canary) j["observe_steps"] = observe_steps;
    j["canary_norm"] = json_number(canary_norm);
    j["score"] = to_string(score);
  }
  return j;
}

}  // namespace dpaudit::dp_train
