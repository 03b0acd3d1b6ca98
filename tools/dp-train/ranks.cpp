#include "ranks.hpp"

#include <chrono>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/tool.hpp"
#include "io/staging_dir.hpp"
#include "train/local_ranks.hpp"

namespace dpaudit::dp_train {

namespace {

// This command line without --ranks, for the ranks it starts.
std::vector<std::string> without_ranks(std::vector<std::string> argv) {
  for (std::size_t i = 0; i < argv.size(); ++i) {
    if (argv[i].rfind("--ranks=", 0) == 0) {
      argv.erase(argv.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
    if (argv[i] == "--ranks" && i + 1 < argv.size()) {
      argv.erase(argv.begin() + static_cast<std::ptrdiff_t>(i),
                 argv.begin() + static_cast<std::ptrdiff_t>(i) + 2);
      break;
    }
  }
  return argv;
}

}  // namespace

void declare_ranks(CLI::App& sub, RankOptions& r) {
  sub.add_option("--ranks", r.ranks,
                 "start N local ranks over loopback (torchrun's variables, a free port); without "
                 "it the ranks come from RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT or "
                 "SLURM_PROCID/SLURM_NTASKS/SLURM_JOB_NODELIST, else one process")
      ->check(CLI::Range(1, 1024));
  sub.add_option("--timeout", r.timeout,
                 "seconds a rank waits for another (to join, to send its clients' updates or "
                 "the model) before the run fails; longer than a round")
      ->capture_default_str()
      ->check(cli::positive());
}

int run_local(const RankOptions& r, const std::string& out) {
  return run_local_ranks(without_ranks(own_command_line()), r.ranks,
                         [&](long pid) { discard_staging(out, pid); });
}

}  // namespace dpaudit::dp_train

namespace dpaudit::dp_train {

std::unique_ptr<RankGroup> join_ranks(const std::optional<LaunchEnv>& env, const RankOptions& r) {
  // A world of one is one process: no socket (an sbatch step, or a Slurm job array's task,
  // has SLURM_PROCID=0 and SLURM_NTASKS=1, and several on a node would share the port).
  if (!env || env->world == 1) return nullptr;
  return std::make_unique<RankGroup>(
      *env, std::chrono::milliseconds(static_cast<std::int64_t>(r.timeout * 1000)));
}

}  // namespace dpaudit::dp_train
