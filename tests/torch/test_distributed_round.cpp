// The round across ranks (train/torch/distributed_round.hpp): each rank's fixed share of the
// clients (id mod world), and one rank of a real c10d group (rank_group.hpp, a TCPStore on a
// free loopback port) giving bit for bit what the single-process round gives. The several-rank
// runs, their byte-identical outputs and the faults are tests/cli/fedavg_ranks.sh.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vector>

#include "data/datasets.hpp"
#include "random/philox_stream.hpp"
#include "train/torch/distributed_round.hpp"
#include "train/torch/models.hpp"

#include "small_model.hpp"

// LibTorch's headers define a CHECK macro of their own (c10 logging); doctest's comes last.
#undef CHECK
#include <doctest/doctest.h>

using namespace dpaudit;

namespace {

std::uint16_t free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  close(fd);
  return ntohs(a.sin_port);
}

// Four clients of two 8 x 8 examples each, and an MLP with 16 hidden units.
using Setup = test::SmallFederation;
Setup setup() {
  return test::small_federation(4);
}

}  // namespace

TEST_CASE("a rank's share: the round's clients whose id mod world is its rank, in order") {
  const std::vector<std::size_t> ids{5, 2, 8, 3, 10, 7};
  CHECK(rank_share(ids, 0, 3) == std::vector<std::size_t>{3});
  CHECK(rank_share(ids, 1, 3) == std::vector<std::size_t>{10, 7});
  CHECK(rank_share(ids, 2, 3) == std::vector<std::size_t>{5, 2, 8});
  CHECK(rank_share(ids, 0, 1) == ids);
  CHECK(rank_share(ids, 3, 4) == std::vector<std::size_t>{3, 7});
}

TEST_CASE("one rank of a c10d group: the same model, bit for bit, as the round in one process") {
  Setup a = setup(), b = setup();
  ClientTrainer ta(a.model, a.data, a.clients, {1, 2, 0.1}, 1);
  ClientTrainer tb(b.model, b.data, b.clients, {1, 2, 0.1}, 1);
  FedAvgRound ra(ta, a.theta.size(), 1.0, 0.9, 3, 100);
  FedAvgRound rb(tb, b.theta.size(), 1.0, 0.9, 3, 100);
  RankGroup group(LaunchEnv{0, 1, "127.0.0.1", free_port()}, std::chrono::seconds(20));
  CHECK(group.rank() == 0);
  CHECK(group.size() == 1);
  DistributedRound across(rb, group);
  FedAvgObserver none;
  const std::vector<std::size_t> ids{3, 0, 2};
  for (std::size_t t = 0; t < 2; ++t) {
    PhiloxStream na(3, 500 + t), nb(3, 500 + t);
    REQUIRE(ra.run(t, ids, 0.5, 0.1, na, none, a.theta));
    REQUIRE(across.run(t, ids, 0.5, 0.1, nb, none, b.theta));
  }
  CHECK(a.theta == b.theta);  // exact equality of doubles
  CHECK(across.agree(0.25) == 0.25);
  // One rank sends nothing; a broadcast to no other rank counts no bytes.
  CHECK(group.bytes_sent() == 0);
  CHECK(group.bytes_received() == 0);
}
