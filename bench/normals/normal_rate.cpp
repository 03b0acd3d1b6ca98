// Micro-benchmark of the generator behind canaries and noise: CPU nanoseconds per standard
// normal number (philox_normals, as PhiloxStream::fill_normal draws them) and per
// Philox4x32-10 word (philox_words, the generator's floor: a normal takes one word, and
// 1.5% of them a block more), one thread, for each instruction set the CPU has (AVX-512F,
// AVX2, none: every one gives the same numbers). Each figure is the best of `reps`
// rounds; within a round the instruction sets alternate, so a load that comes and goes
// weighs on all alike. Usage: normal_rate [reps] (bench/normals/run.sh builds and runs it).
// Built with -DBASELINE_API it times only the best instruction set through the interface
// older versions have too (philox_normals without its `simd` argument), for comparisons.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "random/philox.hpp"
#include "random/ziggurat.hpp"

namespace {

using dpaudit::PhiloxSimd;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

constexpr std::size_t kCount = 1 << 18, kStreams = 16;  // 32 MB of normals a round

struct Figures {
  double normal = 1e9, word = 1e9;
};

// One round of one instruction set: normals, then words, of kStreams streams.
void round_of(PhiloxSimd simd, Figures& best, std::vector<double>& normals,
              std::vector<std::uint32_t>& words, double& checksum) {
  const double per = 1e9 / static_cast<double>(kCount * kStreams);
  double t0 = cpu_seconds();
  for (std::size_t s = 0; s < kStreams; ++s) {
#ifdef BASELINE_API
    dpaudit::philox_normals(1, s, 0, kCount, normals.data());
#else
    dpaudit::philox_normals(1, s, 0, kCount, normals.data(), simd);
#endif
    checksum += normals[kCount / 2];
  }
  double t1 = cpu_seconds();
  for (std::size_t s = 0; s < kStreams; ++s) {
    dpaudit::philox_words(1, s, 0, kCount, words.data(), simd);
    checksum += words[kCount / 2];
  }
  double t2 = cpu_seconds();
  best.normal = std::min(best.normal, (t1 - t0) * per);
  best.word = std::min(best.word, (t2 - t1) * per);
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 10;
  const bool avx512 = __builtin_cpu_supports("avx512f"), avx2 = __builtin_cpu_supports("avx2");
#ifdef BASELINE_API
  const bool all = false;  // the best set alone
#else
  const bool all = true;
#endif
  struct Set {
    const char* name;
    PhiloxSimd simd;
    bool present;
    Figures best;
  } sets[] = {{"avx512f", PhiloxSimd::best, avx512, {}},
              {"avx2", PhiloxSimd::avx2, avx2 && (all || !avx512), {}},
              {"none", PhiloxSimd::none, all || !avx2, {}}};
  std::vector<double> normals(kCount);
  std::vector<std::uint32_t> words(kCount);
  double checksum = 0;
  for (int r = 0; r < reps; ++r)
    for (Set& set : sets)
      if (set.present) round_of(set.simd, set.best, normals, words, checksum);
  std::printf("%-8s %12s %12s\n", "isa", "ns/normal", "ns/word");
  for (const Set& set : sets) {
    if (set.present)
      std::printf("%-8s %12.3f %12.3f\n", set.name, set.best.normal, set.best.word);
    else
      std::printf("%-8s %12s %12s   (not on this CPU)\n", set.name, "-", "-");
  }
  std::printf("(best of %d rounds of %zu x %zu numbers, CPU time, one thread; checksum %g)\n", reps,
              kStreams, kCount, checksum);
}
