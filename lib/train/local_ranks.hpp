// A multi-process run on one machine: this program started again as ranks 0..N-1 over
// loopback, with the environment torchrun would give them (RANK, WORLD_SIZE, LOCAL_RANK,
// MASTER_ADDR=127.0.0.1, MASTER_PORT a free port; train/launch_env.hpp reads it). Rank 0
// keeps this process's stderr; the other ranks' stderr is kept aside and shown only when one
// of them fails on its own. When a rank fails the others are stopped (SIGTERM: rank 0's
// staged output is discarded) and the run fails with one line. No LibTorch here.
#pragma once
#include <functional>
#include <string>
#include <vector>

namespace dpaudit {

// This process's command line, argv[0] first (Linux: /proc/self/cmdline).
std::vector<std::string> own_command_line();

// Runs `argv` (this program's arguments, argv[0] first; the program is /proc/self/exe) as
// `ranks` processes and waits for them. Returns rank 0's exit status when it ended by itself
// (it has said why it failed), or a failed rank's when that rank failed first and printed its
// own error; DataError naming the rank when a rank was killed by a signal (after calling
// `rank0_killed` with rank 0's process id when it was rank 0, to clean up what it left).
int run_local_ranks(const std::vector<std::string>& argv, int ranks,
                    const std::function<void(long pid)>& rank0_killed);

}  // namespace dpaudit
