#include "options.hpp"

#include <optional>

#include "cli/tool.hpp"

namespace dpaudit::eps_gauss2 {

namespace {

template <class T>
std::optional<T> given(const CLI::Option* option, const T& value) {
  return option->count() ? std::optional<T>(value) : std::nullopt;
}

}  // namespace

void declare(CLI::App& app, CommandLine& c) {
  c.mu1_opt = app.add_option("--mu1", c.mu1, "mean of the first Gaussian")->check(cli::finite());
  c.sigma1_opt = app.add_option("--sigma1", c.sigma1, "standard deviation of the first Gaussian")
                     ->check(cli::positive());
  c.mu2_opt = app.add_option("--mu2", c.mu2, "mean of the second Gaussian")->check(cli::finite());
  c.sigma2_opt = app.add_option("--sigma2", c.sigma2, "standard deviation of the second Gaussian")
                     ->check(cli::positive());
  c.delta_opt = app.add_option("--delta", c.delta, "target delta in (0,1): print eps")
                    ->check(cli::open_unit_interval());
  c.eps_opt =
      app.add_option(
             "--eps", c.eps,
             "eps >= 0 or inf: print delta(eps) (delta(inf): 0 between Gaussians, the "
             "Gaussian's mass outside [-1,1] against the exact null; sigma 0 meets eps inf)")
          ->check(cli::epsilon());
  c.null_dim_opt = app.add_option("--null-dim", c.null_dim,
                                  "the first distribution is the cosine null in D >= 2 dimensions")
                       ->check(cli::cosine_dimension());
  c.null_opt =
      app.add_option(
             "--null", c.null_name,
             "exact (Andrew et al. 2024, Thm 3.1, incomplete beta) or gaussian (N(0,1/d), Thm 3.2)")
          ->capture_default_str()
          ->check(CLI::IsMember({"exact", "gaussian"}));
  c.mu_opt = app.add_option("--mu", c.mu, "mean of the Gaussian compared with the null")
                 ->check(cli::finite());
  c.sigma_opt =
      app.add_option(
             "--sigma", c.sigma,
             "its standard deviation; with --gaussian-mechanism the noise standard deviation")
          ->check(cli::positive());
  app.add_flag("--gaussian-mechanism", c.mechanism,
               "the Gaussian mechanism with sensitivity 1: --sigma --delta prints eps, "
               "--eps --delta prints sigma, --sigma --eps prints delta");
  app.add_flag("--batch", c.batch,
               "read CSV rows mu1,sigma1,mu2,sigma2,delta (header, columns by name) and print "
               "one eps per row");
  c.input_opt = app.add_option("input", c.input, "CSV input of --batch; - or none: stdin");
  app.add_flag("--json", c.json,
               "print one JSON object (one per row with --batch) with inputs and result");
}

Options options(const CommandLine& c) {
  return Options{given(c.mu1_opt, c.mu1),
                 given(c.sigma1_opt, c.sigma1),
                 given(c.mu2_opt, c.mu2),
                 given(c.sigma2_opt, c.sigma2),
                 given(c.delta_opt, c.delta),
                 given(c.eps_opt, c.eps),
                 given(c.null_dim_opt, c.null_dim),
                 given(c.null_opt, c.null_name),
                 given(c.mu_opt, c.mu),
                 given(c.sigma_opt, c.sigma),
                 c.mechanism,
                 c.batch,
                 given(c.input_opt, c.input),
                 c.json};
}

}  // namespace dpaudit::eps_gauss2
