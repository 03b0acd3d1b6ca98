// The one file that includes c10d (and through it Gloo): USE_C10D_GLOO is defined for it alone
// (lib/CMakeLists.txt).
#include "train/torch/rank_group.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include "core/error.hpp"

namespace dpaudit {

namespace {

std::string first_line(const std::exception& e) {
  const auto* c10 = dynamic_cast<const c10::Error*>(&e);
  std::string s = c10 != nullptr ? c10->what_without_backtrace() : e.what();
  return s.substr(0, s.find('\n'));
}

bool timed_out(const std::string& message) {
  return message.find("imed out") != std::string::npos ||
         message.find("imeout") != std::string::npos;
}

std::vector<std::uint8_t> bytes_of(const std::string& s) {
  return {s.begin(), s.end()};
}
std::string string_of(const std::vector<std::uint8_t>& b) {
  return {b.begin(), b.end()};
}

at::Tensor view(std::vector<double>& values) {
  return at::from_blob(values.data(), {static_cast<std::int64_t>(values.size())}, at::kDouble);
}

}  // namespace

struct RankGroup::Impl {
  LaunchEnv env;
  std::chrono::milliseconds timeout;
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<c10d::ProcessGroupGloo> group;
  std::uint64_t sent = 0, received = 0;

  std::string seconds() const { return std::to_string(timeout.count() / 1000) + " s"; }
  std::string master() const { return env.master_addr + ":" + std::to_string(env.master_port); }

  void open_store() {
    c10d::TCPStoreOptions o;
    o.port = env.master_port;
    o.isServer = env.rank == 0;
    o.numWorkers = env.world;
    o.waitWorkers = false;  // join() waits, naming the ranks that never come
    o.timeout = timeout;
    try {
      store = c10::make_intrusive<c10d::TCPStore>(env.master_addr, o);
    } catch (const std::exception& e) {
      const std::string m = first_line(e);
      if (env.rank != 0)
        throw DataError("rank " + std::to_string(env.rank) + " cannot reach the master " +
                        master() + " within " + seconds() + " (" + m + ")");
      if (m.find("in use") != std::string::npos)
        throw DataError("rank 0 cannot listen on port " + std::to_string(env.master_port) +
                        ": the port is in use (MASTER_PORT)");
      throw DataError("rank 0 cannot listen on port " + std::to_string(env.master_port) + " (" + m +
                      ")");
    }
  }

  // Rank 0: which of ranks 1..world-1 are missing, after waiting up to the timeout.
  std::string missing_ranks() {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::string missing;
    for (int k = 1; k < env.world; ++k) {
      const std::string key = "dpaudit/world/" + std::to_string(k);
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      try {
        store->wait({key}, std::max(left, std::chrono::milliseconds(1)));
      } catch (const std::exception&) {
        if (!store->check({key})) missing += (missing.empty() ? "" : ", ") + std::to_string(k);
      }
    }
    return missing;
  }

  // Rank 0's verdict on the rendezvous: empty when every rank joined with the same world.
  std::string verdict() {
    const std::string missing = missing_ranks();
    if (!missing.empty())
      return (missing.find(',') == std::string::npos ? "rank " : "ranks ") + missing +
             " did not join within " + seconds() + " (a world of " + std::to_string(env.world) +
             " ranks at " + master() + ")";
    for (int k = 1; k < env.world; ++k) {
      const std::string w = string_of(store->get("dpaudit/world/" + std::to_string(k)));
      if (w != std::to_string(env.world))
        return "world size mismatch: rank " + std::to_string(k) + " was started with " + w +
               " ranks, rank 0 with " + std::to_string(env.world);
    }
    return "";
  }

  // Says who this rank is: its rank (claimed once), then its world size.
  void announce() {
    const std::string me = std::to_string(env.rank);
    if (store->add("dpaudit/rank/" + me, 1) > 1)
      throw DataError("two processes claim rank " + me + " at " + master());
    store->set("dpaudit/world/" + me, bytes_of(std::to_string(env.world)));
  }

  // Rank 0 waits for every rank's world size and says whether the run goes on; the others
  // compare theirs with rank 0's before announcing themselves (so that they see a mismatch
  // before rank 0 ends the run), then wait for its verdict.
  void join() {
    if (env.rank == 0) {
      announce();
      const std::string v = verdict();
      store->set("dpaudit/verdict", bytes_of(v));
      if (!v.empty()) throw DataError(v);
      return;
    }
    const std::string me = std::to_string(env.rank);
    std::string v;
    try {
      const std::string w0 = string_of(store->get("dpaudit/world/0"));
      announce();
      if (w0 != std::to_string(env.world))
        throw DataError("world size mismatch: rank " + me + " was started with " +
                        std::to_string(env.world) + " ranks, rank 0 with " + w0);
      store->wait({"dpaudit/verdict"}, timeout);
      v = string_of(store->get("dpaudit/verdict"));
    } catch (const DataError&) {
      throw;
    } catch (const std::exception& e) {
      throw DataError("rank " + me + " lost the master " + master() + " while joining (" +
                      first_line(e) + ")");
    }
    if (!v.empty()) throw DataError(v);
  }

  std::shared_ptr<::gloo::transport::Device> device() const {
    if (const char* name = std::getenv("GLOO_SOCKET_IFNAME"))
      return c10d::ProcessGroupGloo::createDeviceForInterface(name);
    if (env.master_addr == "127.0.0.1" || env.master_addr == "localhost")
      return c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1");
    return c10d::ProcessGroupGloo::createDefaultDevice();
  }

  // Starts a transfer with rank `peer` and waits for it; a failure names the rank.
  void transfer(const std::function<c10::intrusive_ptr<c10d::Work>()>& start, int peer,
                const char* what) {
    try {
      start()->wait(timeout);
    } catch (const std::exception& e) {
      const std::string m = first_line(e);
      const std::string who = "rank " + std::to_string(peer);
      if (timed_out(m))
        throw DataError(who + " did not " + what + " within " + seconds() +
                        " (hung, or slower than the timeout)");
      throw DataError(who + " left the run (died or disconnected: " + m + ")");
    }
  }
};

RankGroup::RankGroup(const LaunchEnv& env, std::chrono::milliseconds timeout)
    : impl_(std::make_unique<Impl>()) {
  // c10d logs its socket errors through glog (LibTorch's logger); what failed is this class's
  // one-line DataError.
  FLAGS_minloglevel = std::max(FLAGS_minloglevel, google::GLOG_FATAL);
  impl_->env = env;
  impl_->timeout = timeout;
  impl_->open_store();
  impl_->join();
  auto options = c10d::ProcessGroupGloo::Options::create(timeout);
  options->devices.push_back(impl_->device());
  try {
    impl_->group = c10::make_intrusive<c10d::ProcessGroupGloo>(
        c10::make_intrusive<c10d::PrefixStore>("gloo", impl_->store), env.rank, env.world, options);
  } catch (const std::exception& e) {
    throw DataError("rank " + std::to_string(env.rank) + " could not connect to every rank (" +
                    first_line(e) + ")");
  }
}

RankGroup::~RankGroup() = default;

int RankGroup::rank() const {
  return impl_->env.rank;
}
int RankGroup::size() const {
  return impl_->env.world;
}

void RankGroup::send(std::vector<double>& values, int to) {
  std::vector<at::Tensor> t{view(values)};
  impl_->transfer([&] { return impl_->group->send(t, to, 0); }, to, "take its data");
  impl_->sent += values.size() * sizeof(double);
}

void RankGroup::receive(std::vector<double>& values, int from) {
  std::vector<at::Tensor> t{view(values)};
  impl_->transfer([&] { return impl_->group->recv(t, from, 0); }, from, "send its data");
  impl_->received += values.size() * sizeof(double);
}

// From rank 0 to each rank in turn (not Gloo's broadcast, whose failure does not say which
// rank is gone): a failure names the rank.
void RankGroup::broadcast(std::vector<double>& values) {
  if (rank() != 0) {
    receive(values, 0);
    return;
  }
  for (int k = 1; k < size(); ++k) send(values, k);
}

std::uint64_t RankGroup::bytes_sent() const {
  return impl_->sent;
}
std::uint64_t RankGroup::bytes_received() const {
  return impl_->received;
}

}  // namespace dpaudit
