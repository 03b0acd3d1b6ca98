#include "io/remove_on_signal.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "core/error.hpp"

namespace dpaudit {
namespace {

// A fixed table the handler can read without allocating or locking. The state is a
// lock-free atomic: the handler only acts on armed slots, whose path is complete.
enum SlotState : int { kFree, kFilling, kArmed };
constexpr int kSlots = 32;
constexpr std::size_t kPathBytes = 4096;  // PATH_MAX on Linux, with its terminating 0
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads slot states");

struct Slot {
  std::atomic<int> state{kFree};
  bool folder = false;
  char path[kPathBytes] = {};
};
Slot slots[kSlots];

bool is_dot_entry(const char* name) {
  return name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0));
}

// Unlinks the entries of `dir` (getdents64 and unlinkat, both plain system calls), then
// removes dir. A folder changed while it is read may hide entries from one pass, so it
// is read again until a pass finds nothing left to remove.
void remove_folder(const char* dir) {
  const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(dirent64) char buf[8192];
    for (bool removed = true; removed;) {
      removed = false;
      ::lseek(fd, 0, SEEK_SET);
      for (ssize_t n; (n = ::getdents64(fd, buf, sizeof buf)) > 0;) {
        for (ssize_t at = 0; at < n;) {
          const auto* entry = reinterpret_cast<const dirent64*>(buf + at);
          if (!is_dot_entry(entry->d_name) && ::unlinkat(fd, entry->d_name, 0) == 0) removed = true;
          at += entry->d_reclen;
        }
      }
    }
    ::close(fd);
  }
  ::rmdir(dir);
}

extern "C" void remove_and_reraise(int sig) {
  for (Slot& s : slots) {
    if (s.state.load() != kArmed) continue;
    if (s.folder)
      remove_folder(s.path);
    else
      ::unlink(s.path);
  }
  // The default action ends the process by `sig` once the handler returns (the signal
  // is blocked until then).
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

// Takes over the signals left at their default action, on every registration (cheap),
// so a handler reset by someone in between is set again. An ignored signal stays
// ignored, and another handler is left alone.
void install_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) continue;
    struct sigaction action {};
    action.sa_handler = remove_and_reraise;
    sigfillset(&action.sa_mask);  // a second signal waits until the first has cleaned up
    ::sigaction(sig, &action, nullptr);
  }
}

}  // namespace

RemoveOnSignal::RemoveOnSignal(const std::string& path, Kind kind) : slot_(-1) {
  if (path.size() >= kPathBytes) throw DataError("path too long for a temporary output", path);
  install_handlers();
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
    slots[i].folder = kind == Kind::folder;
    slots[i].state.store(kArmed);
    slot_ = i;
    return;
  }
  throw DataError("too many temporary outputs open at once", path);
}

RemoveOnSignal::~RemoveOnSignal() {
  slots[slot_].state.store(kFree);
}

}  // namespace dpaudit
