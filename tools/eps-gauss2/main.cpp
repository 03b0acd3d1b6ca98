// eps-gauss2: the exact (eps, delta) curve between two Gaussians (003 Sec. 3.2), between
// the cosine null of 003 Thm 3.1 and a Gaussian, and of the analytic Gaussian mechanism
// (Balle & Wang 2018). All the mathematics is in lib/accounting.
#include <cmath>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/cosine_null.hpp"
#include "accounting/two_gaussian.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/atomic_output.hpp"
#include "io/csv.hpp"
#include "io/json.hpp"

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

// Exactly one of --delta / --eps.
void require_one(CLI::Option* delta, CLI::Option* eps, const std::string& mode) {
  if (delta->count() == eps->count())
    throw UsageError(fmt::format("give exactly one of --delta and --eps {}", mode));
}

// One row of --batch: the five numbers, checked, with the row and column in errors.
struct BatchRow {
  Gaussian p, q;
  double delta;
};

BatchRow read_row(const CsvReader& csv, const std::size_t (&col)[5]) {
  auto positive = [&](std::size_t c) {
    const double v = csv.number(c);
    if (!(v > 0))
      throw DataError(fmt::format("{} must be > 0, got {}", csv.header()[c], v), csv.where(c));
    return v;
  };
  BatchRow row{{csv.number(col[0]), positive(col[1])},
               {csv.number(col[2]), positive(col[3])},
               csv.number(col[4])};
  if (!(row.delta > 0 && row.delta < 1))
    throw DataError(fmt::format("delta must be in (0,1), got {}", row.delta), csv.where(col[4]));
  return row;
}

int run_batch(const std::string& input, bool json) {
  CsvReader csv(input);
  const std::size_t col[5] = {csv.column("mu1"), csv.column("sigma1"), csv.column("mu2"),
                              csv.column("sigma2"), csv.column("delta")};
  AtomicOutput out("-");
  std::size_t rows = 0;
  while (csv.next()) {
    ++rows;
    const BatchRow r = read_row(csv, col);
    double eps;
    try {
      eps = two_gaussian_epsilon(r.p, r.q, r.delta);
    } catch (const Error& e) {  // a bad row is bad data: exit 1, with its row
      throw DataError(e.what(), fmt::format("{}, row {}", csv.source(), csv.line()));
    }
    if (json) {
      out.stream() << json_line({{"line", csv.line()},
                                 {"mu1", r.p.mean},
                                 {"sigma1", r.p.stddev},
                                 {"mu2", r.q.mean},
                                 {"sigma2", r.q.stddev},
                                 {"delta", r.delta},
                                 {"eps", json_number(eps)}});
    } else {
      out.stream() << format_number(eps) << '\n';
    }
  }
  if (rows == 0) throw DataError("no rows after the header", csv.source());
  out.commit();
  return kExitOk;
}

// Prints `primary` alone, or the whole JSON object.
int print(bool json, double primary, const Json& everything) {
  AtomicOutput out("-");
  out.stream() << (json ? json_line(everything) : format_number(primary) + "\n");
  out.commit();
  return kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Exact (eps, delta) between two Gaussians N(mu1,sigma1^2) and N(mu2,sigma2^2), both "
      "directions\n"
      "(003 Sec. 3.2; unequal variances handled), between the cosine null of 003 Thm 3.1 in d "
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
      app.add_option("--null", null_name,
                     "exact (003 Thm 3.1, incomplete beta) or gaussian (N(0,1/d), Thm 3.2)")
          ->capture_default_str()
          ->check(CLI::IsMember({"exact", "gaussian"}));
  auto* mu_opt = app.add_option("--mu", mu, "mean of the Gaussian compared with the null")
                     ->check(cli::finite());
  auto* sigma_opt =
      app.add_option(
             "--sigma", sigma,
             "its standard deviation; with --gaussian-mechanism the noise standard deviation")
          ->check(cli::positive());
  auto* mechanism_opt =
      app.add_flag("--gaussian-mechanism", mechanism,
                   "the Gaussian mechanism with sensitivity 1: --sigma --delta prints eps, "
                   "--eps --delta prints sigma, --sigma --eps prints delta");
  auto* batch_opt =
      app.add_flag("--batch", batch,
                   "read CSV rows mu1,sigma1,mu2,sigma2,delta (header, columns by name) and print "
                   "one eps per row");
  auto* input_opt = app.add_option("input", input, "CSV input of --batch; - or none: stdin");
  app.add_flag("--json", json,
               "print one JSON object (one per row with --batch) with inputs and result");

  return cli::run(app, argc, argv, [&]() -> int {
    const std::vector<CLI::Option*> two = {mu1_opt, sigma1_opt, mu2_opt, sigma2_opt};
    const std::vector<CLI::Option*> null = {null_dim_opt, mu_opt};
    if (!batch_opt->count()) cli::forbid_options({input_opt}, "without --batch");
    if (batch) {
      cli::forbid_options(two, "with --batch");
      cli::forbid_options(null, "with --batch");
      cli::forbid_options({null_opt, sigma_opt, mechanism_opt, delta_opt, eps_opt}, "with --batch");
      return run_batch(input, json);
    }
    if (mechanism) {
      const std::string mode = "with --gaussian-mechanism";
      cli::forbid_options(two, mode);
      cli::forbid_options(null, mode);
      cli::forbid_options({null_opt}, mode);
      if (sigma_opt->count() + delta_opt->count() + eps_opt->count() != 2)
        throw UsageError("--gaussian-mechanism takes two of --sigma, --eps and --delta");
      if (!sigma_opt->count()) {
        const double s = gaussian_mechanism_sigma(eps, delta);
        return print(json, s,
                     {{"mode", "gaussian-mechanism"},
                      {"eps", json_number(eps)},
                      {"delta", delta},
                      {"sigma", s}});
      }
      if (!eps_opt->count()) {
        const double e = gaussian_mechanism_epsilon(sigma, delta);
        return print(json, e,
                     {{"mode", "gaussian-mechanism"},
                      {"sigma", sigma},
                      {"delta", delta},
                      {"eps", json_number(e)}});
      }
      const double d = gaussian_mechanism_delta(sigma, eps);
      return print(json, d,
                   {{"mode", "gaussian-mechanism"},
                    {"sigma", sigma},
                    {"eps", json_number(eps)},
                    {"delta", d}});
    }
    if (null_dim_opt->count()) {
      const std::string mode = "with --null-dim";
      cli::forbid_options(two, mode);
      cli::require_options({mu_opt, sigma_opt}, mode);
      require_one(delta_opt, eps_opt, mode);
      const NullKind kind = null_name == "exact" ? NullKind::exact : NullKind::gaussian;
      Json j = {{"mode", "null"},
                {"null", null_name},
                {"null_dim", null_dim},
                {"mu", mu},
                {"sigma", sigma}};
      if (delta_opt->count()) {
        const double e = null_vs_gaussian_epsilon(null_dim, kind, {mu, sigma}, delta);
        j["delta"] = delta;
        j["eps"] = json_number(e);
        return print(json, e, j);
      }
      const double d = null_vs_gaussian_delta(null_dim, kind, {mu, sigma}, eps);
      j["eps"] = json_number(eps);
      j["delta"] = d;
      return print(json, d, j);
    }
    const std::string mode =
        "for two Gaussians (or give --null-dim, --gaussian-mechanism or --batch)";
    cli::forbid_options({mu_opt, sigma_opt, null_opt},
                        "without --null-dim or --gaussian-mechanism");
    cli::require_options(two, mode);
    require_one(delta_opt, eps_opt, mode);
    Json j = {{"mode", "two-gaussian"},
              {"mu1", mu1},
              {"sigma1", sigma1},
              {"mu2", mu2},
              {"sigma2", sigma2}};
    if (delta_opt->count()) {
      const double e = two_gaussian_epsilon({mu1, sigma1}, {mu2, sigma2}, delta);
      j["delta"] = delta;
      j["eps"] = json_number(e);
      return print(json, e, j);
    }
    const double d = two_gaussian_delta({mu1, sigma1}, {mu2, sigma2}, eps);
    j["eps"] = json_number(eps);
    j["delta"] = d;
    return print(json, d, j);
  });
}
