#include "train/launch_env.hpp"

#include <cstdlib>
#include <limits>

#include "core/error.hpp"

namespace dpaudit {

namespace {

const char* const kWhere = "environment";

// A non-negative integer variable's value, at most `max`.
long long parse_count(const std::string& name, const std::string& value, long long max) {
  std::size_t used = 0;
  long long n = -1;
  try {
    if (!value.empty() && value[0] != '-' && value[0] != '+') n = std::stoll(value, &used, 10);
  } catch (const std::exception&) {
    n = -1;
  }
  if (n < 0 || used != value.size() || n > max)
    throw UsageError(name + "=" + value + " is not an integer in [0, " + std::to_string(max) + "]",
                     kWhere);
  return n;
}

std::string require(const EnvLookup& env, const std::string& name, const std::string& because) {
  const std::optional<std::string> v = env(name);
  if (!v || v->empty()) throw UsageError(name + " is not set (" + because + ")", kWhere);
  return *v;
}

// Rank and world from RANK/WORLD_SIZE or SLURM_PROCID/SLURM_NTASKS; the Slurm master host.
void read_rank_and_world(const EnvLookup& env, LaunchEnv& l, std::optional<std::string>& host) {
  const int max_world = std::numeric_limits<int>::max();
  if (const std::optional<std::string> rank = env("RANK")) {
    l.rank = static_cast<int>(parse_count("RANK", *rank, max_world - 1));
    l.world = static_cast<int>(parse_count(
        "WORLD_SIZE", require(env, "WORLD_SIZE", "RANK=" + *rank + " is set"), max_world));
    if (l.world < 1) throw UsageError("WORLD_SIZE=0: a run needs at least one rank", kWhere);
    if (l.rank >= l.world)
      throw UsageError("RANK=" + *rank + " is outside WORLD_SIZE=" + std::to_string(l.world) +
                           " (ranks are 0 to " + std::to_string(l.world - 1) + ")",
                       kWhere);
    return;
  }
  const std::string procid = *env("SLURM_PROCID");
  l.rank = static_cast<int>(parse_count("SLURM_PROCID", procid, max_world - 1));
  l.world = static_cast<int>(
      parse_count("SLURM_NTASKS",
                  require(env, "SLURM_NTASKS", "SLURM_PROCID=" + procid + " is set"), max_world));
  if (l.world < 1) throw UsageError("SLURM_NTASKS=0: a run needs at least one task", kWhere);
  if (l.rank >= l.world)
    throw UsageError(
        "SLURM_PROCID=" + procid + " is outside SLURM_NTASKS=" + std::to_string(l.world), kWhere);
  if (const std::optional<std::string> nodes = env("SLURM_JOB_NODELIST")) host = first_host(*nodes);
}

}  // namespace

std::string first_host(const std::string& nodelist) {
  if (nodelist.empty()) throw UsageError("SLURM_JOB_NODELIST is empty", kWhere);
  const auto malformed = [&] {
    return UsageError("SLURM_JOB_NODELIST=" + nodelist + " is not a Slurm node list", kWhere);
  };
  // The first entry ends at the first comma outside brackets.
  std::string host;
  bool in_range = false, first_in_range = true;
  for (char ch : nodelist) {
    if (ch == '[') {
      if (in_range) throw malformed();
      in_range = first_in_range = true;
    } else if (ch == ']') {
      if (!in_range) throw malformed();
      in_range = false;
    } else if (in_range) {
      // Inside brackets only the first number of the first range counts.
      if (ch == ',' || ch == '-')
        first_in_range = false;
      else if (first_in_range)
        host += ch;
    } else if (ch == ',') {
      break;
    } else {
      host += ch;
    }
  }
  if (in_range || host.empty()) throw malformed();
  return host;
}

std::optional<LaunchEnv> launch_env(const EnvLookup& env) {
  if (!env("RANK") && !env("SLURM_PROCID")) return std::nullopt;
  LaunchEnv l;
  std::optional<std::string> slurm_host;
  read_rank_and_world(env, l, slurm_host);
  if (const std::optional<std::string> addr = env("MASTER_ADDR"); addr && !addr->empty())
    l.master_addr = *addr;
  else if (slurm_host)
    l.master_addr = *slurm_host;
  else
    l.master_addr = require(env, "MASTER_ADDR", "the address of rank 0");
  if (const std::optional<std::string> port = env("MASTER_PORT")) {
    l.master_port = static_cast<std::uint16_t>(parse_count("MASTER_PORT", *port, 65535));
    if (l.master_port == 0) throw UsageError("MASTER_PORT=0 is not a port", kWhere);
  }
  return l;
}

std::optional<LaunchEnv> launch_env_from_process() {
  return launch_env([](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  });
}

}  // namespace dpaudit
