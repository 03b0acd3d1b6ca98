// CPU seconds of this process (all its threads): the steady figure of the benchmark and
// experiment drivers on a shared machine, where wall time counts the waits for a core.
#pragma once
#include <ctime>

namespace dpaudit {

inline double process_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

}  // namespace dpaudit
