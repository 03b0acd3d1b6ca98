#include "tool.hpp"

#include "canary/canary_npy.hpp"
#include "canary/canary_set.hpp"
#include "cli/tool.hpp"
#include "io/atomic_output.hpp"
#include "io/npy.hpp"

namespace dpaudit::canary_gen {

int run(const Options& options, std::ostream& err) {
  return cli::guarded("canary-gen", err, [&] {
    CanarySpec spec = options.spec;
    spec.kind = parse_canary_kind(options.kind);
    if (spec.kind == CanaryKind::sphere)
      cli::forbid_given({{"--clip", options.clip_given}, {"--flip", options.flip_given}},
                        "with --kind sphere");
    if (!options.npy) {
      (void)CanarySet::from_spec(spec);  // the same checks a reader of the spec makes
      AtomicOutput out(options.output);
      out.stream() << canary_spec_json(spec) << "\n";
      out.commit();
      return 0;
    }
    const CanarySet set = CanarySet::from_spec(spec);
    AtomicOutput out(options.output, AtomicOutput::Holding::stream);
    write_canaries_npy(set, spec, parse_npy_dtype(options.dtype), options.threads, out.stream(),
                       options.output == "-" ? "stdout" : options.output);
    out.commit();
    return 0;
  });
}

}  // namespace dpaudit::canary_gen
