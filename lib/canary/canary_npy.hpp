// A canary set as an NPY matrix (count x dim), streamed: rows are made and written a
// block (about 64 MiB) at a time, never the whole matrix, so a pipe reader sees them as
// they come and memory does not grow with the count.
#pragma once
#include <ostream>
#include <string>

#include "canary/canary_set.hpp"
#include "canary/canary_spec.hpp"
#include "io/npy.hpp"

namespace dpaudit {

// Writes the NPY header and every canary row of `set` (made by `spec`) to `out` until a
// write fails (the caller's commit reports it). Every check comes before the first byte:
// DataError naming `where` for an entry f4 cannot hold, checked on the first row (a
// dummy spec's rows are all alike, a sphere canary's entries lie in [-1, 1]), and for a
// dummy canary whose entries f4 would round to 0. threads <= 0: all cores.
void write_canaries_npy(const CanarySet& set, const CanarySpec& spec, NpyDtype type, int threads,
                        std::ostream& out, const std::string& where);

}  // namespace dpaudit
