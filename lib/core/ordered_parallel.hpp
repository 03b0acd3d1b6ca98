// Work items [0, n) played by a pool of threads that each take the next item as they finish
// one, their results handed on in item order as soon as every earlier item is done: the
// order a stream of trial rows needs (a sequential audit reads them as they come), with the
// load balance of a shared queue. Each item's result is a pure function of its index, so
// what is delivered does not depend on the thread count; only when it is delivered does.
// Only the results done out of order are held, until the items before them finish (with
// items of like cost, a few per thread), so n may be far larger than memory.
#pragma once
#include <atomic>
#include <cstddef>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "core/parallel.hpp"

namespace dpaudit {

// make_worker(thread) returns a callable `play(k) -> R` (its own scratch and state, used by
// one thread). deliver(begin, results) gets the results of items [begin, begin +
// results.size()) in order, from one thread at a time, as soon as they are all done and
// every item before them was delivered; it returns false to stop: no item starts after
// that, the ones in flight finish and are dropped. An exception in a worker stops the
// others the same way and is rethrown here (the first one); so is one from deliver.
// Returns the number of items delivered. threads <= 0 means all cores.
template <class R, class MakeWorker, class Deliver>
std::size_t ordered_parallel(std::size_t n, int threads, MakeWorker make_worker, Deliver deliver) {
  const std::size_t t = std::max<std::size_t>(1, std::min(resolve_threads(threads), n));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex lock;
  std::map<std::size_t, R> pending;  // done, waiting for an earlier item
  std::size_t delivered = 0;
  std::vector<R> run;
  std::vector<std::exception_ptr> errors(t);
  const auto work = [&](std::size_t thread) {
    try {
      auto play = make_worker(thread);
      for (std::size_t k; !stop && (k = next.fetch_add(1)) < n;) {
        R result = play(k);
        const std::lock_guard<std::mutex> hold(lock);
        if (stop) return;
        pending.emplace(k, std::move(result));
        run.clear();
        for (auto it = pending.begin(); it != pending.end() && it->first == delivered + run.size();
             it = pending.erase(it))
          run.push_back(std::move(it->second));
        if (run.empty()) continue;
        const std::size_t begin = delivered;
        delivered += run.size();
        if (!deliver(begin, static_cast<const std::vector<R>&>(run))) stop = true;
      }
    } catch (...) {
      errors[thread] = std::current_exception();
      stop = true;
    }
  };
  if (t == 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    for (std::size_t i = 0; i < t; ++i) pool.emplace_back(work, i);
    for (auto& th : pool) th.join();
  }
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  return delivered;
}

}  // namespace dpaudit
