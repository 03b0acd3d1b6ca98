// canary-gen: prints a canary spec (JSON), or writes the canaries as an NPY matrix.
// Canary j is a pure function of (seed, first_index + j): lib/canary/canary_spec.hpp.
#include <cstdint>
#include <string>

#include "canary/canary_npy.hpp"
#include "canary/canary_set.hpp"
#include "canary/canary_spec.hpp"
#include "cli/tool.hpp"
#include "io/atomic_output.hpp"
#include "io/npy.hpp"

int main(int argc, char** argv) {
  using namespace dpaudit;
  CLI::App app{
      "Make canaries for a privacy audit. Prints a canary spec (one line of JSON) from which "
      "every\n"
      "canary is regenerated bit-identically: sphere canaries are uniform on the unit sphere "
      "(003),\n"
      "dummy canaries are 002's dummy gradient (every entry clip/sqrt(dim)), negated with --flip.\n"
      "With --npy, writes the count x dim matrix instead.",
      "canary-gen"};
  cli::setup(app,
             "  canary-gen --kind sphere --count 1000 --dim 1000000 --seed 7 > canaries.json\n"
             "  canary-gen --kind sphere --count 1000 --dim 1000000 --seed 7 --first-index 1000 > "
             "unseen.json\n"
             "  canary-gen --kind sphere --count 10 --dim 784 --seed 7 --npy -o canaries.npy\n"
             "  canary-gen --kind dummy --dim 101770 --clip 1 --flip --npy -o flipped.npy\n");
  std::string kind = "sphere", output = "-", dtype = "f8";
  CanarySpec spec;
  spec.count = 1;
  bool npy = false;
  int threads = 0;
  app.add_option("--kind", kind, "sphere | dummy")
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
      app.add_flag("--flip", spec.flip, "dummy: negate the canary (002's flipped dummy gradient)");
  app.add_flag("--npy", npy, "write the K x D matrix as NPY instead of the spec");
  app.add_option("--dtype", dtype, "NPY dtype: f8 or f4")
      ->capture_default_str()
      ->check(CLI::IsMember({"f8", "f4"}));
  app.add_option("--threads", threads,
                 "threads for --npy (0: all cores); the output does not depend on it")
      ->capture_default_str()
      ->check(dpaudit::cli::thread_count());
  app.add_option("-o,--output", output, "output file; - = stdout")->capture_default_str();

  return cli::run(app, argc, argv, [&] {
    spec.kind = parse_canary_kind(kind);
    if (spec.kind == CanaryKind::sphere)
      cli::forbid_options({clip_opt, flip_opt}, "with --kind sphere");
    if (!npy) {
      (void)CanarySet::from_spec(spec);  // the same checks a reader of the spec makes
      AtomicOutput out(output);
      out.stream() << canary_spec_json(spec) << "\n";
      out.commit();
      return 0;
    }
    const CanarySet set = CanarySet::from_spec(spec);
    AtomicOutput out(output, AtomicOutput::Holding::stream);
    write_canaries_npy(set, spec, parse_npy_dtype(dtype), threads, out.stream(),
                       output == "-" ? "stdout" : output);
    out.commit();
    return 0;
  });
}
