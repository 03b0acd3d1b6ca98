#include "mechanisms/ldp_sgd.hpp"

#include <cmath>
#include <string>

#include <boost/math/constants/constants.hpp>
#include <boost/math/special_functions/gamma.hpp>

#include "core/error.hpp"
#include "core/format.hpp"

namespace dpaudit {

void validate(const LdpSgdConfig& config) {
  if (!(config.eps > 0) || !std::isfinite(config.eps))
    throw UsageError(Pattern{"eps must be a finite number > 0, got " + format_number(config.eps)},
                     "{eps}");
  if (!(config.clip > 0) || !std::isfinite(config.clip))
    throw UsageError(
        Pattern{"clipping norm L must be a finite number > 0, got " + format_number(config.clip)},
        "{clip}");
}

double ldp_sgd_keep_probability(double eps) {
  return 1 / (1 + std::exp(-eps));
}

void ldp_sgd_randomize(const Eigen::Ref<const Eigen::VectorXd>& gradient,
                       const LdpSgdConfig& config, PhiloxStream& rng,
                       Eigen::Ref<Eigen::VectorXd> report) {
  const Eigen::Index d = gradient.size();
  if (d == 0) throw DataError("cannot randomize a gradient of dimension 0");
  if (report.size() != d)
    throw DataError("report has dimension " + std::to_string(report.size()) + ", gradient " +
                    std::to_string(d));
  // Line 1: ||x|| = min(||g||, L). Line 2: z = +-L x/||x||, + with prob 1/2 + ||x||/(2L).
  const double norm = gradient.norm();
  const double clipped_norm = std::min(norm, config.clip);
  const double projection_sign =
      rng.uniform() < 0.5 + clipped_norm / (2 * config.clip) ? 1.0 : -1.0;
  // Line 3: v = N(0, I_d) / ||N(0, I_d)|| is uniform on the unit sphere.
  rng.fill_normal(report.data(), static_cast<std::size_t>(d));
  const double dot = norm > 0 ? gradient.dot(report) : 0.0;
  const double hemisphere = projection_sign * (dot >= 0 ? 1.0 : -1.0);  // sgn(<z, v>)
  const double response = rng.uniform() < ldp_sgd_keep_probability(config.eps) ? 1.0 : -1.0;
  report *= hemisphere * response / report.norm();
}

Eigen::VectorXd ldp_sgd_randomize(const Eigen::Ref<const Eigen::VectorXd>& gradient,
                                  const LdpSgdConfig& config, PhiloxStream& rng) {
  Eigen::VectorXd report(gradient.size());
  ldp_sgd_randomize(gradient, config, rng, report);
  return report;
}

double ldp_sgd_unbiasing_constant(std::size_t d, const LdpSgdConfig& config) {
  if (d == 0) throw UsageError("dimension must be >= 1");
  validate(config);
  const double dim = static_cast<double>(d);
  // Gamma((d+1)/2) / Gamma((d+1)/2 + 1/2) = Gamma((d-1)/2+1) / Gamma(d/2+1).
  const double gamma_ratio = boost::math::tgamma_delta_ratio((dim + 1) / 2, 0.5);
  const double coth_half_eps = 1 / std::tanh(config.eps / 2);  // (e^eps+1)/(e^eps-1)
  return config.clip * dim * boost::math::constants::root_pi<double>() / 2 * gamma_ratio *
         coth_half_eps;
}

double ldp_sgd_learning_rate(double radius, std::size_t clients, std::size_t d,
                             const LdpSgdConfig& config) {
  validate(config);
  if (!(radius > 0) || !std::isfinite(radius))
    throw UsageError(
        Pattern{"parameter ball radius must be a finite number > 0, got " + format_number(radius)},
        "{radius}");
  if (clients == 0 || d == 0) throw UsageError("clients and dimension must be >= 1");
  return radius * std::sqrt(static_cast<double>(clients)) /
         (config.clip * std::sqrt(static_cast<double>(d))) * std::tanh(config.eps / 2);
}

void project_onto_ball(Eigen::Ref<Eigen::VectorXd> theta, double radius) {
  const double norm = theta.norm();
  if (norm > radius) theta *= radius / norm;
}

void ldp_sgd_server_step(Eigen::Ref<Eigen::VectorXd> theta,
                         const Eigen::Ref<const Eigen::VectorXd>& report_sum, std::size_t clients,
                         double radius, double learning_rate, const LdpSgdConfig& config) {
  if (theta.size() != report_sum.size())
    throw DataError("model has dimension " + std::to_string(theta.size()) + ", reports " +
                    std::to_string(report_sum.size()));
  const auto d = static_cast<std::size_t>(theta.size());
  if (clients == 0) throw UsageError("clients must be >= 1");
  const double step =
      learning_rate * ldp_sgd_unbiasing_constant(d, config) / static_cast<double>(clients);
  theta -= step * report_sum;
  project_onto_ball(theta, radius);
}

}  // namespace dpaudit
