// canary-gen: prints a canary spec (JSON), or writes the canaries as an NPY matrix.
// Canary j is a pure function of (seed, first_index + j): lib/canary/canary_spec.hpp. The
// body is tool.cpp.
#include <cstdint>
#include <iostream>
#include <string>

#include "cli/tool.hpp"
#include "tool.hpp"

int main(int argc, char** argv) {
  using namespace dpaudit;
  CLI::App app{
      "Make canaries for a privacy audit. Prints a canary spec (one line of JSON) from which "
      "every\n"
      "canary is regenerated bit-identically: sphere canaries are uniform on the unit sphere "
      "(Andrew et al. 2024),\n"
      "dummy canaries are Matsumoto et al. 2022's dummy gradient (every entry clip/sqrt(dim)), "
      "negated with --flip.\n"
      "With --npy, writes the count x dim matrix instead.",
      "canary-gen"};
  cli::setup(app,
             "  canary-gen --kind sphere --count 1000 --dim 1000000 --seed 7 > canaries.json\n"
             "  canary-gen --kind sphere --count 1000 --dim 1000000 --seed 7 --first-index 1000 > "
             "unseen.json\n"
             "  canary-gen --kind sphere --count 10 --dim 784 --seed 7 --npy -o canaries.npy\n"
             "  canary-gen --kind dummy --dim 101770 --clip 1 --flip --npy -o flipped.npy\n");
  canary_gen::Options o;
  o.spec.count = 1;
  CanarySpec& spec = o.spec;
  app.add_option("--kind", o.kind, "sphere | dummy")
      ->capture_default_str()
      ->check(CLI::IsMember({"sphere", "dummy"}));
  app.add_option("--count", spec.count, "number K of canaries")
      ->capture_default_str()
      ->check(cli::whole_number(false))
      ->check(CLI::Range(std::uint64_t{1}, kMaxCanaryCount));
  app.add_option("--dim", spec.dim, "dimension D of each canary (count x dim at most 2^50)")
      ->required()
      ->check(cli::whole_number(false))
      ->check(CLI::Range(std::uint64_t{1}, kMaxCanaryDim));
  app.add_option("--seed", spec.seed, "seed (sphere)")->capture_default_str();
  app.add_option(
         "--first-index", spec.first_index,
         "canary j is drawn from stream first_index + j: disjoint ranges give independent sets")
      ->capture_default_str();
  auto* clip_opt =
      app.add_option("--clip", spec.clip, "dummy: the canary's norm L (entries L/sqrt(D))")
          ->capture_default_str()
          ->check(cli::positive());
  auto* flip_opt =
      app.add_flag("--flip", spec.flip,
                   "dummy: negate the canary (Matsumoto et al. 2022's flipped dummy gradient)");
  app.add_flag("--npy", o.npy, "write the K x D matrix as NPY instead of the spec");
  app.add_option("--dtype", o.dtype, "NPY dtype: f8 or f4")
      ->capture_default_str()
      ->check(CLI::IsMember({"f8", "f4"}));
  app.add_option("--threads", o.threads,
                 "threads for --npy (0: all cores); the output does not depend on it")
      ->capture_default_str()
      ->check(dpaudit::cli::thread_count());
  app.add_option("-o,--output", o.output, "output file; - = stdout")->capture_default_str();

  return cli::run(app, argc, argv, [&] {
    o.clip_given = clip_opt->count() > 0;
    o.flip_given = flip_opt->count() > 0;
    return canary_gen::run(o, std::cerr);
  });
}
