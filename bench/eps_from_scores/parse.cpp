// Times eps-from-scores' readers alone (lib/io/scores_reader): a scores CSV and an NPY
// pair read into in and out scores, and their ScoreSet (the sort), best of R runs in
// process CPU seconds (the figure the loaded 2-core machine keeps steady), with MB/s of
// the input; beside the floor of each read, the files' bytes read(2) into one buffer, 1 MiB
// at a time, and touched by nothing else. Compiled by parse.sh against a build's libraries.
// usage: parse SCORES.csv IN.npy OUT.npy [R]
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>

#include "core/cpu_time.hpp"
#include "io/scores_reader.hpp"
#include "stats/scores.hpp"

namespace {

double megabytes(const char* path) {
  struct stat s {};
  stat(path, &s);
  return static_cast<double>(s.st_size) / 1e6;
}

// The least CPU seconds of `runs` calls of f.
template <class F>
double best_of(int runs, F f) {
  double best = 1e300;
  for (int r = 0; r < runs; ++r) {
    const double t0 = dpaudit::process_cpu_seconds();
    f();
    best = std::min(best, dpaudit::process_cpu_seconds() - t0);
  }
  return best;
}

// The bytes of `path` read(2) into one 1 MiB buffer, as the CSV reader reads a file.
std::size_t read_only(const char* path) {
  static char buffer[1 << 20];
  const int fd = open(path, O_RDONLY);
  std::size_t total = 0;
  for (ssize_t got; (got = read(fd, buffer, sizeof buffer)) > 0;) total += std::size_t(got);
  close(fd);
  return total;
}

void row(const char* what, double mb, double seconds, std::size_t n) {
  std::printf("| %s | %.1f | %.3f | %.0f | %zu |\n", what, mb, seconds, mb / seconds, n);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: parse SCORES.csv IN.npy OUT.npy [R]\n");
    return 2;
  }
  const int runs = argc > 4 ? std::stoi(argv[4]) : 3;
  const dpaudit::ScoreReadOptions options;
  std::size_t n = 0;
  dpaudit::LabelledScores kept;
  const double csv = best_of(runs, [&] {
    kept = dpaudit::read_scores_csv(argv[1], options);
    n = kept.in.size() + kept.out.size();
  });
  std::printf("| read | MB | CPU s | MB/s | scores |\n|---|---|---|---|---|\n");
  row("CSV (read_scores_csv)", megabytes(argv[1]), csv, n);
  const double npy = best_of(runs, [&] {
    const dpaudit::LabelledScores s = dpaudit::read_scores_npy(argv[2], argv[3], options);
    n = s.in.size() + s.out.size();
  });
  row("NPY pair (read_scores_npy)", megabytes(argv[2]) + megabytes(argv[3]), npy, n);
  const double floor_csv = best_of(runs, [&] { read_only(argv[1]); });
  row("floor: read(2) of the CSV", megabytes(argv[1]), floor_csv, n);
  const double floor_npy = best_of(runs, [&] {
    read_only(argv[2]);
    read_only(argv[3]);
  });
  row("floor: read(2) of the NPY pair", megabytes(argv[2]) + megabytes(argv[3]), floor_npy, n);
  const double sort = best_of(runs, [&] { const dpaudit::ScoreSet set(kept); });
  row("ScoreSet (both classes sorted)", 8e-6 * static_cast<double>(n), sort, n);
  return 0;
}
