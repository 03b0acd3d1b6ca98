// The null distribution of the cosine between a uniformly random unit vector in
// `dim` dimensions and any independent vector (Andrew et al. 2024, Thm 3.1): density
// f_d(t) = Gamma(d/2) / (Gamma((d-1)/2) sqrt(pi)) (1-t^2)^((d-3)/2) on [-1,1], i.e.
// (1+T)/2 ~ Beta((d-1)/2, (d-1)/2), so its CDF is a regularized incomplete beta
// function. NullKind::gaussian is its large-d limit N(0, 1/d) (Andrew et al. 2024, Thm 3.2).
// Also the exact (eps, delta) curve between that null and a Gaussian.
#pragma once
#include <cstddef>

#include "accounting/two_gaussian.hpp"

namespace dpaudit {

enum class NullKind { exact, gaussian };

// The cosine null in `dim` >= 2 dimensions (dim < 2 throws UsageError).
struct CosineNull {
  std::size_t dim;
  NullKind kind;
};

// log P(T >= t) and log P(T <= t), stable far in the tails (below 1e-308: the
// continued fraction of the incomplete beta function in log space).
double cosine_null_log_sf(std::size_t dim, double t, NullKind kind);
double cosine_null_log_cdf(std::size_t dim, double t, NullKind kind);
// log f_d(t); -inf outside the support.
double cosine_null_log_pdf(std::size_t dim, double t, NullKind kind);

double log_cdf(const CosineNull& null, double t);
double log_sf(const CosineNull& null, double t);

// delta(eps) between the cosine null in `dim` dimensions and the Gaussian `alt`,
// maximised over both directions. The Gaussian null reduces to two_gaussian_delta.
// The exact null: the privacy loss L(t) = log f_d(t) - log phi_alt(t) is smooth on
// (-1,1) with at most three critical points (roots of the cubic
// t^3 - m t^2 + (2k s^2 - 1) t + m, k = (d-3)/2); on each monotone piece the
// crossing of L with +-eps is found by TOMS 748, and the regions {L > eps} and
// {L < -eps} (the latter including |t| >= 1, where the null has no mass) are
// measured with the exact CDFs in log space.
double null_vs_gaussian_delta(std::size_t dim, NullKind kind, const Gaussian& alt, double eps);
double null_vs_gaussian_log_delta(std::size_t dim, NullKind kind, const Gaussian& alt, double eps);
// Smallest eps with delta(eps) <= delta; +inf when the alternative's own mass
// outside [-1,1] already exceeds delta (exact null), or no eps up to 1e100 meets it.
double null_vs_gaussian_epsilon(std::size_t dim, NullKind kind, const Gaussian& alt, double delta);

}  // namespace dpaudit
