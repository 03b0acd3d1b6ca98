// dp-train fedavg's canary observation against the machine's read bandwidth: the cosines of
// the demo's 1,000 seen and 1,000 unseen sphere canaries (D = 101,770, canary seed 7) with
// one vector, as CanaryPanel computes them every round, with the canaries kept as doubles
// (CanaryStorage::f64: the scorer as it was before issue 26) and as floats (f32), beside
// the time of one streaming read of a buffer of the f64 and of the f32 matrix's size (a sum
// of 64-bit words, larger than every cache; one stream, and four at once as the scorer
// reads). For threads 1 and 2; each figure is the least CPU time (all threads) and the least
// wall time of `reps` rounds, and within a round every variant takes its turn, so a load
// that comes and goes weighs on all alike. The ratios use CPU time: on a loaded machine
// time spent waiting for a core is not counted. Also: the largest difference between the
// f32 and the f64 cosines (the bound is 2^-24 = 6.0e-8, canary_scores.hpp) and the f32
// kernel's portable path against its AVX2 path (the same bits).
//   observe [reps] [count_per_set] [dim]       (bench/fedavg/observe.sh builds and runs it)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "canary/canary_scores.hpp"
#include "canary/canary_set.hpp"
#include "canary/f32_rows.hpp"
#include "core/parallel.hpp"
#include "random/philox_stream.hpp"

namespace {

using namespace dpaudit;

double cpu_now() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Wall and CPU seconds (all threads) of fn.
std::pair<double, double> seconds(const std::function<void()>& fn) {
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_now();
  fn();
  return {std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
          cpu_now() - c0};
}

// Sum of n 64-bit words, `threads` threads on contiguous parts, each reading its part as one
// sequential stream or as four interleaved ones (as the scorer reads four canaries at once:
// the prefetchers follow several streams, and one alone may fall short of the bandwidth).
// The compiler vectorises the loops: integer additions, no rounding order to keep.
std::uint64_t stream_sum(const std::uint64_t* words, std::size_t n, int threads, bool four) {
  std::vector<std::uint64_t> part(static_cast<std::size_t>(threads));
  parallel_blocks(n, threads, [&](std::size_t begin, std::size_t end, std::size_t t) {
    const std::uint64_t* w = words + begin;
    const std::size_t len = four ? (end - begin) / 4 : 0;
    std::uint64_t s = 0;
    for (std::size_t i = 0; i < len; ++i) s += w[i] + w[len + i] + w[2 * len + i] + w[3 * len + i];
    for (std::size_t i = 4 * len; i < end - begin; ++i) s += w[i];
    part[t] = s;
  });
  std::uint64_t s = 0;
  for (std::uint64_t p : part) s += p;
  return s;
}

struct Variant {
  std::string name;
  double bytes;
  std::function<void()> run;
  double wall = 1e30, cpu = 1e30;  // the least of each over the rounds
};

void print(const Variant& x, int threads) {
  std::printf("%-38s CPU %7.1f ms %6.1f GB/s   wall %7.1f ms %6.1f GB/s\n", x.name.c_str(),
              x.cpu * 1e3, x.bytes / x.cpu * threads * 1e-9, x.wall * 1e3, x.bytes / x.wall * 1e-9);
}

// The observation in f64 and f32 and the four reads, `threads` threads, `reps` rounds.
// Returns the largest |f32 - f64| cosine.
double measure(const CanarySet& seen, const CanarySet& unseen, const std::vector<double>& v,
               const std::vector<std::uint64_t>& buffer, int threads, int reps) {
  const std::size_t all = std::size_t{1} << 62;
  const double f64_bytes = double(buffer.size()) * 8, f32_bytes = f64_bytes / 2;
  const CanaryScorer seen64(seen, threads, all), unseen64(unseen, threads, all);
  const CanaryScorer seen32(seen, threads, all, CanaryStorage::f32),
      unseen32(unseen, threads, all, CanaryStorage::f32);
  std::vector<double> s64, u64, s32, u32;
  const std::string t = " threads " + std::to_string(threads);
  std::vector<Variant> variants = {{"observe f64" + t, f64_bytes,
                                    [&] {
                                      s64 = seen64.scores(v.data(), ScoreStat::cosine);
                                      u64 = unseen64.scores(v.data(), ScoreStat::cosine);
                                    }},
                                   {"observe f32" + t, f32_bytes, [&] {
                                      s32 = seen32.scores(v.data(), ScoreStat::cosine);
                                      u32 = unseen32.scores(v.data(), ScoreStat::cosine);
                                    }}};
  for (bool four : {false, true})
    for (bool f32 : {false, true}) {
      const std::size_t words = buffer.size() / (f32 ? 2 : 1);
      variants.push_back({std::string("read ") + (f32 ? "f32" : "f64") + "-sized, " +
                              (four ? "4 streams" : "1 stream") + t,
                          f32 ? f32_bytes : f64_bytes, [&buffer, words, threads, four] {
                            volatile std::uint64_t sink =
                                stream_sum(buffer.data(), words, threads, four);
                            (void)sink;
                          }});
    }
  for (int r = 0; r < reps; ++r)
    for (Variant& x : variants) {
      const auto [wall, cpu] = seconds(x.run);
      x.wall = std::min(x.wall, wall);
      x.cpu = std::min(x.cpu, cpu);
    }
  for (const Variant& x : variants) print(x, threads);
  // One read at the measured bandwidth: the faster of the two read patterns.
  const double read64 = std::min(variants[2].cpu, variants[4].cpu),
               read32 = std::min(variants[3].cpu, variants[5].cpu);
  std::printf(
      "threads %d: bandwidth %.1f GB/s; f64 observation %.2fx one read of its matrix, f32 "
      "%.2fx; f32 %.2fx faster (CPU time)\n",
      threads, std::max(f64_bytes / read64, f32_bytes / read32) * threads * 1e-9,
      variants[0].cpu / read64, variants[1].cpu / read32, variants[0].cpu / variants[1].cpu);
  double largest = 0;
  for (std::size_t j = 0; j < s64.size(); ++j)
    largest = std::max({largest, std::abs(s32[j] - s64[j]), std::abs(u32[j] - u64[j])});
  return largest;
}

// The kernel alone on 64 rows: its AVX2 path (where the CPU has it) and the portable one.
bool kernel_paths(const CanarySet& seen, const std::vector<double>& v, int reps) {
  const std::size_t rows = 64, d = seen.dim();
  std::vector<float> m(rows * d);
  std::vector<double> g(d);
  for (std::size_t r = 0; r < rows; ++r) {
    seen.get(r, g.data());
    for (std::size_t i = 0; i < d; ++i) m[r * d + i] = static_cast<float>(g[i]);
  }
  std::vector<double> best(rows), none(rows);
  double t_best = 1e30, t_none = 1e30;
  for (int r = 0; r < reps; ++r) {
    t_best = std::min(
        t_best, seconds([&] { f32_row_dots(m.data(), rows, d, v.data(), best.data()); }).second);
    t_none =
        std::min(t_none, seconds([&] {
                           f32_row_dots(m.data(), rows, d, v.data(), none.data(), RowSimd::none);
                         }).second);
  }
  std::printf(
      "kernel on %zu rows (%.0f MB, in L3 or memory), CPU: best %.2f ms, portable %.2f ms, %s\n",
      rows, double(rows * d * 4) * 1e-6, t_best * 1e3, t_none * 1e3,
      best == none ? "same bits" : "DIFFERENT BITS");
  return best == none;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 10;
  const std::size_t k = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1000;
  const std::size_t d = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 101770;
  const CanarySet seen = CanarySet::from_spec({CanaryKind::sphere, 7, k, d, 0});
  const CanarySet unseen = CanarySet::from_spec({CanaryKind::sphere, 7, k, d, k});
  std::vector<double> v(d);
  PhiloxStream(1, 0).fill_normal(v.data(), d);
  const std::vector<std::uint64_t> buffer(2 * k * d, 1);  // the f64 matrix's bytes
  std::printf("%zu + %zu canaries x %zu: f64 matrix %.3f GB, f32 %.3f GB\n", k, k, d,
              double(buffer.size()) * 8e-9, double(buffer.size()) * 4e-9);
  double largest = 0;
  for (int threads : {1, 2})
    largest = std::max(largest, measure(seen, unseen, v, buffer, threads, reps));
  std::printf("largest |f32 - f64| cosine: %.3g (bound 2^-24 = %.3g)\n", largest,
              std::ldexp(1, -24));
  return kernel_paths(seen, v, reps) ? 0 : 1;
}
