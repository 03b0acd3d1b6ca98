// A team of threads that work in steps. run_team(t, fn) calls fn(k, sync) on t threads (k = 0
// on the calling thread), each running a whole loop of its own; sync.wait() returns once all t
// have reached it (a reusable barrier). The threads are started once, so a loop of many short
// steps pays a barrier a step instead of a thread start (and the first touch of a new thread's
// stack) a step, as parallel_blocks in a loop would.
//
// Every thread must call wait() the same number of times. An exception in one thread stops the
// team: the others' wait() throws TeamStopped (run_team swallows it), and run_team rethrows the
// first exception once every thread has returned.
#pragma once
#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace dpaudit {

// What wait() throws in the other threads once one thread of the team has failed.
struct TeamStopped {};

class TeamSync {
 public:
  explicit TeamSync(std::size_t size) : size_(size) {}

  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (stopped_) throw TeamStopped{};
    const std::size_t generation = generation_;
    if (++arrived_ == size_) {
      arrived_ = 0;
      ++generation_;
      changed_.notify_all();
      return;
    }
    changed_.wait(lock, [&] { return generation_ != generation || stopped_; });
    if (generation_ == generation) throw TeamStopped{};
  }

  void stop() {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t size_, arrived_ = 0, generation_ = 0;
  bool stopped_ = false;
};

template <class Fn>
void run_team(std::size_t threads, Fn fn) {
  const std::size_t t = std::max<std::size_t>(1, threads);
  TeamSync sync(t);
  std::vector<std::exception_ptr> errors(t);
  auto member = [&](std::size_t k) {
    try {
      fn(k, sync);
    } catch (const TeamStopped&) {
    } catch (...) {
      errors[k] = std::current_exception();
      sync.stop();
    }
  };
  std::vector<std::thread> pool;
  try {
    for (std::size_t k = 1; k < t; ++k) pool.emplace_back(member, k);
  } catch (...) {  // a thread that cannot start: the started ones must not wait for it
    sync.stop();
    for (std::thread& th : pool) th.join();
    throw;
  }
  member(0);
  for (std::thread& th : pool) th.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace dpaudit
