// Micro-benchmark of the generator behind canaries and noise: nanoseconds per standard
// normal number (PhiloxStream::fill_normal) and per Philox4x32-10 word (philox_words),
// one thread, 2^20 numbers from each of 100 streams. Build and run (bench/table2.md):
//   g++ -O2 -std=c++17 -Ilib bench/table2/normal_rate.cpp build/libdpaudit.a -o /tmp/normal_rate
//   /tmp/normal_rate
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "random/philox.hpp"
#include "random/philox_stream.hpp"

int main() {
  constexpr std::size_t kCount = 1 << 20, kStreams = 100;
  std::vector<double> normals(kCount);
  std::vector<std::uint32_t> words(kCount);
  double checksum = 0;
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  for (std::size_t s = 0; s < kStreams; ++s) {
    dpaudit::PhiloxStream(1, s).fill_normal(normals.data(), kCount);
    checksum += normals[kCount / 2];
  }
  const auto t1 = Clock::now();
  for (std::size_t s = 0; s < kStreams; ++s) {
    dpaudit::philox_words(1, s, 0, kCount, words.data());
    checksum += words[kCount / 2];
  }
  const auto t2 = Clock::now();
  const double per = 1e9 / double(kCount * kStreams);
  std::printf("normal %.3f ns   philox word %.3f ns   (checksum %g)\n",
              std::chrono::duration<double>(t1 - t0).count() * per,
              std::chrono::duration<double>(t2 - t1).count() * per, checksum);
}
