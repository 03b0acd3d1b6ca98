// canary-gen's body, callable in-process: the options as parsed and the exit status. It
// reads nothing; it writes to `output` ("-": stdout) through lib/canary's writers, errors
// on `err`.
#pragma once
#include <ostream>
#include <string>

#include "canary/canary_spec.hpp"

namespace dpaudit::canary_gen {

struct Options {
  std::string kind = "sphere";  // sphere | dummy
  CanarySpec spec;              // count, dim, seed, first index, clip, flip (kind from `kind`)
  bool clip_given = false;      // --clip, --flip: dummy only
  bool flip_given = false;
  bool npy = false;  // the matrix instead of the spec
  std::string dtype = "f8";
  int threads = 0;
  std::string output = "-";
};

int run(const Options& options, std::ostream& err);

}  // namespace dpaudit::canary_gen
