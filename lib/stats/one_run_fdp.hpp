// Auditing f-DP in one run (Mahloujifar, Melis & Chaudhuri 2025, "Auditing f-differential
// privacy in one run", ICML; arXiv 2410.22235): the game of one_run.hpp (m canaries, each
// included independently with probability 1/2; r guesses, v of them correct), tested
// against a whole trade-off curve f instead of one (eps, delta) pair.
//
// Write fbar(x) = 1 - f(x) (the "blow-up": the most power a test of size x can have) and
// g = fbar^-1. Their recursive bound (the numerical procedure with abstentions,
// "audit_rh_with_cap") starts from
//   rho = alpha v / m,   eta = alpha (r - v) / m
// and for i = v-1, v-2, ..., 0 updates
//   eta' = max(eta, g(rho)),   rho' = min(1, rho + i / (r - i) * (eta' - eta)),
// stopping early once eta' = eta (then nothing changes any more). The outcome refutes f
// at level alpha when rho + eta > r / m at the end. Candidate curves:
//   gaussian  f = the Gaussian mechanism's curve with the (eps, delta) claimed: mu-GDP with
//             mu = 1/sigma, sigma the analytic Gaussian mechanism's noise for (eps, delta)
//             (Balle & Wang 2018, lib/accounting/analytic_gaussian), g(x) = Phi(Phi^-1(x) - mu).
//             This is jax_privacy's epsilon_one_run_fdp; it certifies about twice what
//             one-run does from the same outcome (500 of 500 among m = 1000 at alpha 0.05,
//             delta 1e-5: 9.92 against 5.09), because the Gaussian curve claims more than
//             the (eps, delta) pair alone.
//   dp        f = the (eps, delta)-DP curve max(0, 1 - delta - e^eps x, e^-eps (1 - delta - x)),
//             g(y) = max(0, (y - delta) e^-eps, 1 - delta - e^eps (1 - y)): a claim of
//             (eps, delta)-DP and nothing more, comparable with one-run.
// The eps reported is the largest eps whose curve the outcome refutes (0 when eps = 0 is
// not refuted), by doubling and bisection to 1e-12 relative, returning the refuted end
// (jax_privacy's brentq stops at 1e-6 absolute).
#pragma once
#include <cstddef>
#include <functional>

namespace dpaudit {

enum class FdpCurve { gaussian, dp };

// True when the outcome (r guesses, v correct, m canaries) refutes the curve of (eps,
// delta) at level alpha. Throws UsageError unless v <= r <= m, eps >= 0 finite,
// 0 < alpha < 1, and delta in (0,1) for gaussian, [0,1) for dp.
bool one_run_fdp_refutes(std::size_t m, std::size_t r, std::size_t v, double eps, double delta,
                         double alpha, FdpCurve curve);

// The largest eps whose curve the outcome refutes at level alpha, at least eps_lo:
// eps_lo itself when eps_lo is not refuted (0 for no evidence). Same checks, eps_lo >= 0.
double one_run_fdp_epsilon(std::size_t m, std::size_t r, std::size_t v, double delta, double alpha,
                           FdpCurve curve, double eps_lo = 0);

// The largest eps with refuted(eps), given refuted(lo) (both one-run tests): double a
// bracket from max(1, 2 lo), then bisect to 1e-12 relative and return the refuted end
// (the safe side). refuted must be false from some finite eps on.
double largest_refuted_epsilon(const std::function<bool(double)>& refuted, double lo);

}  // namespace dpaudit
