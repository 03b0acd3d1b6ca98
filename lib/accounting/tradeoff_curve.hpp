// The f-DP trade-off curve an accountant certifies (Dong, Roth & Su 2022, "Gaussian
// differential privacy", JRSS B): for a test between the outputs of two neighbouring data
// sets with type I error x (here: FPR, saying "in" when the record is out), the type II
// error (FNR) is at least f(x).
//
// From (eps, delta) pairs. A mechanism that is (eps_i, delta_i)-DP for every i is
// f_{eps_i, delta_i}-DP for every i (DRS Prop. 2.5), with
//   f_{eps,delta}(x) = max(0, 1 - delta - e^eps x, e^-eps (1 - delta - x)),
// so it is f-DP for their upper envelope f = max_i f_{eps_i, delta_i} (DRS Prop. 2.12's
// duality, restricted to finitely many pairs). Each f_{eps,delta} is symmetric (its graph
// is its own mirror image in the diagonal), so f is: it bounds both orders of every
// neighbouring pair. With delta_i an upper bound on the privacy profile at eps_i, every
// pair holds, and f lies at or below the true trade-off curve of the mechanism: a weaker
// claim than the mechanism's own curve, so data that refute f refute the mechanism's
// accounting. f is convex and piecewise linear; it is stored as its vertices (fpr
// strictly increasing from 0, fnr nonincreasing to 0), and linear interpolation between
// them is f itself.
//
// The vertices: up to the diagonal point x* = f(x*), f is the upper envelope of the lines
// 1 - delta_i - e^eps_i x (slopes <= -1: a convex symmetric curve has slope <= -1 left of
// x*); beyond it, its mirror image. Each vertex's fnr is the smaller of the two lines that
// meet there, at the fpr computed for it, so rounding never lifts a vertex above f.
//
// File: CSV `fpr,fnr` with a header, one vertex a row (columns found by name).
#pragma once
#include <string>
#include <vector>

#include "accounting/event.hpp"
#include "accounting/pld.hpp"

namespace dpaudit {

// (eps, delta)-DP, eps >= 0, delta in [0, 1].
struct EpsDelta {
  double eps;
  double delta;
};

struct TradeoffVertex {
  double fpr;
  double fnr;
};

// A trade-off curve as its vertices: the first at fpr 0, fpr strictly increasing, fnr
// nonincreasing, the last at fnr 0 (f is 0 beyond it), every point in [0,1]^2 with
// fnr <= 1 - fpr (DRS Def. 2.2: no test does worse than a coin).
struct TradeoffCurve {
  std::vector<TradeoffVertex> vertices;

  // f(x) for x in [0, 1]: linear interpolation between the vertices, 0 beyond the last.
  // UsageError for x outside [0, 1] or NaN.
  double operator()(double x) const;
};

// Throws DataError (naming `where` and the vertex) when the vertices break the rules above.
void check_tradeoff_curve(const TradeoffCurve& curve, const std::string& where = "");

// The envelope of the pairs. Pairs with delta >= 1 say nothing and are skipped; none left
// (or no pairs): the curve 0, one vertex (0, 0). UsageError for eps < 0 or not finite,
// delta < 0 or NaN.
TradeoffCurve tradeoff_envelope(const std::vector<EpsDelta>& pairs);

// The curve the PLD accountant certifies for the run: the envelope of (eps_i, upper end of
// delta(eps_i)) on kTradeoffGridPoints + 1 equally spaced eps_i from 0 to the PLD's upper
// eps at delta = kTradeoffSmallestDelta (beyond it f_{eps,delta} differs from the curve by
// at most that delta). The roundoff bound is held to 1e-3 of that delta, so the slack the
// upper end adds stays below it. `options` as PldAccountant's (its roundoff_delta is
// replaced).
TradeoffCurve pld_tradeoff_curve(const std::vector<AccountingEvent>& events,
                                 const PldOptions& options = {});

// The curve the RDP accountant certifies: the envelope of (rdp_to_dp's eps at delta_j,
// delta_j) on kTradeoffGridPoints + 1 delta_j equally spaced in log from
// kTradeoffSmallestDelta to the smallest delta at which that conversion gives eps 0
// (sqrt(1 - e^-rdp) at the smallest RDP over the orders). As rdp_epsilon's arguments.
TradeoffCurve rdp_tradeoff_curve(const std::vector<AccountingEvent>& events,
                                 const std::vector<double>& orders, int threads = 1);

inline constexpr int kTradeoffGridPoints = 2000;
inline constexpr double kTradeoffSmallestDelta = 1e-12;

// The CSV text: header `fpr,fnr`, one vertex a line, shortest round-trip numbers.
std::string tradeoff_curve_csv(const TradeoffCurve& curve);

// Reads a curve CSV (`-` or "": stdin) and checks it (check_tradeoff_curve). DataError,
// naming the file and row, for a missing column, a non-finite number, or a broken rule.
TradeoffCurve read_tradeoff_curve(const std::string& path);

}  // namespace dpaudit
