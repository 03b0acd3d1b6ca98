#include "tool.hpp"

#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "accounting/analytic_gaussian.hpp"
#include "accounting/cosine_null.hpp"
#include "accounting/two_gaussian.hpp"
#include "cli/output.hpp"
#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/csv.hpp"
#include "io/json.hpp"

namespace dpaudit::eps_gauss2 {
namespace {

using Given = std::vector<std::pair<std::string, bool>>;

// Exactly one of --delta / --eps.
void require_one(const Options& o, const std::string& mode) {
  if (o.delta.has_value() == o.eps.has_value())
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

int run_batch(const Options& o, std::istream& in, std::ostream& out) {
  CsvReader csv(o.input.value_or("-"), in);
  const std::size_t col[5] = {csv.column("mu1"), csv.column("sigma1"), csv.column("mu2"),
                              csv.column("sigma2"), csv.column("delta")};
  std::string text;
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
    text += o.json ? json_line({{"line", csv.line()},
                                {"mu1", r.p.mean},
                                {"sigma1", r.p.stddev},
                                {"mu2", r.q.mean},
                                {"sigma2", r.q.stddev},
                                {"delta", r.delta},
                                {"eps", json_number(eps)}})
                   : format_number(eps) + '\n';
  }
  if (rows == 0) throw DataError("no rows after the header", csv.source());
  cli::write_output("-", text, out);
  return 0;
}

// Prints `primary` alone, or the whole JSON object.
int print(const Options& o, double primary, const Json& everything, std::ostream& out) {
  cli::write_output("-",
                    cli::format_output(
                        cli::output_format(o.json, false),
                        [&] { return format_number(primary) + "\n"; }, [&] { return everything; }),
                    out);
  return 0;
}

int run_mechanism(const Options& o, const Given& two, const Given& null, std::ostream& out) {
  const std::string mode = "with --gaussian-mechanism";
  cli::forbid_given(two, mode);
  cli::forbid_given(null, mode);
  cli::forbid_given({{"--null", o.null.has_value()}}, mode);
  if (o.sigma.has_value() + o.delta.has_value() + o.eps.has_value() != 2)
    throw UsageError("--gaussian-mechanism takes two of --sigma, --eps and --delta");
  if (!o.sigma) {
    const double s = gaussian_mechanism_sigma(*o.eps, *o.delta);
    return print(o, s,
                 {{"mode", "gaussian-mechanism"},
                  {"eps", json_number(*o.eps)},
                  {"delta", *o.delta},
                  {"sigma", s}},
                 out);
  }
  if (!o.eps) {
    const double e = gaussian_mechanism_epsilon(*o.sigma, *o.delta);
    return print(o, e,
                 {{"mode", "gaussian-mechanism"},
                  {"sigma", *o.sigma},
                  {"delta", *o.delta},
                  {"eps", json_number(e)}},
                 out);
  }
  const double d = gaussian_mechanism_delta(*o.sigma, *o.eps);
  return print(o, d,
               {{"mode", "gaussian-mechanism"},
                {"sigma", *o.sigma},
                {"eps", json_number(*o.eps)},
                {"delta", d}},
               out);
}

int run_null(const Options& o, const Given& two, std::ostream& out) {
  const std::string mode = "with --null-dim";
  cli::forbid_given(two, mode);
  cli::require_given({{"--mu", o.mu.has_value()}, {"--sigma", o.sigma.has_value()}}, mode);
  require_one(o, mode);
  const std::string null_name = o.null.value_or("exact");
  const NullKind kind = null_name == "exact" ? NullKind::exact : NullKind::gaussian;
  Json j = {{"mode", "null"},
            {"null", null_name},
            {"null_dim", *o.null_dim},
            {"mu", *o.mu},
            {"sigma", *o.sigma}};
  if (o.delta) {
    const double e = null_vs_gaussian_epsilon(*o.null_dim, kind, {*o.mu, *o.sigma}, *o.delta);
    j["delta"] = *o.delta;
    j["eps"] = json_number(e);
    return print(o, e, j, out);
  }
  const double d = null_vs_gaussian_delta(*o.null_dim, kind, {*o.mu, *o.sigma}, *o.eps);
  j["eps"] = json_number(*o.eps);
  j["delta"] = d;
  return print(o, d, j, out);
}

int run_two_gaussians(const Options& o, const Given& two, std::ostream& out) {
  const std::string mode =
      "for two Gaussians (or give --null-dim, --gaussian-mechanism or --batch)";
  cli::forbid_given({{"--mu", o.mu.has_value()},
                     {"--sigma", o.sigma.has_value()},
                     {"--null", o.null.has_value()}},
                    "without --null-dim or --gaussian-mechanism");
  cli::require_given(two, mode);
  require_one(o, mode);
  const Gaussian p{*o.mu1, *o.sigma1}, q{*o.mu2, *o.sigma2};
  Json j = {{"mode", "two-gaussian"},
            {"mu1", p.mean},
            {"sigma1", p.stddev},
            {"mu2", q.mean},
            {"sigma2", q.stddev}};
  if (o.delta) {
    const double e = two_gaussian_epsilon(p, q, *o.delta);
    j["delta"] = *o.delta;
    j["eps"] = json_number(e);
    return print(o, e, j, out);
  }
  const double d = two_gaussian_delta(p, q, *o.eps);
  j["eps"] = json_number(*o.eps);
  j["delta"] = d;
  return print(o, d, j, out);
}

int body(const Options& o, std::istream& in, std::ostream& out) {
  const Given two = {{"--mu1", o.mu1.has_value()},
                     {"--sigma1", o.sigma1.has_value()},
                     {"--mu2", o.mu2.has_value()},
                     {"--sigma2", o.sigma2.has_value()}};
  const Given null = {{"--null-dim", o.null_dim.has_value()}, {"--mu", o.mu.has_value()}};
  if (!o.batch) cli::forbid_given({{"input", o.input.has_value()}}, "without --batch");
  if (o.batch) {
    cli::forbid_given(two, "with --batch");
    cli::forbid_given(null, "with --batch");
    cli::forbid_given({{"--null", o.null.has_value()},
                       {"--sigma", o.sigma.has_value()},
                       {"--gaussian-mechanism", o.mechanism},
                       {"--delta", o.delta.has_value()},
                       {"--eps", o.eps.has_value()}},
                      "with --batch");
    return run_batch(o, in, out);
  }
  if (o.mechanism) return run_mechanism(o, two, null, out);
  if (o.null_dim) return run_null(o, two, out);
  return run_two_gaussians(o, two, out);
}

}  // namespace

int run(const Options& options, std::istream& in, std::ostream& out, std::ostream& err) {
  return cli::guarded("eps-gauss2", err, [&] { return body(options, in, out); });
}

}  // namespace dpaudit::eps_gauss2
