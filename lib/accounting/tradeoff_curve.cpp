#include "accounting/tradeoff_curve.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "accounting/rdp.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/csv.hpp"

namespace dpaudit {
namespace {

// What can be off in one evaluation of a line 1 - delta - s x (values in [0, 1]): the
// rounding of 1 - delta, of s x and of the difference, a few units of 2^-53 each. Every
// vertex's fnr is lowered by this much, so that it lies at or below the exact line (its
// fpr may be off by any amount: the point stays on or under the line there).
constexpr double kRoundoff = 1e-15;

// The line y = 1 - delta - s x of the pair (eps, delta), s = e^eps >= 1.
struct Line {
  double s;
  double delta;
  double at(double x) const { return 1 - delta - s * x; }
};

// Where a (steeper, higher at 0) meets b: (delta_b - delta_a) / (s_a - s_b) > 0.
double crossing(const Line& a, const Line& b) {
  return (b.delta - a.delta) / (a.s - b.s);
}

// Why vertex i cannot follow `previous` (or open the curve when it has none); empty: it can.
std::string vertex_problem(const std::optional<TradeoffVertex>& previous, const TradeoffVertex& v) {
  if (!(v.fpr >= 0 && v.fpr <= 1) || !(v.fnr >= 0 && v.fnr <= 1))
    return fmt::format("({}, {}) is outside [0,1]^2", format_number(v.fpr), format_number(v.fnr));
  if (!previous && v.fpr != 0)
    return fmt::format("the first vertex must have fpr 0, not {}", format_number(v.fpr));
  if (previous && !(v.fpr > previous->fpr))
    return fmt::format("fpr {} does not increase (after {})", format_number(v.fpr),
                       format_number(previous->fpr));
  if (previous && v.fnr > previous->fnr)
    return fmt::format("fnr {} increases (after {}): a trade-off curve never does",
                       format_number(v.fnr), format_number(previous->fnr));
  if (v.fnr > 1 - v.fpr)
    return fmt::format("fnr {} is above 1 - fpr at fpr {}: no test does worse than a coin",
                       format_number(v.fnr), format_number(v.fpr));
  return "";
}

const char* kLastVertex = "the last vertex must have fnr 0 (the curve is 0 beyond it)";

}  // namespace

double TradeoffCurve::operator()(double x) const {
  if (!(x >= 0 && x <= 1))
    throw UsageError(fmt::format("a trade-off curve is read at fpr in [0,1], not {}", x));
  const auto& v = vertices;
  // The first vertex with fpr > x; x lies on the segment before it.
  const auto next = std::upper_bound(v.begin(), v.end(), x,
                                     [](double a, const TradeoffVertex& b) { return a < b.fpr; });
  if (next == v.end()) return x == v.back().fpr ? v.back().fnr : 0;
  const TradeoffVertex& a = *(next - 1);
  const TradeoffVertex& b = *next;
  // a.fnr + (b.fnr - a.fnr) t, t in [0, 1): between the two, never above a.
  const double t = (x - a.fpr) / (b.fpr - a.fpr);
  return std::min(a.fnr, a.fnr + (b.fnr - a.fnr) * t);
}

void check_tradeoff_curve(const TradeoffCurve& curve, const std::string& where) {
  const auto at = [&](std::size_t i) {
    return where.empty() ? fmt::format("vertex {}", i + 1)
                         : fmt::format("{}, vertex {}", where, i + 1);
  };
  if (curve.vertices.empty()) throw DataError("a trade-off curve needs at least one vertex", where);
  std::optional<TradeoffVertex> previous;
  for (std::size_t i = 0; i < curve.vertices.size(); ++i) {
    const std::string problem = vertex_problem(previous, curve.vertices[i]);
    if (!problem.empty()) throw DataError(problem, at(i));
    previous = curve.vertices[i];
  }
  if (previous->fnr != 0) throw DataError(kLastVertex, at(curve.vertices.size() - 1));
}

TradeoffCurve tradeoff_envelope(const std::vector<EpsDelta>& pairs) {
  std::vector<Line> lines;
  for (const EpsDelta& p : pairs) {
    if (!(p.eps >= 0) || !std::isfinite(p.eps))
      throw UsageError(fmt::format("an (eps, delta) pair needs a finite eps >= 0, got {}", p.eps));
    if (!(p.delta >= 0))
      throw UsageError(fmt::format("an (eps, delta) pair needs delta >= 0, got {}", p.delta));
    if (p.delta < 1) lines.push_back({std::exp(p.eps), p.delta});
  }
  if (lines.empty()) return {{{0, 0}}};
  // Steepest first; among equal slopes the highest (smallest delta) first.
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return a.s != b.s ? a.s > b.s : a.delta < b.delta;
  });
  // The upper envelope on x >= 0 (slopes increase from left to right): a line at least as
  // high at 0 as the previous one and shallower dominates it on x >= 0; a line whose
  // crossing with the next comes before its crossing with the previous is never on top.
  std::vector<Line> hull;
  for (const Line& l : lines) {
    if (!hull.empty() && l.s == hull.back().s) continue;  // the higher of equal slopes came first
    while (!hull.empty()) {
      if (l.delta <= hull.back().delta) {
        hull.pop_back();
        continue;
      }
      if (hull.size() >= 2 &&
          crossing(hull.back(), l) <= crossing(hull[hull.size() - 2], hull.back())) {
        hull.pop_back();
        continue;
      }
      break;
    }
    hull.push_back(l);
  }
  // Left of the diagonal: the vertices of the envelope up to x* = f(x*), on line k.
  // Rounding can put two crossings at one fpr, or leave fnr flat between them (lines that
  // cross at x ~ 1e-16): the lower point is kept at one fpr, and a vertex not below the
  // previous one is dropped. Both only lower the polyline, so it stays at or below f.
  std::vector<TradeoffVertex> left{{0, std::max(0.0, hull[0].at(0) - kRoundoff)}};
  const auto push_left = [&](const TradeoffVertex& v) {
    if (v.fpr <= left.back().fpr)
      left.back().fnr = std::min(left.back().fnr, v.fnr);
    else if (v.fnr < left.back().fnr)
      left.push_back(v);
  };
  std::size_t k = 0;
  for (;; ++k) {
    const double diagonal = (1 - hull[k].delta) / (1 + hull[k].s);
    if (k + 1 == hull.size() || diagonal <= crossing(hull[k], hull[k + 1])) break;
    const double x = crossing(hull[k], hull[k + 1]);
    push_left({x, std::max(0.0, std::min(hull[k].at(x), hull[k + 1].at(x)) - kRoundoff)});
  }
  // The diagonal point (d, d) with d <= x* (f(d) >= f(x*) = x* >= d): d is computed to a
  // few units of 2^-53 relative, and taken 1e-15 relative lower.
  const double diagonal = (1 - hull[k].delta) / (1 + hull[k].s) * (1 - kRoundoff);
  std::vector<TradeoffVertex> all = left;
  if (diagonal > left.back().fpr && diagonal < left.back().fnr) all.push_back({diagonal, diagonal});
  // Right of it: the mirror image (f is symmetric: a point is at or below f iff its
  // mirror is), from the last vertex left of the diagonal back to the first.
  for (std::size_t i = left.size(); i-- > 0;) all.push_back({left[i].fnr, left[i].fpr});
  // Near the diagonal rounding may still leave two vertices at one fpr, or a rise in fnr:
  // the same rules (the curve is then symmetric only up to that rounding).
  TradeoffCurve curve;
  for (const TradeoffVertex& v : all) {
    if (!curve.vertices.empty() && v.fpr <= curve.vertices.back().fpr) {
      curve.vertices.back().fnr = std::min(curve.vertices.back().fnr, v.fnr);
      continue;
    }
    curve.vertices.push_back(
        {v.fpr, curve.vertices.empty() ? v.fnr : std::min(v.fnr, curve.vertices.back().fnr)});
  }
  check_tradeoff_curve(curve);
  return curve;
}

TradeoffCurve pld_tradeoff_curve(const std::vector<AccountingEvent>& events,
                                 const PldOptions& options) {
  PldOptions o = options;
  o.roundoff_delta = 1e-3 * kTradeoffSmallestDelta;
  const PldAccountant pld(events, o);
  const double eps_max = pld.epsilon(kTradeoffSmallestDelta).upper;
  if (!std::isfinite(eps_max))
    throw DataError(fmt::format(
        "the PLD's upper delta stays above {} at every eps (its roundoff and window slack): "
        "no curve to write",
        kTradeoffSmallestDelta));
  std::vector<double> grid;
  for (int i = 0; i <= kTradeoffGridPoints; ++i) grid.push_back(eps_max * i / kTradeoffGridPoints);
  const std::vector<PldInterval> deltas = pld.delta(grid);
  std::vector<EpsDelta> pairs;
  for (std::size_t i = 0; i < grid.size(); ++i) pairs.push_back({grid[i], deltas[i].upper});
  return tradeoff_envelope(pairs);
}

TradeoffCurve rdp_tradeoff_curve(const std::vector<AccountingEvent>& events,
                                 const std::vector<double>& orders, int threads) {
  const std::vector<double> rdp = composed_rdp(events, orders, threads);
  const double smallest = *std::min_element(rdp.begin(), rdp.end());
  // rdp_to_dp's eps is 0 from delta^2 > 1 - e^-rdp on.
  const double top =
      std::min(std::nextafter(1.0, 0.0), std::sqrt(-std::expm1(-smallest)) * (1 + 1e-12));
  std::vector<EpsDelta> pairs;
  if (!(top > kTradeoffSmallestDelta)) {
    pairs.push_back({0, top});
  } else {
    const double ratio = std::log(top / kTradeoffSmallestDelta);
    for (int j = 0; j <= kTradeoffGridPoints; ++j) {
      const double delta = kTradeoffSmallestDelta * std::exp(ratio * j / kTradeoffGridPoints);
      pairs.push_back({rdp_to_dp(rdp, orders, std::min(delta, top)).epsilon, std::min(delta, top)});
    }
  }
  return tradeoff_envelope(pairs);
}

std::string tradeoff_curve_csv(const TradeoffCurve& curve) {
  std::string text = "fpr,fnr\n";
  for (const TradeoffVertex& v : curve.vertices)
    text += format_number(v.fpr) + "," + format_number(v.fnr) + "\n";
  return text;
}

TradeoffCurve read_tradeoff_curve(const std::string& path) {
  CsvReader csv(path);
  const std::size_t fpr_col = csv.column("fpr"), fnr_col = csv.column("fnr");
  TradeoffCurve curve;
  std::optional<TradeoffVertex> previous;
  while (csv.next()) {
    const TradeoffVertex v{csv.number(fpr_col), csv.number(fnr_col)};
    const std::string problem = vertex_problem(previous, v);
    if (!problem.empty())
      throw DataError(problem, fmt::format("{}, row {}", csv.source(), csv.line()));
    curve.vertices.push_back(v);
    previous = v;
  }
  if (!previous)
    throw DataError("no vertices: the curve CSV has a header but no rows", csv.source());
  if (previous->fnr != 0)
    throw DataError(kLastVertex, fmt::format("{}, row {}", csv.source(), csv.line()));
  return curve;
}

}  // namespace dpaudit
