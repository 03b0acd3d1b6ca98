// libFuzzer harness: the canary-spec parser on arbitrary text. Only DataError may come
// out; a spec that parses must survive canary_spec_json -> parse_canary_spec unchanged,
// and a small one must regenerate its canaries with finite entries.
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "canary/canary_spec.hpp"
#include "core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dpaudit;
  const std::string text(reinterpret_cast<const char*>(data), size);
  CanarySpec spec;
  try {
    spec = parse_canary_spec(text, "fuzz");
  } catch (const DataError&) {
    return 0;
  }
  const CanarySpec back = parse_canary_spec(canary_spec_json(spec), "round trip");
  if (back.kind != spec.kind || back.seed != spec.seed || back.count != spec.count ||
      back.dim != spec.dim || back.first_index != spec.first_index || back.clip != spec.clip ||
      back.flip != spec.flip)
    std::abort();
  if (spec.dim <= 4096) {
    std::vector<double> canary(spec.dim);
    for (std::size_t j = 0; j < std::min<std::size_t>(spec.count, 4); ++j) {
      generate_canary(spec, j, canary.data());
      for (double x : canary)
        if (!std::isfinite(x)) std::abort();
    }
  }
  return 0;
}
