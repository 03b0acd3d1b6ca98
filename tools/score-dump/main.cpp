// score-dump: canaries and a released model (or per-round deltas) -> CSV id,label,score[,dim]
// (dim only for single cosines).
// The scores are computed by lib/canary/score_release.hpp; the body is tool.cpp.
#include <iostream>
#include <string>

#include "cli/tool.hpp"
#include "tool.hpp"

using namespace dpaudit;

int main(int argc, char** argv) {
  CLI::App app{
      "Score canaries against a released vector: prints CSV id,label,score[,dim], one row per "
      "canary,\n"
      "label 1 for --canaries (inserted) and 0 for --unseen (never inserted). The score is the\n"
      "cosine <c,m>/(||c|| ||m||) (Andrew et al. 2024) or the dot product <c,m>. Canaries from a "
      "spec are\n"
      "regenerated on the fly: memory O(D + K).",
      "score-dump"};
  dpaudit::cli::setup(app,
                      "  score-dump --canaries canaries.json --model release.npy > scores.csv\n"
                      "  score-dump --canaries canaries.json --unseen unseen.json --model "
                      "final.npy --reference init.npy\n"
                      "  score-dump --canaries canaries.json --unseen unseen.json --deltas "
                      "deltas.npy --reduce max\n"
                      "  score-dump --canaries canaries.json --model release.npy | eps-from-scores "
                      "--null-dim 1000000 "
                      "--method gauss-fit --delta 1e-6\n"
                      "  score-dump --device cuda --canaries canaries.json --model release.npy "
                      "> scores.csv\n");
  score_dump::Options o;
  app.add_option("--canaries", o.canaries, "inserted canaries (label 1): spec or NPY K x D")
      ->required();
  app.add_option("--unseen", o.unseen, "canaries never inserted (label 0): spec or NPY");
  auto* model =
      app.add_option("--model", o.model, "released vector or model, 1-D NPY of D entries");
  app.add_option("--reference", o.reference, "score model - reference (a model delta)")
      ->needs(model);
  auto* deltas = app.add_option("--deltas", o.deltas,
                                "per-round deltas, T x D NPY (Andrew et al. 2024, Alg. 3)")
                     ->excludes(model);
  app.add_option("--reduce", o.reduce,
                 "--deltas: reduce each canary's per-round scores by max or mean")
      ->capture_default_str()
      ->check(CLI::IsMember({"max", "mean"}))
      ->needs(deltas);
  app.add_option("--stat", o.stat, "cosine or dot")
      ->capture_default_str()
      ->check(CLI::IsMember({"cosine", "dot"}));
  app.add_option("--device", o.device,
                 "cpu, or cuda: regenerate and sum spec canaries on a CUDA GPU (same bits; only "
                 "in a build where nvcc was found)")
      ->capture_default_str()
      ->check(CLI::IsMember({"cpu", "cuda"}));
  app.add_option("--threads", o.threads, "threads (0: all cores); the output does not depend on it")
      ->capture_default_str()
      ->check(dpaudit::cli::thread_count());
  app.add_option("--cache-mb", o.cache_mb,
                 "keep the canaries in memory when they fit in this many MB (speeds up --deltas)")
      ->capture_default_str()
      ->check(dpaudit::cli::non_negative());
  app.add_option("-o,--output", o.output, "CSV output; - = stdout")->capture_default_str();
  app.add_flag("-q,--quiet", o.quiet, "no progress (shown only on a terminal) or notes on stderr");

  return dpaudit::cli::run(app, argc, argv, [&] { return score_dump::run(o, std::cerr); });
}
