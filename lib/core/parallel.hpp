// Static block partition of [0, n) over threads. Each index is processed by exactly
// one thread and results are written by index, so output does not depend on the
// thread count.
#pragma once
#include <algorithm>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace dpaudit {

// A --threads value as a number of threads: threads <= 0 means all cores.
inline std::size_t resolve_threads(int threads) {
  return threads > 0 ? static_cast<std::size_t>(threads)
                     : std::max(1u, std::thread::hardware_concurrency());
}

// Calls fn(begin, end, thread_index) on contiguous blocks. threads <= 0 means all cores.
template <class Fn>
void parallel_blocks(std::size_t n, int threads, Fn fn) {
  const std::size_t t = std::max<std::size_t>(1, std::min(resolve_threads(threads), n));
  if (t == 1) {
    fn(std::size_t{0}, n, std::size_t{0});
    return;
  }
  std::vector<std::thread> pool;
  std::vector<std::exception_ptr> errors(t);
  for (std::size_t i = 0; i < t; ++i) {
    pool.emplace_back([&, i] {
      try {
        fn(n * i / t, n * (i + 1) / t, i);
      } catch (...) {
        errors[i] = std::current_exception();
      }
    });
  }
  for (auto& th : pool) th.join();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace dpaudit
