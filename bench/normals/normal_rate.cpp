// Micro-benchmark of the generator behind canaries and noise: CPU nanoseconds per standard
// normal number (philox_normals, as PhiloxStream::fill_normal draws them) and per
// Philox4x32-10 word (philox_words, the generator's floor: a normal takes one word, and
// 1.5% of them a block more), one thread, for each instruction set the CPU has (AVX-512F,
// AVX2, none: every one gives the same numbers). Each figure is the best of `reps`
// rounds; within a round the sets take turns, so a load that comes and goes weighs on all
// alike. Usage: normal_rate [reps] (bench/normals/run.sh builds and runs it).
//
// Built with -DBASELINE and linked with an earlier version's philox.cpp and ziggurat.cpp
// compiled with -Ddpaudit=dpaudit_baseline (run.sh BASELINE=DIR), it times that version
// too, in the same rounds, through the interface it has had since issue 26's first pass
// (philox_normals with `simd`; commit 2f51381, say), and stops if its numbers differ from the
// current ones in any bit.
#include <immintrin.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "core/cpu_time.hpp"
#include "random/philox.hpp"
#include "random/ziggurat.hpp"

#ifdef BASELINE
namespace dpaudit_baseline {
enum class PhiloxSimd { best, avx2, none };
void philox_normals(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first, std::size_t n,
                    double* out, PhiloxSimd simd);
void philox_words(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first_word,
                  std::size_t n, std::uint32_t* out, PhiloxSimd simd);
}  // namespace dpaudit_baseline
#endif

namespace {

using dpaudit::PhiloxSimd;

constexpr std::size_t kCount = 1 << 16, kStreams = 8;  // 4 MB of normals a round

struct Set {
  const char* name;
  PhiloxSimd simd;
  bool present, baseline;
  double normal = 1e9, word = 1e9;  // best ns per normal and per word
};

void normals_of(const Set& set, std::uint64_t stream, double* out) {
#ifdef BASELINE
  if (set.baseline)
    return dpaudit_baseline::philox_normals(1, stream, 0, kCount, out,
                                            dpaudit_baseline::PhiloxSimd::best);
#endif
  dpaudit::philox_normals(1, stream, 0, kCount, out, set.simd);
}

void words_of(const Set& set, std::uint64_t stream, std::uint32_t* out) {
#ifdef BASELINE
  if (set.baseline)
    return dpaudit_baseline::philox_words(1, stream, 0, kCount, out,
                                          dpaudit_baseline::PhiloxSimd::best);
#endif
  dpaudit::philox_words(1, stream, 0, kCount, out, set.simd);
}

// One round of one set: normals, then words, of kStreams streams (new ones each round).
// The normals of the last stream are left in `normals`.
void round_of(Set& set, std::uint64_t first_stream, std::vector<double>& normals,
              std::vector<std::uint32_t>& words) {
  const double per = 1e9 / static_cast<double>(kCount * kStreams);
  const double t0 = dpaudit::process_cpu_seconds();
  for (std::size_t s = 0; s < kStreams; ++s) normals_of(set, first_stream + s, normals.data());
  const double t1 = dpaudit::process_cpu_seconds();
  for (std::size_t s = 0; s < kStreams; ++s) words_of(set, first_stream + s, words.data());
  const double t2 = dpaudit::process_cpu_seconds();
  set.normal = std::min(set.normal, (t1 - t0) * per);
  set.word = std::min(set.word, (t2 - t1) * per);
}

// The floor of any implementation of this stream: besides its Philox word, a normal's
// ziggurat needs two table entries picked by the word's low byte (its layer's edge and ratio),
// whatever it then does with them. lookups_ns times only that, over real words: each word's
// 16-byte entry loaded into a register and added up (no conversion, product, test or store),
// the faster of 16-byte loads and the fast path's assembly of eight into a 512-bit register.
struct alignas(16) Entry {
  double edge, ratio;
};
Entry table[256];

__attribute__((noipa)) double sum_entries_sse2(const std::uint32_t* w, std::size_t n) {
  __m128d a0 = _mm_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
  for (std::size_t i = 0; i + 4 <= n; i += 4) {
    a0 = _mm_add_pd(a0, _mm_load_pd(&table[w[i] & 0xFF].edge));
    a1 = _mm_add_pd(a1, _mm_load_pd(&table[w[i + 1] & 0xFF].edge));
    a2 = _mm_add_pd(a2, _mm_load_pd(&table[w[i + 2] & 0xFF].edge));
    a3 = _mm_add_pd(a3, _mm_load_pd(&table[w[i + 3] & 0xFF].edge));
  }
  return _mm_cvtsd_f64(_mm_add_pd(_mm_add_pd(a0, a1), _mm_add_pd(a2, a3)));
}

// The entries of words i and i + 2 as one 256-bit register.
__attribute__((target("avx512f"))) inline __m256d two_entries(const std::uint32_t* w,
                                                              std::size_t i) {
  return _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_load_pd(&table[w[i] & 0xFF].edge)),
                              _mm_load_pd(&table[w[i + 2] & 0xFF].edge), 1);
}

__attribute__((noipa, target("avx512f"))) double sum_entries_avx512(const std::uint32_t* w,
                                                                    std::size_t n) {
  __m512d a0 = _mm512_setzero_pd(), a1 = a0;
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    a0 = _mm512_add_pd(a0, _mm512_insertf64x4(_mm512_castpd256_pd512(two_entries(w, i)),
                                              two_entries(w, i + 4), 1));
    a1 = _mm512_add_pd(a1, _mm512_insertf64x4(_mm512_castpd256_pd512(two_entries(w, i + 1)),
                                              two_entries(w, i + 5), 1));
  }
  return _mm512_reduce_add_pd(_mm512_add_pd(a0, a1));
}

// The kernels' sums. The kernels are noipa, so the compiler cannot tell that a call has no
// effect and drop it; their sums go here all the same.
volatile double sink;

// Best ns per word of the two lookups, over kStreams passes of `words`.
double lookups_ns(const std::vector<std::uint32_t>& words, bool avx512) {
  double best = 1e9;
  for (int kernel = 0; kernel < (avx512 ? 2 : 1); ++kernel) {
    const double t0 = dpaudit::process_cpu_seconds();
    for (std::size_t s = 0; s < kStreams; ++s)
      sink += kernel == 0 ? sum_entries_sse2(words.data(), kCount)
                          : sum_entries_avx512(words.data(), kCount);
    const double t1 = dpaudit::process_cpu_seconds();
    best = std::min(best, (t1 - t0) * 1e9 / static_cast<double>(kCount * kStreams));
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 100;
  const bool avx512 = __builtin_cpu_supports("avx512f"), avx2 = __builtin_cpu_supports("avx2");
#ifdef BASELINE
  const bool baseline = true;
#else
  const bool baseline = false;
#endif
  Set sets[] = {{"avx512f", PhiloxSimd::best, avx512, false},
                {"avx2", PhiloxSimd::avx2, avx2, false},
                {"none", PhiloxSimd::none, true, false},
                {"baseline", PhiloxSimd::best, baseline, true}};
  std::vector<double> normals(kCount), reference(kCount);
  std::vector<std::uint32_t> words(kCount);
  for (std::size_t i = 0; i < 256; ++i) table[i] = {static_cast<double>(i), 0.5};
  double lookups = 1e9;
  for (int r = 0; r < reps; ++r) {
    const std::uint64_t first_stream = static_cast<std::uint64_t>(r) * kStreams;
    bool first_set = true;  // the first set present gives the round's reference numbers
    for (Set& set : sets) {
      if (!set.present) continue;
      round_of(set, first_stream, normals, words);
      if (first_set) reference = normals;
      first_set = false;
      if (std::memcmp(normals.data(), reference.data(), kCount * sizeof(double)) != 0) {
        std::fprintf(stderr, "normal_rate: %s gives other numbers than the best set\n", set.name);
        return 1;
      }
    }
    lookups = std::min(lookups, lookups_ns(words, avx512));
  }
  std::printf("%-8s %12s %12s\n", "isa", "ns/normal", "ns/word");
  for (const Set& set : sets) {
    if (set.present)
      std::printf("%-8s %12.3f %12.3f\n", set.name, set.normal, set.word);
    else if (!set.baseline)
      std::printf("%-8s %12s %12s   (not on this CPU)\n", set.name, "-", "-");
  }
  const Set& best = sets[avx512 ? 0 : avx2 ? 1 : 2];
  std::printf("%-8s %12s %12.3f   (a word's two table entries loaded, nothing else)\n", "lookups",
              "", lookups);
  std::printf("%-8s %12.3f %12s   (%s word + lookups: the floor; its normal is %.2fx)\n", "floor",
              best.word + lookups, "", best.name, best.normal / (best.word + lookups));
  std::printf(
      "(best of %d rounds of %zu x %zu numbers, CPU time, one thread; every set gave "
      "the same numbers)\n",
      reps, kStreams, kCount);
}
