// What dp-train's multi-process subcommands share (fedavg, canife at user level): --ranks and
// --timeout, and starting the local ranks (train/local_ranks.hpp) with this command line
// without --ranks. The ranks themselves are train/torch/rank_group.hpp.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "train/launch_env.hpp"
#include "train/torch/rank_group.hpp"

namespace CLI {
class App;
}

namespace dpaudit::dp_train {

struct RankOptions {
  int ranks = 0;         // --ranks N: start N local ranks; 0: one process, or the launcher's
  double timeout = 300;  // seconds a rank waits for another before the run fails
};

void declare_ranks(CLI::App& sub, RankOptions& r);

// Runs this command as r.ranks local processes; `out` is the --out whose staging folder a
// killed rank 0 leaves behind. Returns the exit status.
int run_local(const RankOptions& r, const std::string& out);

// The ranks of a multi-process run described by `env` (nullptr: one process, also for a world
// of one).
std::unique_ptr<RankGroup> join_ranks(const std::optional<LaunchEnv>& env, const RankOptions& r);

}  // namespace dpaudit::dp_train
