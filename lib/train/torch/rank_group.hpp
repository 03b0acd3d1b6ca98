// The ranks of a multi-process run, over LibTorch's c10d (a TCPStore on rank 0 for the
// rendezvous, ProcessGroupGloo for the transfers): point-to-point sends to rank 0 and
// broadcasts from it, each bounded by a timeout. A rank that dies, hangs or never joins
// ends the call waiting for it with a DataError naming the rank. The c10d and Gloo headers
// are included only by rank_group.cpp (they are slow to compile): nothing else sees them.
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "train/launch_env.hpp"

namespace dpaudit {

class RankGroup {
 public:
  // Joins the run described by `env` (rank 0 listens on env.master_port, the others connect to
  // env.master_addr), checking that every rank has the same world size and that no rank is
  // claimed twice. DataError naming what went wrong: the port in use, the master unreachable,
  // a rank that did not join within `timeout`, a world-size mismatch.
  RankGroup(const LaunchEnv& env, std::chrono::milliseconds timeout);
  ~RankGroup();
  RankGroup(const RankGroup&) = delete;
  RankGroup& operator=(const RankGroup&) = delete;

  int rank() const;
  int size() const;
  // Sends `values` to rank `to`, which receives them with receive(values of the same size,
  // this rank).
  void send(std::vector<double>& values, int to);
  void receive(std::vector<double>& values, int from);
  // Rank 0's `values` into every rank's `values` (the same size on every rank), sent by rank 0
  // to each rank in turn.
  void broadcast(std::vector<double>& values);
  // Payload bytes this rank has sent and received so far.
  std::uint64_t bytes_sent() const;
  std::uint64_t bytes_received() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dpaudit
