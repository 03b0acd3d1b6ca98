// eps-gauss2: the exact (eps, delta) curve between two Gaussians (Andrew et al. 2024, Sec.
// 3.2), between the cosine null of their Thm 3.1 and a Gaussian, and of the analytic Gaussian
// mechanism (Balle & Wang 2018). All the mathematics is in lib/accounting; the options are
// options.cpp's, the body (callable in-process) tool.cpp's.
#include <iostream>

#include "cli/tool.hpp"
#include "options.hpp"
#include "tool.hpp"

namespace {

const char* kExamples =
    "  eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 1.2 --delta 1e-6     # eps between two "
    "Gaussians\n"
    "  eps-gauss2 --mu1 0 --sigma1 1 --mu2 1 --sigma2 1.2 --eps 2          # delta(2)\n"
    "  eps-gauss2 --null-dim 1000000 --mu 0.00065 --sigma 0.001 --delta 1e-6   # cosine null vs "
    "N(mu, sigma^2)\n"
    "  eps-gauss2 --null-dim 1000 --null gaussian --mu 0.02 --sigma 0.03 --delta 1e-6\n"
    "  eps-gauss2 --gaussian-mechanism --sigma 4.22 --delta 1e-6           # eps of the mechanism "
    "(about 1)\n"
    "  eps-gauss2 --gaussian-mechanism --eps 1 --delta 1e-6                # sigma: "
    "4.2246788893...\n"
    "  printf 'mu1,sigma1,mu2,sigma2,delta\\n0,1,1,1,1e-5\\n' | eps-gauss2 --batch\n";

const char* kDescription =
    "Exact (eps, delta) between two Gaussians N(mu1,sigma1^2) and N(mu2,sigma2^2), both "
    "directions\n"
    "(Andrew et al. 2024, Sec. 3.2; unequal variances handled), between the cosine null of "
    "Andrew et al. 2024, Thm 3.1 in d "
    "dimensions\n"
    "and N(mu,sigma^2), or of the Gaussian mechanism with sensitivity 1 (Balle & Wang 2018).\n"
    "Prints eps for --delta, delta for --eps (sigma with --gaussian-mechanism --eps --delta);\n"
    "eps is inf where no finite eps exists.";

}  // namespace

int main(int argc, char** argv) {
  using namespace dpaudit;
  CLI::App app{kDescription, "eps-gauss2"};
  cli::setup(app, kExamples);
  eps_gauss2::CommandLine line;
  eps_gauss2::declare(app, line);
  return cli::run(app, argc, argv, [&] {
    return eps_gauss2::run(eps_gauss2::options(line), std::cin, std::cout, std::cerr);
  });
}
