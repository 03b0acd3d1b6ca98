#include "stats/sequential_audit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "random/multiversion.hpp"
#include "stats/roc.hpp"

namespace dpaudit {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kMaxGrid = 100000;
// Score games stop storing trials for relearning past this many (the thresholds then stay).
constexpr std::size_t kMaxStored = std::size_t{1} << 22;
// E_t must exceed 1/alpha by this relative margin: it covers the rounding of a product of
// up to 10^9 factors (each multiplication is off by at most 2^-53 relatively).
constexpr double kRoundingMargin = 1e-6;
// Grid points bet once the first uncrossed one is within this distance below them.
constexpr double kWindow = 2.0;

void check(const SequentialOptions& o) {
  if (!(o.alpha > 0 && o.alpha < 1)) throw UsageError("alpha must be in (0,1)");
  if (!(o.delta >= 0 && o.delta < 1)) throw UsageError("delta must be in [0,1)");
  if (!(o.eps_step > 0 && std::isfinite(o.eps_step)))
    throw UsageError("the epsilon grid's step must be positive");
  if (!(o.eps_max >= o.eps_step && std::isfinite(o.eps_max)))
    throw UsageError("the epsilon grid's end must be at least its step");
  if (o.eps_max / o.eps_step >= static_cast<double>(kMaxGrid))
    throw UsageError(
        "the epsilon grid has more than 100000 points (a larger step or a smaller end)");
  if (o.warmup == 0) throw UsageError("the warm-up must be at least one trial");
}

// The upper concave hull of the ROC points (false positives, true positives) with the rule
// that says "in" for nothing (threshold +inf) first: its vertices, and the slope of the edge
// after each (the last has none).
struct RocHull {
  std::vector<OperatingPoint> vertices;
  std::vector<double> slopes;  // strictly decreasing; +inf for a vertical edge

  // The vertex maximizing TP - r FP: the first whose next edge is no steeper than r.
  const OperatingPoint& best(double r) const {
    const auto k =
        std::partition_point(slopes.begin(), slopes.end(), [r](double s) { return s > r; }) -
        slopes.begin();
    return vertices[static_cast<std::size_t>(k)];
  }
};

double slope(const OperatingPoint& a, const OperatingPoint& b) {
  const double dy = static_cast<double>(b.true_positives) - static_cast<double>(a.true_positives);
  const double dx = static_cast<double>(b.false_positives) - static_cast<double>(a.false_positives);
  return dx == 0 ? kInf : dy / dx;
}

RocHull roc_hull(const RocSweep& sweep) {
  RocHull h;
  h.vertices.push_back({kInf, 0, 0});
  for (const OperatingPoint& p : sweep.points) {
    // Drop the last vertex while it lies on or below the chord from the one before it to p.
    while (h.vertices.size() >= 2) {
      const OperatingPoint& a = h.vertices[h.vertices.size() - 2];
      const OperatingPoint& b = h.vertices.back();
      if (slope(a, b) > slope(b, p)) break;
      h.vertices.pop_back();
    }
    h.vertices.push_back(p);
  }
  for (std::size_t k = 0; k + 1 < h.vertices.size(); ++k)
    h.slopes.push_back(slope(h.vertices[k], h.vertices[k + 1]));
  return h;
}

// Grid point j: j / m when the step is 1/m for a whole m (so 0.01's points print as 3.01, not
// as 301 * 0.01 = 3.0100000000000002), else j * step.
double grid_point(std::size_t j, double step) {
  const double m = std::round(1 / step);
  if (m >= 1 && std::abs(1 / step - m) < 1e-9) return static_cast<double>(j) / m;
  return static_cast<double>(j) * step;
}

}  // namespace

SequentialAudit::SequentialAudit(SequentialInput input, const SequentialOptions& options)
    : input_(input),
      options_((check(options), options)),
      grid_(static_cast<std::size_t>(std::floor(options.eps_max / options.eps_step + 1e-9)) + 1),
      plus_(grid_.size()),
      minus_(grid_.size()),
      tau_plus_(grid_.size(), kInf),
      tau_minus_(grid_.size(), -kInf),
      next_relearn_(options.warmup),
      crossed_(grid_.size(), 0),
      g_plus_(grid_.size()),
      g_minus_(grid_.size()) {
  // A hit scores s (1 for a score game's pair, 2 for a decision game, whose trial is one of
  // the two worlds by a fair coin); X = s a - e^eps s b - delta over its largest loss.
  const double s = input == SequentialInput::decisions ? 2.0 : 1.0;
  for (auto* v : {&g00_, &g01_, &g10_, &g11_}) v->resize(grid_.size());
  const double d = options_.delta;
  for (std::size_t j = 0; j < grid_.size(); ++j) {
    grid_[j] = grid_point(j, options_.eps_step);
    const double r = std::exp(grid_[j]);
    const double loss = s * r + d;
    g00_[j] = -d / loss;
    g01_[j] = (-r * s - d) / loss;
    g10_[j] = (s - d) / loss;
    g11_[j] = (s - r * s - d) / loss;
  }
}

void SequentialAudit::add_decision(bool label, bool guess) {
  if (input_ != SequentialInput::decisions)
    throw UsageError("a decision given to a score game's sequential audit");
  ++trials_;
  // + : the rule "guess 1" against the first world; - : "guess 0" against the second.
  decision_outcomes(active_end(), label, guess);
  settle();
}

// Every load is made and the outcome selected from the values, so the loops vectorize (they
// only copy values: every instruction set gives the same bits).
DPAUDIT_MULTIVERSION
void SequentialAudit::decision_outcomes(std::size_t end, bool label, bool guess) {
  // + : the rule "guess 1" against the first world; - : "guess 0" against the second.
  const bool a = label && guess, b = !label && guess;
  const bool am = !label && !guess, bm = label && !guess;
  const std::size_t f = frontier_;
  for (std::size_t j = f; j < end; ++j) {
    const double v00 = g00_[j], v01 = g01_[j], v10 = g10_[j], v11 = g11_[j];
    g_plus_[j - f] = a ? (b ? v11 : v10) : (b ? v01 : v00);
    g_minus_[j - f] = am ? (bm ? v11 : v10) : (bm ? v01 : v00);
  }
}

DPAUDIT_MULTIVERSION
void SequentialAudit::pair_outcomes(std::size_t end, double in_score, double out_score) {
  const std::size_t f = frontier_, n = end - f;
  const double *v00 = g00_.data() + f, *v01 = g01_.data() + f, *v10 = g10_.data() + f,
               *v11 = g11_.data() + f, *tp = tau_plus_.data() + f, *tm = tau_minus_.data() + f;
  double* __restrict plus = g_plus_.data();
  double* __restrict minus = g_minus_.data();
  // + : "in when score >= tau" against the first world; - : "score < tau'" against the second.
  for (std::size_t k = 0; k < n; ++k) {
    const double up = tp[k];
    const double hit = out_score >= up ? v11[k] : v10[k], miss = out_score >= up ? v01[k] : v00[k];
    plus[k] = in_score >= up ? hit : miss;
  }
  for (std::size_t k = 0; k < n; ++k) {
    const double down = tm[k];
    const double hit = in_score < down ? v11[k] : v10[k], miss = in_score < down ? v01[k] : v00[k];
    minus[k] = out_score < down ? hit : miss;
  }
}

void SequentialAudit::add_pair(double in_score, double out_score) {
  if (input_ != SequentialInput::score_pairs)
    throw UsageError("a score pair given to a decision game's sequential audit");
  if (std::isnan(in_score) || std::isnan(out_score)) throw DataError("a score is NaN");
  ++trials_;
  if (trials_ > options_.warmup) {
    pair_outcomes(active_end(), in_score, out_score);
    settle();
  }
  if (in_seen_.size() < kMaxStored) {
    in_seen_.push_back(in_score);
    out_seen_.push_back(out_score);
  }
  if (trials_ == next_relearn_ && trials_ <= kMaxStored) {
    relearn_thresholds();
    next_relearn_ *= 2;
  }
}

// Each grid point's two rules, from every trial so far (so the next trial's bet depends on the
// past only): the ROC hull's vertex maximizing TP - e^eps FP (rule +, "in when score >=
// tau"), and the one maximizing (out below) - e^eps (in below), i.e. TP - e^-eps FP (rule -,
// "the second world when score < tau").
void SequentialAudit::relearn_thresholds() {
  std::vector<double> in_sorted = in_seen_, out_sorted = out_seen_;
  std::sort(in_sorted.begin(), in_sorted.end());
  std::sort(out_sorted.begin(), out_sorted.end());
  const RocHull hull = roc_hull(roc_sweep(in_sorted, out_sorted));
  for (std::size_t j = 0; j < grid_.size(); ++j) {
    tau_plus_[j] = hull.best(std::exp(grid_[j])).threshold;
    tau_minus_[j] = hull.best(std::exp(-grid_[j])).threshold;
  }
}

// The grid points that bet: from the first uncrossed one to kWindow above it.
std::size_t SequentialAudit::active_end() const {
  const double reach =
      (static_cast<double>(frontier_) * options_.eps_step + kWindow) / options_.eps_step;
  return std::min(grid_.size(), static_cast<std::size_t>(reach) + 1);
}

void SequentialAudit::settle() {
  const std::size_t end = active_end();
  plus_.bet(frontier_, end, g_plus_.data());
  minus_.bet(frontier_, end, g_minus_.data());
  const double level = 2.0 / options_.alpha * (1 + kRoundingMargin);  // E = (W+ + W-) / 2
  plus_.mark_crossed(minus_, frontier_, end, level, crossed_.data());
  const std::size_t before = frontier_;
  while (frontier_ < grid_.size() && crossed_[frontier_]) ++frontier_;
  if (frontier_ > before && frontier_ >= 2) last_rise_ = trials_;
}

double SequentialAudit::eps_lo() const {
  return frontier_ >= 2 ? grid_[frontier_ - 1] : 0.0;
}

double SequentialAudit::frontier_log_evidence() const {
  if (frontier_ == grid_.size()) return kInf;
  const double lp = plus_.log_wealth(frontier_), lm = minus_.log_wealth(frontier_);
  const double hi = std::max(lp, lm);
  return hi + std::log1p(std::exp(std::min(lp, lm) - hi)) - std::log(2.0);
}

double SequentialAudit::frontier_eps() const {
  return frontier_ == grid_.size() ? grid_.back() : grid_[frontier_];
}

}  // namespace dpaudit
