// Where this process stands in a multi-process run, as the usual launchers say it in the
// environment: torchrun's RANK / WORLD_SIZE / MASTER_ADDR / MASTER_PORT, or srun's SLURM_PROCID /
// SLURM_NTASKS with the first host of SLURM_JOB_NODELIST as the master (MASTER_ADDR and
// MASTER_PORT, when set, override it; the port defaults to 29500, c10d's). No LibTorch here:
// the process group that uses it is train/torch/rank_group.hpp.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace dpaudit {

struct LaunchEnv {
  int rank = 0;
  int world = 1;
  std::string master_addr;
  std::uint16_t master_port = 29500;
};

// An environment variable's value, or nullopt when unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The launch described by `env`: nullopt when neither RANK nor SLURM_PROCID is set (a single
// process). UsageError naming the variable and its value when one is malformed (not a
// number, a rank outside [0, world), a port outside 1..65535), or a variable the launch needs
// is missing (WORLD_SIZE with RANK, MASTER_ADDR without a Slurm node list).
std::optional<LaunchEnv> launch_env(const EnvLookup& env);
// launch_env of this process's environment.
std::optional<LaunchEnv> launch_env_from_process();

// The first host of a Slurm node list: "node01" -> node01, "node[01-04]" -> node01,
// "node[3,5-7],gpu2" -> node3, "a-[08-09]-b" -> a-08-b. UsageError for an empty list or
// unbalanced brackets.
std::string first_host(const std::string& nodelist);

}  // namespace dpaudit
