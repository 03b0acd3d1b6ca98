// rdp-compose: the analytic eps of the subsampled Gaussian mechanism (Poisson or without
// replacement), one segment or heterogeneous segments, by RDP (the default), PLD (with RDP
// beside it) or GDP, through the run accountant (lib/accounting/run_accountant.hpp). The
// options and their rules are options.cpp's; the body, callable in-process, compose.cpp's.
#include <iostream>
#include <string>

#include "cli/exit_status.hpp"
#include "cli/tool.hpp"
#include "compose.hpp"
#include "io/atomic_output.hpp"
#include "options.hpp"

namespace {

const char* kExamples =
    "  rdp-compose --sigma 1.1 --q 0.01 --steps 10000 --delta 1e-5       # DP-SGD style run\n"
    "  rdp-compose --sigma 0.8 --q 1 --steps 1 --delta 1e-6               # one Gaussian "
    "mechanism\n"
    "  rdp-compose --eps 3 --q 0.01 --steps 10000 --delta 1e-5            # noise multiplier for "
    "eps 3\n"
    "  rdp-compose --events segments.csv --delta 1e-5 --json              # CSV sigma,q,steps per "
    "segment\n"
    "  rdp-compose --sigma 1 --q 0.02 --steps 500 --delta 1e-6 --orders 2,4,8,16,32\n"
    "  rdp-compose --sigma 0.7 --q 0.01 --steps 2000 --delta 1e-5 --fail-above 6   # CI gate: exit "
    "3 (7.06 > 6)\n"
    "  rdp-compose --sigma 1.1 --q 0.01 --steps 10000 --delta 1e-5 --sampling without-replacement\n"
    "  rdp-compose --accountant pld --sigma 2.2 --q 0.01 --steps 1000 --delta 1e-5 --sampling "
    "without-replacement --json\n"
    "  rdp-compose --accountant pld --sigma 0.8 --q 0.002133 --steps 469 --delta 1e-5 --json   # "
    "PLD interval + RDP\n"
    "  rdp-compose --accountant pld --eps 1 --q 0.01 --steps 10000 --delta 1e-5   # sigma by the "
    "PLD bound\n"
    "  rdp-compose --accountant pld --lattice 1e-4 --sigma 6.09 --q 0.000112 --steps 20102 --delta "
    "3.7e-6\n"
    "    # at dp_accounting's default discretisation: faster, a wider interval\n"
    "  rdp-compose --accountant gdp --sigma 1.1 --q 0.01 --steps 10000 --delta 1e-5   # CLT "
    "approximation\n"
    "  rdp-compose --sampling shuffle --sigma 1 --epochs 10 --batches 100 --delta 1e-5   # "
    "shuffled: lower bound vs Poisson\n"
    "  rdp-compose --sampling shuffle --sigma 2 --epochs 5 --batches 1000 --delta 1e-5 --json\n"
    "  rdp-compose --sampling balls-in-bins --sigma 1 --epochs 10 --batches 100 --delta 1e-5 "
    "--samples 100000\n"
    "    # random allocation: Monte Carlo bound and estimate vs Poisson\n"
    "  rdp-compose --accountant pld --sigma 1.1 --q 0.01 --steps 10000 --delta 1e-5 --release "
    "final\n"
    "    # the all-iterates bound, and below it the last-iterate heuristic (not a bound)\n"
    "  rdp-compose --accountant pld --sigma 1.1 --q 0.0042667 --steps 10000 --delta 1e-5 "
    "--accumulate 4   # 4 micro-batches a step\n"
    "  rdp-compose --accountant pld --sigma 2.2477 --q 0.1 --steps 100 --tradeoff curve.csv   # "
    "the f-DP curve it certifies\n"
    "  eps-from-scores run/scores.csv --per round --method canife |\n"
    "    rdp-compose --empirical - --q 0.0021333 --rounds 469 --round-delta 0.01 --delta 1e-5 "
    "--sigma-if-inf 0.2\n";

const char* kDescription =
    "Analytic eps after STEPS steps of the subsampled Gaussian mechanism with noise multiplier "
    "SIGMA\n"
    "and sampling rate Q (Q = 1: the plain Gaussian mechanism), or after heterogeneous segments\n"
    "(--events), by one of three accountants (--accountant):\n"
    "  rdp (default): Renyi DP, integer and fractional orders (Mironov, Talwar & Zhang 2019), "
    "RDP ->\n"
    "    (eps, delta) by Canonne, Kamath & Steinke 2020, Prop. 12, as dp_accounting and Opacus;\n"
    "  pld: the privacy-loss distribution, an interval that contains the true eps (Doroshenko et "
    "al.\n"
    "    2022), printed as the smallest sound upper bound of PLD and RDP;\n"
    "  gdp: Gaussian DP, exact for Q = 1, otherwise the CLT of Bu et al. 2020 (an "
    "approximation).\n"
    "Supported: Poisson subsampling, and a fixed batch without replacement (--sampling; "
    "replace-one\n"
    "neighbours). Prints eps alone, or with --eps the smallest noise multiplier meeting it.\n"
    "--sampling shuffle (--epochs, --batches): a certified lower bound on the eps of shuffled "
    "batches\n"
    "(Chua et al. 2024) beside the Poisson upper bound at Q = 1/B, and which is larger.\n"
    "--sampling balls-in-bins (--epochs, --batches): each record in one uniformly drawn batch an\n"
    "epoch (Chua et al. 2025); a Monte Carlo upper bound at --confidence over --samples, and the\n"
    "plain estimate, beside the same Poisson bound.\n"
    "--release final adds the last-iterate heuristic of Steinke et al. 2025 (only the final model\n"
    "released; a target, not a bound); --accumulate M accounts M Poisson micro-batches per noisy\n"
    "step (a mixture of Gaussians, by the PLD).";

}  // namespace

int main(int argc, char** argv) {
  using namespace dpaudit;
  CLI::App app{kDescription, "rdp-compose"};
  cli::setup(app, kExamples);
  rdp_compose::CommandLine line;
  rdp_compose::declare(app, line);
  return cli::run(app, argc, argv, [&]() -> int {
    const rdp_compose::Options options = rdp_compose::validate(line);
    AtomicOutput out("-");
    rdp_compose::compose(options, std::cin, out.stream(),
                         [&](const std::string& message) { cli::note(app, message); });
    out.commit();
    return cli::kExitOk;
  });
}
