// Temporary outputs that must not outlive an interrupted run (an atomic writer's
// temporary file, dp-train fedavg's staging folder). While one is registered, SIGINT,
// SIGTERM and SIGHUP remove it, then end the process by the same signal, so the shell
// still sees 130, 143 or 129. Only signals at their default action are taken over: one
// the process started with ignored (nohup, `cmd &` in a script) stays ignored. The
// handler makes only system calls (async-signal-safe).
#pragma once
#include <string>

namespace dpaudit {

class RemoveOnSignal {
 public:
  enum class Kind { file, folder };  // folder: the files directly inside it, then itself
  // DataError for a path too long to register or when every slot is taken (both
  // mean a bug or a misuse: a run has a handful of temporary outputs).
  RemoveOnSignal(const std::string& path, Kind kind);
  ~RemoveOnSignal();  // unregisters; removes nothing
  RemoveOnSignal(const RemoveOnSignal&) = delete;
  RemoveOnSignal& operator=(const RemoveOnSignal&) = delete;

 private:
  int slot_;
};

}  // namespace dpaudit
