// rdp-compose's option rules (tools/rdp-compose/options.cpp) and its body (compose.cpp),
// called in-process with argument vectors: for each rule the exit status and the exact line
// on stderr. The expected lines are the ones the tool printed before its rules moved into
// options.cpp and the library (issue 21), byte for byte; the accepted combinations' outputs
// are closed forms.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "compose.hpp"
#include "options.hpp"
#include "tool_run.hpp"

using namespace dpaudit;

namespace {

const std::string NONE;
// One segment: sigma 2, q 1, one step.
const std::string EVENTS = "sigma,q,steps\n2,1,1\n";
// Per-round empirical eps, one of them infinite; one too large for any noise.
const std::string EMP = "round,epsilon\n1,0.5\n2,inf\n";
const std::string BIG = "round,epsilon\n1,0.5\n2,1e308\n";

// rdp-compose's options, rules and body (tools/rdp-compose), as its main() binds them.
tool_test::Body declare(CLI::App& app) {
  const auto line = std::make_shared<rdp_compose::CommandLine>();
  rdp_compose::declare(app, *line);
  return [line](std::istream& in, std::ostream& out, std::ostream& err) {
    const rdp_compose::Options options = rdp_compose::validate(*line);
    rdp_compose::compose(options, in, out,
                         [&](const std::string& note) { cli::note(err, "rdp-compose", note); });
    return 0;
  };
}

tool_test::Run run_tool(const std::string& args, const std::string& input) {
  return tool_test::run_tool("rdp-compose", declare, args, input);
}

void check_refusals(const std::vector<tool_test::Refusal>& refusals) {
  tool_test::check_refusals("rdp-compose", declare, refusals);
}

}  // namespace

TEST_CASE(
    "rdp-compose: the run's rules: --sigma, --q and --steps or --events, --eps's, --delta, and "
    "--empirical's options without it") {
  check_refusals({
      {NONE, "--sigma 1 --q 0.01 --steps 100", 2, "--delta is required (or give --tradeoff)"},
      {NONE, "--q 0.1 --steps 3 --delta 1e-5", 2, "--sigma is required (or give --events)"},
      {NONE, "--sigma 1 --steps 3 --delta 1e-5", 2, "--q is required (or give --events)"},
      {NONE, "--sigma 1 --q 0.1 --delta 1e-5", 2, "--steps is required (or give --events)"},
      {EVENTS, "--events - --sigma 1 --delta 1e-5", 2, "--sigma cannot be used with --events"},
      {EVENTS, "--events - --q 0.1 --delta 1e-5", 2, "--q cannot be used with --events"},
      {EVENTS, "--events - --steps 3 --delta 1e-5", 2, "--steps cannot be used with --events"},
      {NONE, "--eps 1 --sigma 1 --q 0.01 --steps 100 --delta 1e-5", 2,
       "--sigma cannot be used with --eps"},
      {EVENTS, "--eps 1 --events - --delta 1e-5", 2, "--events cannot be used with --eps"},
      {NONE, "--eps 1 --q 0.01 --steps 100 --delta 1e-5 --fail-above 3", 2,
       "--fail-above cannot be used with --eps"},
      {NONE, "--eps 1 --q 0.01 --steps 100 --tradeoff -", 2,
       "--tradeoff cannot be used with --eps"},
      {NONE, "--eps 1 --steps 100 --delta 1e-5", 2, "--q is required with --eps"},
      {NONE, "--eps 1 --q 0.01 --delta 1e-5", 2, "--steps is required with --eps"},
      {NONE, "--sigma 1 --q 0.1 --steps 3 --delta 1e-5 --rounds 3", 2,
       "--rounds cannot be used without --empirical"},
      {NONE, "--sigma 1 --q 0.1 --steps 3 --delta 1e-5 --round-delta 0.1", 2,
       "--round-delta cannot be used without --empirical"},
      {NONE, "--sigma 1 --q 0.1 --steps 3 --delta 1e-5 --cover forward", 2,
       "--cover cannot be used without --empirical"},
      {NONE, "--sigma 1 --q 0.1 --steps 3 --delta 1e-5 --eps-floor 0.1", 2,
       "--eps-floor cannot be used without --empirical"},
      {NONE, "--sigma 1 --q 0.1 --steps 3 --delta 1e-5 --sigma-if-inf 0.1", 2,
       "--sigma-if-inf cannot be used without --empirical"},
  });
}

TEST_CASE(
    "rdp-compose: the accountants' rules (--orders and --threads not with gdp, --lattice with pld "
    "only) and --tradeoff's") {
  check_refusals({
      {NONE, "--accountant gdp --sigma 1 --q 0.1 --steps 3 --delta 1e-5 --orders 2,3", 2,
       "--orders cannot be used with --accountant gdp"},
      {NONE, "--accountant gdp --sigma 1 --q 0.1 --steps 3 --delta 1e-5 --threads 2", 2,
       "--threads cannot be used with --accountant gdp"},
      {NONE, "--sigma 1 --q 0.1 --steps 3 --delta 1e-5 --lattice 1e-3", 2,
       "--lattice cannot be used without --accountant pld"},
      {NONE, "--sigma 1 --q 0.1 --steps 3 --tradeoff - --delta 1e-5", 2,
       "--delta cannot be used with --tradeoff (the curve holds every (eps, delta))"},
      {NONE, "--sigma 1 --q 0.1 --steps 3 --tradeoff - --json", 2,
       "--json cannot be used with --tradeoff (the curve holds every (eps, delta))"},
      {NONE, "--sigma 1 --q 0.1 --steps 3 --tradeoff - --fail-above 1", 2,
       "--fail-above cannot be used with --tradeoff (the curve holds every (eps, delta))"},
  });
}

TEST_CASE(
    "rdp-compose: --empirical's rules: the options it takes, those it needs, RDP, and its data") {
  check_refusals({
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5 --sigma 1", 2,
       "--sigma cannot be used with --empirical"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5 --steps 1", 2,
       "--steps cannot be used with --empirical"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5 --eps 1", 2,
       "--eps cannot be used with --empirical"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5 --events e.csv", 2,
       "--events cannot be used with --empirical"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5 --sampling poisson",
       2, "--sampling cannot be used with --empirical"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5 --orders 2,3", 2,
       "--orders cannot be used with --empirical"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5 --threads 1", 2,
       "--threads cannot be used with --empirical"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --tradeoff -", 2,
       "--tradeoff cannot be used with --empirical"},
      {EMP, "--empirical - --rounds 10 --round-delta 0.01 --delta 1e-5", 2,
       "--q is required with --empirical"},
      {EMP, "--empirical - --q 0.01 --round-delta 0.01 --delta 1e-5", 2,
       "--rounds is required with --empirical"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --delta 1e-5", 2,
       "--round-delta is required with --empirical"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5 --accountant pld",
       2, "--empirical composes with RDP, as Maddock et al. 2023 (--accountant)"},
      {EMP, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5", 2,
       "an infinite eps_r needs the run's noise multiplier (audit at round 2)"},
      {BIG, "--empirical - --q 0.01 --rounds 10 --round-delta 0.01 --delta 1e-5 --sigma-if-inf 0.5",
       1,
       "eps 1e+308 is met by any noise multiplier above 0.0001: an eps_r that large reads as inf "
       "(write inf, give --sigma-if-inf) (audit at round 2)"},
  });
}

TEST_CASE("rdp-compose: the values CLI11 checks while parsing") {
  check_refusals({
      {NONE, "--sigma 0 --q 0.1 --steps 3 --delta 1e-5", 2, "--sigma: value 0 is not > 0"},
      {NONE, "--accountant xyz --sigma 1 --q 0.1 --steps 3 --delta 1e-5", 2,
       "--accountant: xyz not in {rdp,pld,gdp}"},
  });
}

TEST_CASE("rdp-compose: accepted combinations print their closed forms") {
  // q = 1, one step at order 2: RDP 2/(2 sigma^2) = 1/4, then
  // eps = rdp + log(1/2) - (log delta + log 2)/1 (Canonne, Kamath & Steinke 2020, Prop. 12).
  const double order2 = 0.25 + std::log(0.5) - (std::log(1e-5) + std::log(2.0));
  for (const auto& [args, input] :
       {std::pair{"--sigma 2 --q 1 --steps 1 --delta 1e-5 --orders 2", NONE},
        std::pair{"--events - --delta 1e-5 --orders 2", EVENTS}}) {
    CAPTURE(args);
    const tool_test::Run r = run_tool(args, input);
    CHECK(r.status == 0);
    CHECK(std::stod(r.out) == doctest::Approx(order2).epsilon(1e-13));
    CHECK(r.err == "");
  }
  // q = 1, 40 steps at order 10.5: 40 * 10.5/(2 * 9).
  const tool_test::Run r = run_tool("--sigma 3 --q 1 --steps 40 --delta 1e-6 --orders 10.5", NONE);
  CHECK(std::stod(r.out) == doctest::Approx(40 * 10.5 / 18 + std::log(9.5 / 10.5) -
                                            (std::log(1e-6) + std::log(10.5)) / 9.5)
                                .epsilon(1e-13));
  // The budget: under it the eps is printed; over it exit 3 and nothing on stdout.
  CHECK(run_tool("--sigma 2 --q 1 --steps 1 --delta 1e-5 --orders 2 --fail-above 11", NONE).out ==
        run_tool("--sigma 2 --q 1 --steps 1 --delta 1e-5 --orders 2", NONE).out);
  const tool_test::Run over =
      run_tool("--sigma 2 --q 1 --steps 1 --delta 1e-5 --orders 2 --fail-above 10", NONE);
  CHECK(over.status == 3);
  CHECK(over.out == "");
}
