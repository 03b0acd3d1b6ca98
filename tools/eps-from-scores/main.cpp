// eps-from-scores: attack scores (or a game's decisions) -> an empirical epsilon, by any
// estimator of lib/stats/estimate.hpp's table. The options are command_line.cpp, the body
// tool.cpp, the printing output.cpp.
#include <malloc.h>

#include <iostream>

#include "cli/tool.hpp"
#include "command_line.hpp"
#include "tool.hpp"

namespace {

const char* kExamples =
    "  eps-from-scores scores.csv                                 # clopper-pearson, bonferroni, "
    "95%\n"
    "  eps-from-scores scores.csv --method threshold              # point estimate, max over "
    "thresholds\n"
    "  eps-from-scores scores.csv --thresholds split --seed 3     # choose on one half, bound on "
    "the other\n"
    "  eps-from-scores scores.csv --threshold 0.02 --alpha 0.01   # one fixed threshold\n"
    "  eps-from-scores cosines.csv --null-dim 101770 --delta 1e-6 # gauss-fit against the cosine "
    "null (Andrew et al. 2024, Alg. 2)\n"
    "  eps-from-scores cosines.csv --null-dim 101770 --method jeffreys   # Andrew et al. 2024 "
    "eps_lo-final\n"
    "  eps-from-scores --in seen.npy --out unseen.npy --method gauss-fit --delta 1e-5   # Andrew "
    "et al. 2024, Alg. "
    "3\n"
    "  eps-from-scores --decisions game.csv --method clopper-pearson     # a distinguishing game "
    "(Nasr et al. 2021)\n"
    "  eps-from-scores scores.csv --per round --method threshold  # eps per round, delta = 1/n per "
    "round\n"
    "  eps-from-scores run/scores.csv --per round --method canife # CANIFE's eps_r with its "
    "interval (Maddock et al. 2023)\n"
    "  eps-from-scores scores.csv --json --fail-above 4           # CI gate: exit 3 above 4\n"
    "  dp-train sgd --threat malicious-dataset --engine simulate --clip 4 --eps 2 --trials 3000 "
    "--fault no-clip |\n"
    "      eps-from-scores --sequential --delta 1e-5 --fail-above 2   # anytime-valid: exit 3 at "
    "the first trial over 2\n"
    "  eps-from-scores part2.csv part0.csv part1.csv --delta 1e-5 # shards of one run "
    "(dp-train --trial-range), any order\n"
    "  eps-from-scores --decisions game1.csv game0.csv -m threshold     # dp-train ldp's shards\n"
    "  eps-from-scores canaries.csv -m one-run --delta 1e-5       # one training run: the best of "
    "top 10, 20, 50, ...\n"
    "  eps-from-scores canaries.csv -m one-run --guesses 100:100 --delta 1e-5   # top 100 in, "
    "bottom 100 out\n"
    "  eps-from-scores canaries.csv -m one-run-fdp --delta 1e-5   # against the Gaussian curve "
    "(assumes it)\n"
    "  eps-from-scores scores.csv -m gdp --delta 1e-5 --json      # mu-GDP lower bound; its eps "
    "assumes a Gaussian curve\n"
    "  eps-from-scores scores.csv --thresholds multi-split --seed 1 --threads 2   # median of 100 "
    "split bounds\n"
    "  eps-from-scores cosines.csv --null-dim 101770 -m jeffreys --thresholds uncorrected   # "
    "Andrew et al. 2024's own eps_lo\n"
    "  eps-from-scores cosines.csv --null-dim 101770 --delta 1e-6 --bootstrap 1000 --threads 2 "
    "--json   # eps_est, 95% interval\n"
    "  eps-from-scores scores.csv --tpr-at 0.0001,0.001 --report  # TPR at FPR 0.01% and 0.1%, "
    "accuracies\n"
    "  eps-from-scores scores.csv --against-curve curve.csv --report   # against rdp-compose "
    "--tradeoff's curve\n"
    "  eps-from-scores scores.csv --against-curve curve.csv --fail-on-refute   # CI gate: exit 3 "
    "(refuted)\n";

}  // namespace

int main(int argc, char** argv) {
  // Blocks of any size come from the heap and go back to it (glibc maps each block over
  // 32 MiB afresh and unmaps it when freed): the sort's buffer of one class is then reused
  // for the other, and 10^7 scores pay ~100 MB fewer first-touch page faults (issue 26).
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  CLI::App app{
      "Turn attack scores, or the decisions of a distinguishing game, into an empirical epsilon.\n"
      "Scores: CSV with columns label (1 = in, 0 = out) and score (higher = more likely in), "
      "optional\n"
      "id, round, trial; or NPY pairs --in/--out. Prints the epsilon alone on one line (inf when "
      "the\n"
      "classes separate), or --json / --report with everything. Several CSVs are the shards of "
      "one\n"
      "run (dp-train --trial-range): checked to be trials 0:N once each, then merged.",
      "eps-from-scores"};
  dpaudit::cli::setup(app, kExamples);
  const dpaudit::eps_from_scores::CommandLine command_line(app);
  return dpaudit::cli::run(app, argc, argv, [&] {
    return dpaudit::eps_from_scores::run(command_line.options(), std::cin, std::cout, std::cerr);
  });
}
