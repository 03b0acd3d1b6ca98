// eps-from-scores' option rules (stats/estimate_request.hpp's validate() and the tool's
// own, tools/eps-from-scores), called in-process with argument vectors: for each rule the
// exit status and the exact line on stderr. The expected lines are the ones the tool
// printed before its rules moved into the library (issue 21), byte for byte; the accepted
// combinations' outputs are closed forms.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "tool.hpp"
#include "tool_run.hpp"

using namespace dpaudit;

namespace {

// 10 in scores (2, 2.01, ..., 2.09) above 10 out scores (0, 0.01, ..., 0.09).
std::string separated() {
  std::string csv = "label,score\n";
  for (int i = 0; i < 10; ++i)
    csv += "1," + std::to_string(2 + i / 100.0) + "\n0," + std::to_string(i / 100.0) + "\n";
  return csv;
}

// Matsumoto et al. 2022's example: 100 in trials with 20 guessed out (FNR 0.2), 100 out
// trials with 10 guessed in (FPR 0.1).
std::string decisions() {
  std::string csv = "label,guess\n";
  for (int i = 0; i < 100; ++i) csv += i < 20 ? "1,0\n" : "1,1\n";
  for (int i = 0; i < 100; ++i) csv += i < 10 ? "0,1\n" : "0,0\n";
  return csv;
}

const std::string SEP = separated();
const std::string DEC = decisions();
// Two rounds: in round 1 the rule score >= 0.6 has FNR = FPR = 1/3; round 2 separates.
const std::string HAND =
    "label,score,round\n1,0.1,1\n1,0.6,1\n1,0.8,1\n0,0.2,1\n0,0.5,1\n0,0.9,1\n1,3,2\n1,1,2\n"
    "0,-1,2\n0,-3,2\n";
const std::string HAND1 = "label,score\n1,0.1\n1,0.6\n1,0.8\n0,0.2\n0,0.5\n0,0.9\n";
// gauss-fit: in {1,3} = N(2,1), out {-1,1} = N(0,1).
const std::string GAUSS = "label,score\n1,1\n1,3\n0,-1\n0,1\n";
// Cosines without a dim column.
const std::string COS = "label,score\n1,0.1\n1,0.3\n0,0.05\n";
// Three in and one out score tied at 1: the top two end inside the tie.
const std::string TIE = "label,score\n1,1\n1,1\n1,1\n0,1\n0,0\n0,0\n";

// eps-from-scores' options and body (tools/eps-from-scores), as its main() binds them.
tool_test::Body declare(CLI::App& app) {
  const auto line = std::make_shared<eps_from_scores::CommandLine>(app);
  return [line](std::istream& in, std::ostream& out, std::ostream& err) {
    return eps_from_scores::run(line->options(), in, out, err);
  };
}

tool_test::Run run_tool(const std::string& args, const std::string& input) {
  return tool_test::run_tool("eps-from-scores", declare, args, input);
}

void check_refusals(const std::vector<tool_test::Refusal>& refusals) {
  tool_test::check_refusals("eps-from-scores", declare, refusals);
}

double number(const std::string& line) {
  return std::stod(line);
}

}  // namespace

TEST_CASE(
    "eps-from-scores: the general rules: multi-split's --splits, one-run-fdp's --curve, --seed "
    "with one threshold, and what the curve test takes") {
  check_refusals({
      {SEP, "--splits 5", 2, "--splits is for --thresholds multi-split"},
      {SEP, "--curve dp", 2, "--curve is for --method one-run-fdp"},
      {SEP, "--seed 3 --threshold 0.5", 2,
       "--seed has nothing to seed with one fixed --threshold (it seeds splits and --bootstrap)"},
      {SEP, "--against-curve curve.csv -m threshold", 2,
       "--method cannot be used with --against-curve"},
      {SEP, "--against-curve curve.csv --delta 0.1", 2,
       "--delta cannot be used with --against-curve"},
      {SEP, "--against-curve curve.csv --null-dim 100", 2,
       "--null-dim cannot be used with --against-curve"},
      {SEP, "--against-curve curve.csv --null exact", 2,
       "--null cannot be used with --against-curve"},
      {SEP, "--against-curve curve.csv --one-sided", 2,
       "--one-sided cannot be used with --against-curve"},
      {HAND, "--against-curve curve.csv --per round", 2,
       "--per cannot be used with --against-curve"},
      {SEP, "--against-curve curve.csv --fail-above 1", 2,
       "--fail-above cannot be used with --against-curve"},
      {SEP, "--against-curve curve.csv --bootstrap 20 --json", 2,
       "--bootstrap cannot be used with --against-curve"},
      {SEP, "--against-curve curve.csv --tpr-at 0.1 --json", 2,
       "--tpr-at cannot be used with --against-curve"},
      {SEP, "--against-curve curve.csv --guesses 3", 2,
       "--guesses cannot be used with --against-curve"},
  });
}

TEST_CASE(
    "eps-from-scores: the rules of the details: --bootstrap for point estimates, "
    "--jackknife-groups for threshold's BCa, --bootstrap and --tpr-at add to --json or --report") {
  check_refusals({
      {SEP, "--bootstrap 20 --json", 2,
       "--bootstrap is for point estimates (gauss-fit, threshold); clopper-pearson already gives a "
       "confidence bound"},
      {SEP, "-m jeffreys --bootstrap 20 --report", 2,
       "--bootstrap is for point estimates (gauss-fit, threshold); jeffreys already gives a "
       "confidence bound"},
      {GAUSS, "-m gauss-fit --delta 1e-5 --bootstrap 20 --jackknife-groups 10 --json", 2,
       "--jackknife-groups is for the BCa interval of --method threshold (gauss-fit's interval has "
       "no jackknife)"},
      {GAUSS, "-m gauss-fit --delta 1e-5 --bootstrap 20", 2,
       "--bootstrap adds to --json and --report: give one"},
      {SEP, "--tpr-at 0.1", 2, "--tpr-at adds to --json and --report: give one"},
      {SEP, "-m one-run --tpr-at 0.1 --json", 2,
       "--tpr-at cannot be used with --method one-run (no score summary)"},
      {SEP, "-m gdp --delta 1e-5 --tpr-at 0.1 --report", 2,
       "--tpr-at cannot be used with --method gdp (no score summary)"},
  });
}

TEST_CASE(
    "eps-from-scores: the rules of the inputs: --guesses for the one-run methods; --per, "
    "--decisions, the null and --one-sided for the rate-based ones") {
  check_refusals({
      {SEP, "--guesses 10", 2, "--guesses is for --method one-run or one-run-fdp"},
      {HAND, "-m gdp --delta 1e-5 --per round", 2,
       "gdp takes no --per, --decisions, --null-dim, --null or --one-sided"},
      {SEP, "-m one-run --one-sided", 2,
       "one-run takes no --per, --decisions, --null-dim, --null or --one-sided"},
      {COS, "-m one-run-fdp --null-dim 100", 2,
       "one-run-fdp takes no --per, --decisions, --null-dim, --null or --one-sided"},
      {DEC, "--decisions - -m gdp --delta 0.1", 2,
       "gdp takes no --per, --decisions, --null-dim, --null or --one-sided"},
  });
}

TEST_CASE(
    "eps-from-scores: the rules of --decisions (one decision rule), and of --bootstrap with --per "
    "round or a split") {
  check_refusals({
      {DEC, "--decisions - --thresholds max", 2,
       "--decisions is one decision rule: no --thresholds, --threshold or --negate"},
      {DEC, "--decisions - --threshold 0.5", 2,
       "--decisions is one decision rule: no --thresholds, --threshold or --negate"},
      {DEC, "--decisions - --negate", 2,
       "--decisions is one decision rule: no --thresholds, --threshold or --negate"},
      {DEC, "--decisions - -m threshold --bootstrap 20 --json", 2,
       "--bootstrap cannot be used with --decisions (one decision rule, no scores)"},
      {DEC, "--decisions - --tpr-at 0.1 --json", 2,
       "--tpr-at cannot be used with --decisions (one decision rule, no scores)"},
      {HAND, "--per round -m threshold --bootstrap 20 --json", 2,
       "--bootstrap is for one estimate: not with --per round"},
      {SEP, "-m threshold --thresholds split --bootstrap 20 --json", 2,
       "--bootstrap cannot resample a --thresholds split or multi-split estimate (each replicate "
       "would reuse the seed's split): the threshold method's max is the point estimate"},
      {SEP, "-m threshold --thresholds multi-split --bootstrap 20 --json", 2,
       "--bootstrap cannot resample a --thresholds split or multi-split estimate (each replicate "
       "would reuse the seed's split): the threshold method's max is the point estimate"},
  });
}

TEST_CASE("eps-from-scores: each estimator's own rules: gauss-fit, one-run-fdp, gdp, canife") {
  check_refusals({
      {GAUSS, "-m gauss-fit --delta 1e-5 --one-sided", 2,
       "gauss-fit takes no --thresholds, --threshold, --one-sided or --decisions"},
      {GAUSS, "-m gauss-fit --delta 1e-5 --thresholds max", 2,
       "gauss-fit takes no --thresholds, --threshold, --one-sided or --decisions"},
      {DEC, "--decisions - -m gauss-fit --delta 1e-5", 2,
       "gauss-fit takes no --thresholds, --threshold, --one-sided or --decisions"},
      {GAUSS, "-m gauss-fit", 2,
       "gauss-fit needs --delta in (0,1): between two Gaussians epsilon is infinite at delta 0"},
      {SEP, "-m one-run-fdp", 2,
       "one-run-fdp against the Gaussian curve needs --delta in (0,1) (no Gaussian mechanism is "
       "(eps, 0)-DP); --curve dp takes delta 0"},
      {SEP, "-m gdp", 2,
       "gdp needs --delta in (0,1): mu-GDP is not (eps, 0)-DP for any finite eps"},
      {SEP, "-m gdp --delta 0", 2,
       "gdp needs --delta in (0,1): mu-GDP is not (eps, 0)-DP for any finite eps"},
      {SEP, "-m canife", 2, "the canife method is per audit round: give --per round (--method)"},
      {HAND, "--per round -m canife --thresholds max", 2,
       "--thresholds cannot be used with --method canife"},
      {HAND, "--per round -m canife --threshold 1", 2,
       "--threshold cannot be used with --method canife"},
      {HAND, "--per round -m canife --one-sided", 2,
       "--one-sided cannot be used with --method canife"},
      {HAND, "--per round -m canife --null-dim 100", 2,
       "--null-dim cannot be used with --method canife"},
      {HAND, "--per round -m canife --null exact", 2, "--null cannot be used with --method canife"},
      {HAND, "--per round -m canife --negate", 2, "--negate cannot be used with --method canife"},
      {HAND, "--per round -m canife --json", 2, "--json cannot be used with --method canife"},
      {HAND, "--per round -m canife --report", 2, "--report cannot be used with --method canife"},
      {HAND, "--per round -m canife --guesses 3", 2,
       "--guesses cannot be used with --method canife"},
      {HAND, "--per round -m canife --seed 3", 2, "--seed cannot be used with --method canife"},
      {HAND, "--per round -m canife --splits 3", 2, "--splits is for --thresholds multi-split"},
      {HAND, "--per round -m canife --tpr-at 0.1", 2,
       "--tpr-at adds to --json and --report: give one"},
      {HAND, "--per round -m canife --bootstrap 20", 2,
       "--bootstrap is for point estimates (gauss-fit, threshold); canife already gives a "
       "confidence bound"},
  });
}

TEST_CASE(
    "eps-from-scores: the rules that need the data: the null's dimension, the guess counts, "
    "one-run's strategies, tied scores") {
  check_refusals({
      {COS, "--null exact --delta 1e-5", 2,
       "--null needs --null-dim: the scores have no dim column"},
      {SEP, "-m one-run --guesses 15:10", 2, "15 + 10 guesses exceed the 20 canaries (--guesses)"},
      {SEP, "-m one-run --guesses 0", 2, "one-run needs at least one guess (--guesses)"},
      {SEP, "-m one-run --thresholds uncorrected", 2,
       "one-run has no error rates to spend alpha on: uncorrected is for the rate-based methods; "
       "max is its uncorrected search (--thresholds)"},
      {TIE, "-m one-run --guesses 2", 1,
       "the 2 highest scores end inside tied scores (1): guess a different number (stdin)"},
  });
}

TEST_CASE(
    "eps-from-scores: the tool's own rules: --guesses and --tpr-at as text, --in without --out, "
    "two stdins") {
  check_refusals({
      {SEP, "-m one-run --guesses abc", 2, "'abc' is not K or K+:K- (whole numbers) (--guesses)"},
      {SEP, "-m one-run-fdp --delta 1e-5 --guesses 5:", 2,
       "'5:' is not K or K+:K- (whole numbers) (--guesses)"},
      {SEP, "--tpr-at 2 --json", 2,
       "'2' is not a false-positive rate in [0,1] (in '2') (--tpr-at)"},
      {SEP, "--tpr-at 0.1,0.1 --json", 2, "0.1 is listed twice (--tpr-at)"},
      {SEP, "--tpr-at 0.1,,0.2 --report", 2,
       "'' is not a false-positive rate in [0,1] (in '0.1,,0.2') (--tpr-at)"},
      {SEP, "--in in.npy", 2, "--in needs --out (or --null-dim)"},
      {SEP, "--against-curve -", 2, "the scores and the curve cannot both be stdin"},
  });
}

TEST_CASE(
    "eps-from-scores: the rules CLI11 checks while parsing: excludes, needs, the values' ranges") {
  check_refusals({
      {SEP, "--json --report", 2, "--json excludes --report"},
      {SEP, "--threshold 1 --thresholds max", 2, "--thresholds excludes --threshold"},
      {DEC, "--decisions - --null-dim 100", 2, "--decisions excludes --null-dim"},
      {HAND, "--per round --decisions -", 2, "--decisions excludes --per"},
      {SEP, "--jackknife-groups 10", 2, "--jackknife-groups requires --bootstrap"},
      {SEP, "-m one-run --guesses 10 --thresholds max", 2, "--thresholds excludes --guesses"},
      {SEP, "--fail-on-refute", 2, "--fail-on-refute requires --against-curve"},
      {SEP, "--out out.npy", 2, "--out requires --in"},
      {SEP, "-m bayes", 2,
       "--method: (bayes not in {clopper-pearson,gauss-fit,jeffreys,threshold}) OR (bayes not in "
       "{canife,one-run,one-run-fdp,gdp})"},
      {SEP, "--delta 1", 2, "--delta: value 1 is not in [0,1)"},
  });
}

TEST_CASE("eps-from-scores: accepted combinations print their known answers") {
  // Separated classes: the threshold estimate is inf.
  tool_test::Run r = run_tool("-m threshold", SEP);
  CHECK(r.status == 0);
  CHECK(r.out == "inf\n");
  CHECK(r.err == "");
  CHECK(run_tool("-m threshold --fail-above inf", SEP).out == "inf\n");
  // The hand example: FNR = FPR = 1/3 at score >= 0.6, eps = log 2.
  r = run_tool("-m threshold", HAND1);
  CHECK(r.status == 0);
  CHECK(number(r.out) == doctest::Approx(std::log(2.0)).epsilon(1e-14));
  // Matsumoto et al. 2022's decisions: log((1 - 0.2)/0.1) = log 8.
  r = run_tool("--decisions - -m threshold", DEC);
  CHECK(number(r.out) == doctest::Approx(std::log(8.0)).epsilon(1e-14));
  // Per round at delta 1/n: round 1 log((1 - 1/6 - 1/3)/(1/3)) = log 1.5, round 2 inf.
  r = run_tool("--per round -m threshold", HAND);
  CHECK(r.status == 0);
  CHECK(r.out.rfind("round,epsilon\n1,", 0) == 0);
  CHECK(number(r.out.substr(16)) == doctest::Approx(std::log(1.5)).epsilon(1e-14));
  CHECK(r.out.substr(r.out.size() - 6) == "2,inf\n");
  // Two unit Gaussians 2 apart at delta 1e-5: 9.997256146434298 (Balle & Wang 2018's
  // analytic Gaussian mechanism, solved by scipy's brentq); gauss-fit notes its assumption.
  r = run_tool("-m gauss-fit --delta 1e-5", GAUSS);
  CHECK(number(r.out) == doctest::Approx(9.997256146434298).epsilon(1e-7));
  CHECK(r.err ==
        "eps-from-scores: note: this epsilon assumes Gaussian scores on each side and is an "
        "estimate, not a lower bound (clopper-pearson gives one for every mechanism)\n");
  // Clopper-Pearson at the best threshold, each rate at alpha/2 over 10 trials:
  // log((1 - u)/u), u = 1 - 0.025^(1/10); the note names the flag of the library's {thresholds}.
  r = run_tool("--thresholds max", SEP);
  const double u = 1 - std::pow(0.025, 0.1);
  CHECK(number(r.out) == doctest::Approx(std::log((1 - u) / u)).epsilon(1e-12));
  CHECK(r.err ==
        "eps-from-scores: note: this epsilon takes the best rule without paying for the choice: "
        "its confidence is over-stated, not a valid bound (--thresholds bonferroni, split or "
        "multi-split give one)\n");
  // Bonferroni over the 20 distinct scores: each rate at 0.05/40; under the budget of 1.
  r = run_tool("--fail-above 1", SEP);
  const double v = 1 - std::pow(0.05 / 40, 0.1);
  CHECK(r.status == 0);
  CHECK(number(r.out) == doctest::Approx(std::log((1 - v) / v)).epsilon(1e-12));
  CHECK(r.err == "");
}

namespace {

// A file the tool reads by name, removed at scope exit.
struct TempFile {
  std::string path;
  TempFile(const std::string& name, const std::string& text) : path("test_eps_shard_" + name) {
    std::ofstream(path) << text;
  }
  ~TempFile() { std::remove(path.c_str()); }
};

// DEC's 200 decisions as trials 0..199 (trial t: DEC's row t + 1), shard [first, last) of a
// run of 200 trials with config hash `hash` and seed `seed`.
std::string decision_shard(int first, int last, const std::string& hash = "a97ff75d8e83ec7a",
                           int seed = 1) {
  std::istringstream rows(DEC);
  std::string line, csv = "label,guess,trial,config_hash,seed,trial_range,trials\n";
  std::getline(rows, line);  // the header
  for (int t = 0; std::getline(rows, line); ++t)
    if (t >= first && t < last)
      csv += line + "," + std::to_string(t) + "," + hash + "," + std::to_string(seed) + "," +
             std::to_string(first) + ":" + std::to_string(last) + ",200\n";
  return csv;
}

// n trials of a score game that separates perfectly (in 1, out 0), as dp-train sgd writes them.
std::string perfect_trials(int n) {
  std::string csv = "trial,label,score\n";
  for (int t = 0; t < n; ++t) csv += std::to_string(t) + ",0,0\n" + std::to_string(t) + ",1,1\n";
  return csv;
}

}  // namespace

TEST_CASE("eps-from-scores: shards merged in any order, or refused with the files and trials") {
  const TempFile a("a.csv", decision_shard(0, 50)), b("b.csv", decision_shard(50, 120)),
      c("c.csv", decision_shard(120, 200));
  const std::string unsharded = run_tool("--decisions - -m clopper-pearson", DEC).out;
  const tool_test::Run merged =
      run_tool("--decisions " + c.path + " " + a.path + " " + b.path + " -m clopper-pearson", "");
  CHECK(merged.status == 0);
  CHECK(merged.err == "");
  CHECK(merged.out == unsharded);  // byte for byte
  // Matsumoto et al. 2022's example, as above: log 8.
  CHECK(number(run_tool("--decisions " + b.path + " " + c.path + " " + a.path + " -m threshold", "")
                   .out) == doctest::Approx(std::log(8.0)).epsilon(1e-14));
  const TempFile hash("hash.csv", decision_shard(120, 200, "0123456789abcdef")),
      seed("seed.csv", decision_shard(120, 200, "a97ff75d8e83ec7a", 2)),
      overlap("overlap.csv", decision_shard(100, 200)), plain("plain.csv", DEC);
  const std::string ab = a.path + " " + b.path + " ";
  const std::string files[] = {ab + hash.path, ab + seed.path, ab + overlap.path,
                               a.path + " " + c.path, ab + plain.path};
  const std::string args[] = {"--decisions " + files[0], "--decisions " + files[1],
                              "--decisions " + files[2], "--decisions " + files[3],
                              "--decisions " + files[4]};
  check_refusals({
      {DEC, args[0].c_str(), 1,
       "shards of different configurations, hash a97ff75d8e83ec7a and 0123456789abcdef "
       "(test_eps_shard_a.csv, test_eps_shard_hash.csv)"},
      {DEC, args[1].c_str(), 1,
       "shards of different seeds, 1 and 2 (test_eps_shard_a.csv, test_eps_shard_seed.csv)"},
      {DEC, args[2].c_str(), 1,
       "trials 100 to 119 are in two shards, 50:120 and 100:200 (test_eps_shard_b.csv, "
       "test_eps_shard_overlap.csv)"},
      {DEC, args[3].c_str(), 1,
       "trials 50 to 119 of the run's 0:200 are in no shard (after test_eps_shard_a.csv's 0:50, "
       "before test_eps_shard_c.csv's 120:200)"},
      {DEC, args[4].c_str(), 1,
       "not a shard (no config_hash column): several files are read as the shards of one run "
       "(test_eps_shard_plain.csv)"},
  });
}

TEST_CASE("eps-from-scores --sequential: its bound, its gate, its refusals") {
  // The bound after 1,000 perfectly separating trials at delta 1e-5, and the trial at which it
  // first exceeds 3: tests/golden/sequential_audit.py (an independent recomputation).
  const std::string perfect = perfect_trials(1000);
  tool_test::Run r = run_tool("--sequential --delta 1e-5", perfect);
  CHECK(r.status == 0);
  CHECK(r.out == "4.93\n");
  CHECK(r.err == "");
  r = run_tool("--sequential --delta 1e-5 --fail-above 3", perfect);
  CHECK(r.status == 3);
  CHECK(r.out == "");
  CHECK(r.err ==
        "eps-from-scores: error: epsilon 3.01 (anytime-valid lower bound after 161 trials) exceeds "
        "the budget --fail-above 3 (stdin)\n");
  r = run_tool("--sequential --every 400", perfect);
  CHECK(r.err.rfind("eps-from-scores: note: 400 trials: eps_lo ", 0) == 0);
  // A repeated trial ends the run with the bound so far, then the error.
  r = run_tool("--sequential", perfect + "999,0,0\n999,1,1\n");
  CHECK(r.status == 1);
  CHECK(r.err ==
        "eps-from-scores: note: the bound after the 1000 trials before the error: eps_lo 4.93\n"
        "eps-from-scores: error: trial 999 comes after trial 999 (trial ids must increase: a "
        "repeated or reordered trial) (stdin, row 2002, column 'trial')\n");
  check_refusals({
      {perfect, "--sequential -m threshold", 2, "--method cannot be used with --sequential"},
      {perfect, "--sequential --report", 2, "--report cannot be used with --sequential"},
      {perfect, "--sequential --eps-grid 0.1", 2,
       "the grid must be STEP:MAX with 0 < STEP <= MAX, got '0.1' (--eps-grid)"},
      {perfect, "--every 10", 2, "--every requires --sequential"},
      {perfect, "--sequential a.csv b.csv", 2,
       "--sequential reads one stream of trials, not several files"},
      {SEP, "--sequential", 1, "missing column 'trial' (header: label,score) (stdin)"},
      {perfect, "--sequential --decisions -", 1, "a decision game needs a guess column (stdin)"},
  });
}
