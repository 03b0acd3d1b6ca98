// eps-gauss2's body, callable in-process (the fuzz harness of --batch, tests): the options as
// parsed (an option not given is nullopt), the streams for "-", and the exit status.
#pragma once
#include <cstddef>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

namespace dpaudit::eps_gauss2 {

struct Options {
  std::optional<double> mu1, sigma1, mu2, sigma2;  // two Gaussians
  std::optional<double> delta, eps;
  std::optional<std::size_t> null_dim;  // the cosine null against N(mu, sigma^2)
  std::optional<std::string> null;      // "exact" (default) or "gaussian"
  std::optional<double> mu, sigma;
  bool mechanism = false;  // the Gaussian mechanism
  bool batch = false;      // CSV rows mu1,sigma1,mu2,sigma2,delta from `input`
  std::optional<std::string> input;
  bool json = false;
};

// Prints the result on `out`, errors on `err`; returns the exit status.
int run(const Options& options, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace dpaudit::eps_gauss2
