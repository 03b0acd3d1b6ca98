// eps-gauss2: the exact (eps, delta) curve between two Gaussians (Andrew et al. 2024, Sec.
// 3.2), between the cosine null of their Thm 3.1 and a Gaussian, and of the analytic Gaussian
// mechanism (Balle & Wang 2018). All the mathematics is in lib/accounting; the body is
// tool.cpp.
#include <iostream>
#include <optional>
#include <string>

#include "cli/tool.hpp"
#include "tool.hpp"

namespace {

using namespace dpaudit;

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

template <class T>
std::optional<T> given(const CLI::Option* option, const T& value) {
  return option->count() ? std::optional<T>(value) : std::nullopt;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Exact (eps, delta) between two Gaussians N(mu1,sigma1^2) and N(mu2,sigma2^2), both "
      "directions\n"
      "(Andrew et al. 2024, Sec. 3.2; unequal variances handled), between the cosine null of "
      "Andrew et al. 2024, Thm 3.1 in d "
      "dimensions\n"
      "and N(mu,sigma^2), or of the Gaussian mechanism with sensitivity 1 (Balle & Wang 2018).\n"
      "Prints eps for --delta, delta for --eps (sigma with --gaussian-mechanism --eps --delta);\n"
      "eps is inf where no finite eps exists.",
      "eps-gauss2"};
  dpaudit::cli::setup(app, kExamples);

  double mu1 = 0, sigma1 = 0, mu2 = 0, sigma2 = 0, delta = 0, eps = 0, mu = 0, sigma = 0;
  std::size_t null_dim = 0;
  std::string null_name = "exact", input = "-";
  bool mechanism = false, batch = false, json = false;

  auto* mu1_opt = app.add_option("--mu1", mu1, "mean of the first Gaussian")->check(cli::finite());
  auto* sigma1_opt = app.add_option("--sigma1", sigma1, "standard deviation of the first Gaussian")
                         ->check(cli::positive());
  auto* mu2_opt = app.add_option("--mu2", mu2, "mean of the second Gaussian")->check(cli::finite());
  auto* sigma2_opt = app.add_option("--sigma2", sigma2, "standard deviation of the second Gaussian")
                         ->check(cli::positive());
  auto* delta_opt = app.add_option("--delta", delta, "target delta in (0,1): print eps")
                        ->check(cli::open_unit_interval());
  auto* eps_opt =
      app.add_option(
             "--eps", eps,
             "eps >= 0 or inf: print delta(eps) (delta(inf): 0 between Gaussians, the "
             "Gaussian's mass outside [-1,1] against the exact null; sigma 0 meets eps inf)")
          ->check(cli::epsilon());
  auto* null_dim_opt =
      app.add_option("--null-dim", null_dim,
                     "the first distribution is the cosine null in D >= 2 dimensions")
          ->check(cli::cosine_dimension());
  auto* null_opt =
      app.add_option(
             "--null", null_name,
             "exact (Andrew et al. 2024, Thm 3.1, incomplete beta) or gaussian (N(0,1/d), Thm 3.2)")
          ->capture_default_str()
          ->check(CLI::IsMember({"exact", "gaussian"}));
  auto* mu_opt = app.add_option("--mu", mu, "mean of the Gaussian compared with the null")
                     ->check(cli::finite());
  auto* sigma_opt =
      app.add_option(
             "--sigma", sigma,
             "its standard deviation; with --gaussian-mechanism the noise standard deviation")
          ->check(cli::positive());

  app.add_flag("--gaussian-mechanism", mechanism,
               "the Gaussian mechanism with sensitivity 1: --sigma --delta prints eps, "
               "--eps --delta prints sigma, --sigma --eps prints delta");

  app.add_flag("--batch", batch,
               "read CSV rows mu1,sigma1,mu2,sigma2,delta (header, columns by name) and print "
               "one eps per row");
  auto* input_opt = app.add_option("input", input, "CSV input of --batch; - or none: stdin");
  app.add_flag("--json", json,
               "print one JSON object (one per row with --batch) with inputs and result");

  return cli::run(app, argc, argv, [&] {
    eps_gauss2::Options o{given(mu1_opt, mu1),
                          given(sigma1_opt, sigma1),
                          given(mu2_opt, mu2),
                          given(sigma2_opt, sigma2),
                          given(delta_opt, delta),
                          given(eps_opt, eps),
                          given(null_dim_opt, null_dim),
                          given(null_opt, null_name),
                          given(mu_opt, mu),
                          given(sigma_opt, sigma),
                          mechanism,
                          batch,
                          given(input_opt, input),
                          json};
    return eps_gauss2::run(o, std::cin, std::cout, std::cerr);
  });
}
