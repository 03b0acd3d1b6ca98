// Threshold-free summaries of an attack: the area under the ROC curve and the
// true-positive rate at a small false-positive rate, from a ROC sweep, or against
// a continuous out-distribution (the cosine null) given by its log CDF.
#pragma once
#include <functional>
#include <vector>

#include "stats/roc.hpp"

namespace dpaudit {

// P(in score > out score) + P(equal) / 2, the Mann-Whitney form that counts ties
// as half (equal to the trapezoid area under the ROC curve). UsageError when a
// class is empty.
double auroc(const RocSweep& sweep);

// The largest TPR of a threshold rule whose FPR is <= max_fpr (0 when even the
// highest threshold exceeds it). UsageError when a class is empty.
double tpr_at_fpr(const RocSweep& sweep, double max_fpr);

// log P(T <= t) of a continuous out-distribution, nondecreasing in t (also used
// for its log survival function and log density).
using LogCdf = std::function<double(double)>;

// AUROC of ascending in scores against a continuous out-distribution: the mean over
// the in scores of its CDF F(s) = P(T < s). F is computed exactly at every 64th
// score; in between it is carried forward by 3-point Gauss-Legendre integrals of
// the density over the gaps, and a block whose carried value misses the exact F at
// its end by more than 1e-12 is recomputed exactly. A 10^6-score summary so needs
// ~1/64 of the (costly) exact CDF calls.
double auroc_against(const std::vector<double>& in_sorted, const LogCdf& out_log_cdf,
                     const LogCdf& out_log_pdf);

// TPR at FPR <= max_fpr against a continuous out-distribution with log survival
// function out_log_sf (P(T >= t)): the threshold t with P(T >= t) = max_fpr is
// found by bisection on [lo, hi], the range the scores can take (for cosines,
// [-1, 1]); when even hi leaves more than max_fpr, no rule qualifies and TPR is 0.
double tpr_at_fpr_against(const std::vector<double>& in_sorted, const LogCdf& out_log_sf,
                          double max_fpr, double lo, double hi);

}  // namespace dpaudit
