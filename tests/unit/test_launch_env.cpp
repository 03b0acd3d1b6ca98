// The launch environment (train/launch_env): torchrun's and srun's variables, the first host of
// Slurm node lists (the forms of Slurm's hostlist syntax, `scontrol show hostnames`), and a
// clear error for what is malformed or missing.
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "core/error.hpp"
#include "train/launch_env.hpp"

using namespace dpaudit;

namespace {

std::optional<LaunchEnv> from(const std::map<std::string, std::string>& vars) {
  return launch_env([&](const std::string& name) -> std::optional<std::string> {
    const auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  });
}

std::string error_of(const std::map<std::string, std::string>& vars) {
  try {
    from(vars);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("no rank variable: a single process") {
  CHECK_FALSE(from({}).has_value());
  CHECK_FALSE(from({{"WORLD_SIZE", "4"}, {"MASTER_ADDR", "h"}}).has_value());
}

TEST_CASE("torchrun's variables") {
  const auto l = from(
      {{"RANK", "2"}, {"WORLD_SIZE", "4"}, {"MASTER_ADDR", "10.0.0.5"}, {"MASTER_PORT", "29501"}});
  REQUIRE(l.has_value());
  CHECK(l->rank == 2);
  CHECK(l->world == 4);
  CHECK(l->master_addr == "10.0.0.5");
  CHECK(l->master_port == 29501);
  // MASTER_PORT defaults to c10d's 29500.
  CHECK(from({{"RANK", "0"}, {"WORLD_SIZE", "1"}, {"MASTER_ADDR", "h"}})->master_port == 29500);
}

TEST_CASE("srun's variables: the master is the first host of the node list") {
  const auto l = from(
      {{"SLURM_PROCID", "3"}, {"SLURM_NTASKS", "8"}, {"SLURM_JOB_NODELIST", "node[3,5-7],gpu2"}});
  REQUIRE(l.has_value());
  CHECK(l->rank == 3);
  CHECK(l->world == 8);
  CHECK(l->master_addr == "node3");
  CHECK(l->master_port == 29500);
  // MASTER_ADDR and MASTER_PORT override; RANK wins over SLURM_PROCID (torchrun inside srun).
  const auto o = from({{"SLURM_PROCID", "3"},
                       {"SLURM_NTASKS", "8"},
                       {"SLURM_JOB_NODELIST", "node01"},
                       {"MASTER_ADDR", "login"},
                       {"MASTER_PORT", "4000"}});
  CHECK(o->master_addr == "login");
  CHECK(o->master_port == 4000);
  const auto t = from({{"SLURM_PROCID", "3"},
                       {"SLURM_NTASKS", "8"},
                       {"RANK", "1"},
                       {"WORLD_SIZE", "2"},
                       {"MASTER_ADDR", "h"}});
  CHECK(t->rank == 1);
  CHECK(t->world == 2);
}

TEST_CASE("first host of a Slurm node list") {
  CHECK(first_host("node01") == "node01");
  CHECK(first_host("node[01-04]") == "node01");
  CHECK(first_host("node[3,5-7],gpu2") == "node3");
  CHECK(first_host("gpu2,node[3,5-7]") == "gpu2");
  CHECK(first_host("rack1-[08-09]-b") == "rack1-08-b");
  CHECK(first_host("n[007]") == "n007");
  CHECK_THROWS_AS(first_host(""), UsageError);
  CHECK_THROWS_AS(first_host("node[01-04"), UsageError);
  CHECK_THROWS_AS(first_host("node01-04]"), UsageError);
  CHECK_THROWS_AS(first_host("[]"), UsageError);
}

TEST_CASE("malformed or inconsistent values: one error naming the variable") {
  CHECK(error_of({{"RANK", "1"}, {"MASTER_ADDR", "h"}}) ==
        "WORLD_SIZE is not set (RANK=1 is set) (environment)");
  CHECK(error_of({{"RANK", "x"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}}) ==
        "RANK=x is not an integer in [0, 2147483646] (environment)");
  CHECK(error_of({{"RANK", "-1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}}) ==
        "RANK=-1 is not an integer in [0, 2147483646] (environment)");
  CHECK(error_of({{"RANK", "2"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}}) ==
        "RANK=2 is outside WORLD_SIZE=2 (ranks are 0 to 1) (environment)");
  CHECK(error_of({{"RANK", "0"}, {"WORLD_SIZE", "0"}, {"MASTER_ADDR", "h"}}) ==
        "WORLD_SIZE=0: a run needs at least one rank (environment)");
  CHECK(error_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}}) ==
        "MASTER_ADDR is not set (the address of rank 0) (environment)");
  CHECK(error_of(
            {{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "70000"}}) ==
        "MASTER_PORT=70000 is not an integer in [0, 65535] (environment)");
  CHECK(
      error_of({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "h"}, {"MASTER_PORT", "0"}}) ==
      "MASTER_PORT=0 is not a port (environment)");
  CHECK(error_of({{"SLURM_PROCID", "4"}, {"SLURM_NTASKS", "4"}, {"SLURM_JOB_NODELIST", "n1"}}) ==
        "SLURM_PROCID=4 is outside SLURM_NTASKS=4 (environment)");
  CHECK(error_of({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "4"}, {"SLURM_JOB_NODELIST", "n[1-"}}) ==
        "SLURM_JOB_NODELIST=n[1- is not a Slurm node list (environment)");
}
