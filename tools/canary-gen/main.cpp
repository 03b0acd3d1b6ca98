// canary-gen: prints a canary spec (JSON), or writes the canaries as an NPY matrix.
// Canary j is a pure function of (seed, first_index + j): lib/canary/canary_spec.hpp.
#include <algorithm>
#include <cstdint>
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
  app.add_option("--kind", kind, "sphere | dummy")->capture_default_str()->check(CLI::IsMember({"sphere", "dummy"}));
  app.add_option("--count", spec.count, "number K of canaries")->capture_default_str()->check(cli::whole_number(false))
      ->check(CLI::Range(std::uint64_t{1}, kMaxCanaryCount));
  app.add_option("--dim", spec.dim, "dimension D of each canary (count x dim at most 2^50)")
      ->required()
      ->check(cli::whole_number(false))
      ->check(CLI::Range(std::uint64_t{1}, kMaxCanaryDim));
  app.add_option("--seed", spec.seed, "seed (sphere)")->capture_default_str();
  app.add_option("--first-index", spec.first_index,
                 "canary j is drawn from stream first_index + j: disjoint ranges give independent sets")
      ->capture_default_str();
  auto* clip_opt = app.add_option("--clip", spec.clip, "dummy: the canary's norm L (entries L/sqrt(D))")
                       ->capture_default_str()
                       ->check(cli::positive());
  auto* flip_opt = app.add_flag("--flip", spec.flip, "dummy: negate the canary (002's flipped dummy gradient)");
  app.add_flag("--npy", npy, "write the K x D matrix as NPY instead of the spec");
  app.add_option("--dtype", dtype, "NPY dtype: f8 or f4")->capture_default_str()->check(CLI::IsMember({"f8", "f4"}));
  app.add_option("--threads", threads, "threads for --npy (0: all cores); the output does not depend on it")
      ->capture_default_str()->check(dpaudit::cli::thread_count());
  app.add_option("-o,--output", output, "output file; - = stdout")->capture_default_str();

  return cli::run(app, argc, argv, [&] {
    spec.kind = parse_canary_kind(kind);
    if (spec.kind == CanaryKind::sphere) cli::forbid_options({clip_opt, flip_opt}, "with --kind sphere");
    if (!npy) {
      (void)CanarySet::from_spec(spec);  // the same checks a reader of the spec makes
      AtomicOutput out(output);
      out.stream() << canary_spec_json(spec) << "\n";
      out.commit();
      return 0;
    }
    // Rows are made and written a block (about 64 MiB) at a time, never the whole K x D
    // matrix, so stdout is streamed. Every check comes before the first byte: the spec's,
    // and f4's range on the first row (a dummy spec's rows are all alike, and a sphere
    // canary's entries lie in [-1, 1]), and a dummy canary that f4 would make 0.
    const CanarySet set = CanarySet::from_spec(spec);
    const NpyDtype type = parse_npy_dtype(dtype);
    const std::size_t block = std::max<std::size_t>(1, (std::size_t{64} << 20) / sizeof(double) / spec.dim);
    AtomicOutput out(output, AtomicOutput::Holding::stream);
    for (std::size_t first = 0; first < spec.count && out.stream(); first += block) {  // a failed write ends it
      const std::vector<double> rows = set.rows(first, std::min(block, spec.count - first), threads);
      if (first == 0) {
        const std::string where = output == "-" ? "stdout" : output;
        if (type == NpyDtype::f4) check_fits_f4(rows.data(), spec.dim, 0, where);
        // A dummy canary below f4's least subnormal would be written as zeros.
        if (type == NpyDtype::f4 && spec.kind == CanaryKind::dummy && static_cast<float>(rows[0]) == 0.0f)
          throw DataError(fmt::format("the dummy canary's entries ({}) underflow to 0 in f4 (use f8)", rows[0]), where);
        write_npy_header(out.stream(), {spec.count, spec.dim}, type);
      }
      write_npy_values(out.stream(), rows.data(), rows.size(), type);
    }
    out.commit();
    return 0;
  });
}
