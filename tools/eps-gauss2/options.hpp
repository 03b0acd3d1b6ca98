// eps-gauss2's command line: the options declared on the CLI11 app, and the values as parsed
// turned into tool.hpp's Options (an option not given is nullopt).
#pragma once
#include <cstddef>
#include <string>

#include <CLI/CLI.hpp>

#include "tool.hpp"

namespace dpaudit::eps_gauss2 {

// The values as parsed, and the options, to see which were given.
struct CommandLine {
  double mu1 = 0, sigma1 = 0, mu2 = 0, sigma2 = 0, delta = 0, eps = 0, mu = 0, sigma = 0;
  std::size_t null_dim = 0;
  std::string null_name = "exact", input = "-";
  bool mechanism = false, batch = false, json = false;
  CLI::Option *mu1_opt = nullptr, *sigma1_opt = nullptr, *mu2_opt = nullptr, *sigma2_opt = nullptr,
              *delta_opt = nullptr, *eps_opt = nullptr, *null_dim_opt = nullptr,
              *null_opt = nullptr, *mu_opt = nullptr, *sigma_opt = nullptr, *input_opt = nullptr;
};

// Declares every option on `app`, bound to `line`.
void declare(CLI::App& app, CommandLine& line);

// The options after parsing: those not given are nullopt (run() checks their combinations).
Options options(const CommandLine& line);

}  // namespace dpaudit::eps_gauss2
