// LDP-SGD (Matsumoto et al. 2022, Alg. 1-2, after Erlingsson et al. 2020 and Duchi et al. 2018):
// the client randomizer that reports one unit vector per gradient with eps-LDP, and the server that
// unbiases, averages and takes a projected gradient step.
#pragma once
#include <cstddef>

#include <Eigen/Core>

#include "random/philox_stream.hpp"

namespace dpaudit {

struct LdpSgdConfig {
  double eps = 1;   // local privacy parameter, > 0
  double clip = 1;  // L, the l2 clipping norm, > 0
};

// Throws UsageError unless eps > 0 and clip > 0 are finite.
void validate(const LdpSgdConfig& config);

// Probability that the report lies in the hemisphere of z: e^eps / (1 + e^eps)
// (Matsumoto et al. 2022, Alg. 1 line 3), computed as 1 / (1 + e^-eps).
double ldp_sgd_keep_probability(double eps);

// Matsumoto et al. 2022, Alg. 1, the client. Clips the gradient to norm L (line 1); projects it to
// z = +-L x/||x|| with P(+) = 1/2 + ||x||/(2L) (line 2); draws v uniform on the unit
// sphere; reports sgn(<z,v>) v with probability e^eps/(1+e^eps), else its negation
// (line 3). The report is a unit vector written to `report` (size d). Draw order from
// `rng`: the projection coin (one uniform), v (d normals, normalised), the response
// coin (one uniform). A zero gradient has no direction: sgn(<z,v>) is taken as +1,
// so the report is uniform on the sphere, as for any x with ||x|| -> 0.
void ldp_sgd_randomize(const Eigen::Ref<const Eigen::VectorXd>& gradient,
                       const LdpSgdConfig& config, PhiloxStream& rng,
                       Eigen::Ref<Eigen::VectorXd> report);
Eigen::VectorXd ldp_sgd_randomize(const Eigen::Ref<const Eigen::VectorXd>& gradient,
                                  const LdpSgdConfig& config, PhiloxStream& rng);

// The server's unbiasing constant for dimension d: E[constant * report] = x for a
// clipped x. Matsumoto et al. 2022, Alg. 2 line 4 prints L sqrt(pi)/2 Gamma((d-1)/2+1)/Gamma(d/2+1)
// (e^eps+1)/(e^eps-1); that is unbiased only with the extra factor d of Duchi et al.
// (2018), which we include (see man dp-train, LDP):
//   constant = L d sqrt(pi)/2 * Gamma((d+1)/2) / Gamma(d/2+1) * coth(eps/2).
// The Gamma ratio is evaluated as a ratio (Boost tgamma_delta_ratio), so d = 1e7 and
// beyond neither overflows nor loses precision.
double ldp_sgd_unbiasing_constant(std::size_t d, const LdpSgdConfig& config);

// Matsumoto et al. 2022, Alg. 2 line 5: eta = ||C|| sqrt(n) / (L sqrt(d)) * (e^eps-1)/(e^eps+1).
double ldp_sgd_learning_rate(double radius, std::size_t clients, std::size_t d,
                             const LdpSgdConfig& config);

// l2 projection onto the ball of `radius` centred at 0: theta * min(1, radius/||theta||).
void project_onto_ball(Eigen::Ref<Eigen::VectorXd> theta, double radius);

// Matsumoto et al. 2022, Alg. 2 lines 4-5: g = constant * report_sum / n; theta <- Proj_C(theta -
// eta g), with C the ball of `radius` (||C||_2), n = `clients` reports summed in report_sum and eta
// = `learning_rate` (ldp_sgd_learning_rate gives Alg. 2's).
void ldp_sgd_server_step(Eigen::Ref<Eigen::VectorXd> theta,
                         const Eigen::Ref<const Eigen::VectorXd>& report_sum, std::size_t clients,
                         double radius, double learning_rate, const LdpSgdConfig& config);

}  // namespace dpaudit
