// An anytime-valid lower bound on epsilon from a stream of independent trials of a
// distinguishing game: valid at every trial count at once, so an audit may look after every
// trial and stop whenever it likes (a CI gate that stops as soon as it has caught a leak).
//
// The test. An (eps, delta)-DP mechanism bounds every decision rule R and both neighbours:
// P(M(D) in R) <= e^eps P(M(D') in R) + delta (Dwork & Roth 2014, Def. 2.4). Trial i of a score
// game gives one score of a model trained with the canary (label 1) and one without (label 0);
// a threshold rule tau_i learned from trials before i alone turns them into
// a_i = 1[in score >= tau_i] and b_i = 1[out score >= tau_i], and under (eps, delta)-DP
//   X_i(eps) = a_i - e^eps b_i - delta   has conditional mean <= 0 given trials 1..i-1,
// the same for the mirrored rule (a_i = 1[out score < tau'_i], b_i = 1[in score < tau'_i]:
// the roles of D and D' swapped). A decision game's trial (label, guess), its label a fair
// coin (dp-train ldp's), gives a_i = 2 [label 1, guess 1] and b_i = 2 [label 0, guess 1]
// (and mirrored 2 [label 0, guess 0], 2 [label 1, guess 0]), whose means are TPR and FPR.
// Each X_i(eps), divided by its largest loss (e^eps + delta, or 2 e^eps + delta), is an
// outcome in [-1, 1] with mean <= 0 under the null "M is (eps, delta)-DP", and a betting
// e-process (stats/betting.hpp) per direction bets on it; their average
// E_t(eps) = (W+_t(eps) + W-_t(eps)) / 2 is again a nonnegative supermartingale under that
// null, so P(sup_t E_t(eps) >= 1/alpha) <= alpha (Ville's inequality).
//
// Sharing evidence across eps: the e-processes run on a fixed grid 0 = e_0 < e_1 < ... < e_J
// (each with its own learned thresholds and fractions); grid point e_j is "crossed" once
// E_t(e_j) has reached 1/alpha at some t. The bound is eps_lo(t) = e_{k-1} for the first
// uncrossed point e_k (0 when k <= 1). It is valid at every t simultaneously: if M were
// (eps', delta)-DP for some eps' <= eps_lo(t), let e_j be the first grid point >= eps'; then
// e_j <= eps_lo(t) was crossed although M is (e_j, delta)-DP, an event of probability at most
// alpha for that single e_j. No correction for the size of the grid is needed, because only
// one grid point carries the proof; the grid costs resolution only (eps_lo is a grid point).
// Points below the first uncrossed one no longer bet, nor do those more than 2 above it (they
// start, at wealth 1, once it comes within 2 of them): betting nothing is a predictable bet,
// so validity is untouched, and the cost in evidence is small because the first uncrossed
// point rises only as fast as the evidence grows (tests/unit/test_sequential_audit.cpp).
//
// Assumptions, stated by every caller: trials are independent (each trains fresh models); a
// decision game's labels are fair coins independent of everything else.
#pragma once
#include <cstddef>
#include <vector>

#include "stats/betting.hpp"

namespace dpaudit {

struct SequentialOptions {
  double alpha = 0.05;  // the bound holds with probability >= 1 - alpha, at all t at once
  double delta = 0;
  double eps_step = 0.01;  // the grid's spacing, from 0
  double eps_max = 10;     // its last point
  // Score games: trials observed before the first threshold is learned; the thresholds are
  // learned again each time the trial count doubles (from every trial so far).
  std::size_t warmup = 16;
};

enum class SequentialInput { score_pairs, decisions };

class SequentialAudit {
 public:
  // Throws UsageError unless 0 < alpha < 1, 0 <= delta < 1, eps_step > 0, eps_max >= eps_step
  // and the grid has at most 100,000 points.
  SequentialAudit(SequentialInput input, const SequentialOptions& options);

  // One trial of a score game: the score of the model with the canary and of the one without.
  void add_pair(double in_score, double out_score);
  // One trial of a decision game: its label (1 = the first world) and the guess.
  void add_decision(bool label, bool guess);

  // The anytime-valid lower bound after the trials so far (a grid point).
  double eps_lo() const;
  std::size_t trials() const { return trials_; }
  // The trial at which eps_lo last grew (0 when it is 0).
  std::size_t last_rise() const { return last_rise_; }
  // ln E_t at the first grid point not yet crossed (the evidence against the next value),
  // and that point (+inf and eps_max when every point is crossed).
  double frontier_log_evidence() const;
  double frontier_eps() const;

 private:
  void bet_pairs(double in_score, double out_score);
  void relearn_thresholds();
  void settle();
  std::size_t active_end() const;

  SequentialInput input_;
  SequentialOptions options_;
  std::vector<double> grid_;
  // Per grid point, the normalized outcome of hits (a, b) in {0,1}^2 (the same for both rules):
  // (s a - e^eps s b - delta) / (s e^eps + delta), s = 1 for pairs and 2 for decisions.
  std::vector<double> g00_, g01_, g10_, g11_;
  // The outcomes of grid points [frontier_, end) into g_plus_ and g_minus_.
  void decision_outcomes(std::size_t end, bool label, bool guess);
  void pair_outcomes(std::size_t end, double in_score, double out_score);
  BettingLanes plus_, minus_;
  std::vector<double> tau_plus_, tau_minus_;  // score games' learned thresholds
  std::vector<double> in_seen_, out_seen_;    // score games' trials so far (for relearning)
  std::size_t next_relearn_ = 0;
  std::vector<char> crossed_;
  std::size_t frontier_ = 0;  // the first grid point not crossed
  std::size_t trials_ = 0, last_rise_ = 0;
  std::vector<double> g_plus_, g_minus_;  // scratch
};

}  // namespace dpaudit
