// canary-gen: prints a canary spec (JSON), or writes the canaries as an NPY matrix.
// Canary j is a pure function of (seed, first_index + j): lib/canary/canary_spec.hpp.
#include <limits>
#include <string>

#include <fmt/format.h>

#include "canary/canary_set.hpp"
#include "canary/canary_spec.hpp"
#include "cli/tool.hpp"
#include "io/atomic_output.hpp"
#include "core/error.hpp"
#include "io/npy.hpp"

int main(int argc, char** argv) {
  using namespace dpaudit;
  CLI::App app{
      "Make canaries for a privacy audit. Prints a canary spec (one line of JSON) from which every\n"
      "canary is regenerated bit-identically: sphere canaries are uniform on the unit sphere (003),\n"
      "dummy canaries are 002's dummy gradient (every entry clip/sqrt(dim)), negated with --flip.\n"
      "With --npy, writes the count x dim matrix instead.",
      "canary-gen"};
  cli::setup(app,
             "  canary-gen --kind sphere --count 1000 --dim 1000000 --seed 7 > canaries.json\n"
             "  canary-gen --kind sphere --count 1000 --dim 1000000 --seed 7 --first-index 1000 > unseen.json\n"
             "  canary-gen --kind sphere --count 10 --dim 784 --seed 7 --npy -o canaries.npy\n"
             "  canary-gen --kind dummy --dim 101770 --clip 1 --flip --npy -o flipped.npy\n");
  std::string kind = "sphere", output = "-", dtype = "f8";
  CanarySpec spec;
  spec.count = 1;
  bool npy = false;
  int threads = 0;
  const auto at_least_one = CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max());
  app.add_option("--kind", kind, "sphere | dummy")->capture_default_str()->check(CLI::IsMember({"sphere", "dummy"}));
  app.add_option("--count", spec.count, "number K of canaries")->capture_default_str()->check(at_least_one);
  app.add_option("--dim", spec.dim, "dimension D of each canary")->required()->check(at_least_one);
  app.add_option("--seed", spec.seed, "seed (sphere)")->capture_default_str();
  app.add_option("--first-index", spec.first_index,
                 "canary j is drawn from stream first_index + j: disjoint ranges give independent sets")
      ->capture_default_str();
  app.add_option("--clip", spec.clip, "dummy: the canary's norm L (entries L/sqrt(D))")->capture_default_str()
      ->check(cli::positive());
  app.add_flag("--flip", spec.flip, "dummy: negate the canary (002's flipped dummy gradient)");
  app.add_flag("--npy", npy, "write the K x D matrix as NPY instead of the spec");
  app.add_option("--dtype", dtype, "NPY dtype: f8 or f4")->capture_default_str()->check(CLI::IsMember({"f8", "f4"}));
  app.add_option("--threads", threads, "threads for --npy (0: all cores); the output does not depend on it")
      ->capture_default_str()->check(dpaudit::cli::thread_count());
  app.add_option("-o,--output", output, "output file; - = stdout")->capture_default_str();

  return cli::run(app, argc, argv, [&] {
    spec.kind = parse_canary_kind(kind);
    if (!npy) {
      (void)CanarySet::from_spec(spec);  // the same checks a reader of the spec makes
      AtomicOutput out(output);
      out.stream() << canary_spec_json(spec) << "\n";
      out.commit();
      return 0;
    }
    // count x dim doubles must be addressable: a product that wraps would allocate too
    // little and write past it.
    if (spec.dim > std::numeric_limits<std::size_t>::max() / sizeof(double) / spec.count)
      throw DataError(fmt::format("--count {} x --dim {} is too large for one matrix", spec.count, spec.dim));
    const CanarySet set = CanarySet::from_spec(spec);
    const std::vector<double> m = set.matrix(threads);
    save_npy(output, m.data(), {spec.count, spec.dim}, parse_npy_dtype(dtype));
    return 0;
  });
}
