#include "stats/one_run_fdp.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <boost/math/distributions/normal.hpp>

#include "accounting/analytic_gaussian.hpp"
#include "core/error.hpp"

namespace dpaudit {
namespace {

void check(std::size_t m, std::size_t r, std::size_t v, double delta, double alpha,
           FdpCurve curve) {
  if (!(v <= r && r <= m))
    throw UsageError(fmt::format(
        "one-run outcome needs correct <= guesses <= canaries, got {} <= {} <= {}", v, r, m));
  if (!(alpha > 0 && alpha < 1)) throw UsageError(fmt::format("alpha {} is not in (0,1)", alpha));
  if (curve == FdpCurve::gaussian && !(delta > 0 && delta < 1))
    throw UsageError(fmt::format("the Gaussian curve needs delta in (0,1), got {}", delta));
  if (!(delta >= 0 && delta < 1)) throw UsageError(fmt::format("delta {} is not in [0,1)", delta));
}

// g = fbar^-1 of the header for one (eps, delta).
struct InverseBlowUp {
  FdpCurve curve;
  double eps, delta, mu = 0;
  InverseBlowUp(FdpCurve c, double e, double d) : curve(c), eps(e), delta(d) {
    if (curve == FdpCurve::gaussian) mu = 1 / gaussian_mechanism_sigma(eps, delta);
  }
  double operator()(double y) const {
    if (curve == FdpCurve::dp)
      return std::max({0.0, (y - delta) * std::exp(-eps), 1 - delta - std::exp(eps) * (1 - y)});
    if (y <= 0) return 0;
    if (y >= 1) return 1;
    const boost::math::normal n;
    return boost::math::cdf(n, boost::math::quantile(n, y) - mu);
  }
};

// rho + eta - r/m after the recursion of the header: > 0 refutes.
double objective(std::size_t m, std::size_t r, std::size_t v, double alpha,
                 const InverseBlowUp& g) {
  const double md = double(m);
  double rho = alpha * double(v) / md, eta = alpha * double(r - v) / md;
  for (std::size_t i = v; i-- > 0;) {
    const double eta_next = std::max(eta, g(rho));
    if (eta_next == eta) break;  // rho and eta stay as they are from here on
    rho = std::min(1.0, rho + double(i) / double(r - i) * (eta_next - eta));
    eta = eta_next;
  }
  return rho + eta - double(r) / md;
}

bool refutes(std::size_t m, std::size_t r, std::size_t v, double eps, double delta, double alpha,
             FdpCurve curve) {
  if (v == 0) return false;
  return objective(m, r, v, alpha, InverseBlowUp(curve, eps, delta)) > 0;
}

}  // namespace

bool one_run_fdp_refutes(std::size_t m, std::size_t r, std::size_t v, double eps, double delta,
                         double alpha, FdpCurve curve) {
  check(m, r, v, delta, alpha, curve);
  if (!(eps >= 0 && std::isfinite(eps)))
    throw UsageError(fmt::format("epsilon {} is not finite and >= 0", eps));
  return refutes(m, r, v, eps, delta, alpha, curve);
}

double one_run_fdp_epsilon(std::size_t m, std::size_t r, std::size_t v, double delta, double alpha,
                           FdpCurve curve, double eps_lo) {
  check(m, r, v, delta, alpha, curve);
  if (!(eps_lo >= 0 && std::isfinite(eps_lo)))
    throw UsageError(fmt::format("eps_lo {} is not finite and >= 0", eps_lo));
  if (!refutes(m, r, v, eps_lo, delta, alpha, curve)) return eps_lo;
  // Larger eps claims less, and no finite outcome refutes every eps (the Gaussian sigma
  // is found down to ~1e-300, i.e. eps up to ~1e5, far past any outcome of m <= 1e9
  // canaries).
  return largest_refuted_epsilon(
      [&](double eps) { return refutes(m, r, v, eps, delta, alpha, curve); }, eps_lo);
}

double largest_refuted_epsilon(const std::function<bool(double)>& refuted, double lo) {
  double hi = std::max(1.0, 2 * lo);
  while (refuted(hi)) {
    lo = hi;
    hi *= 2;
  }
  for (int it = 0; it < 200 && hi - lo > 1e-12 * hi; ++it) {
    const double mid = lo + (hi - lo) / 2;
    (refuted(mid) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace dpaudit
