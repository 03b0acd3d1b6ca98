// dp-train: runs a DP mechanism or training algorithm with canaries inserted, and
// writes what an auditor observes. Each subcommand is in its folder (canife/, fedavg/, ldp/, sgd/,
// sum/).
#include <algorithm>
#include <new>

#include <c10/util/Exception.h>

#include "cli/tool.hpp"
#include "command.hpp"
#include "core/error.hpp"

namespace {

using dpaudit::DataError;

// The subcommand's body, with what the allocator and LibTorch throw said in one line
// (LibTorch's own message carries a C++ stack trace): an allocation failure names the
// options its size grows with.
int run_command(const dpaudit::dp_train::Command& command, const std::function<int()>& body) {
  const std::string out_of_memory = "out of memory: its size grows with " + command.memory;
  try {
    return body();
  } catch (const std::bad_alloc&) {
    throw DataError(out_of_memory);
  } catch (const c10::Error& e) {
    std::string message = e.what_without_backtrace();
    message = message.substr(0, message.find('\n'));
    // "DefaultCPUAllocator: can't allocate memory" (not enough memory, in other versions)
    if (message.find("DefaultCPUAllocator") != std::string::npos) throw DataError(out_of_memory);
    throw DataError("LibTorch: " + message);
  }
}

}  // namespace

int main(int argc, char** argv) {
  using dpaudit::dp_train::commands;
  CLI::App app{
      "Run DP training (or one DP release) with canaries inserted; write what an auditor sees.",
      "dp-train"};
  dpaudit::cli::setup(
      app,
      "  dp-train sum --dim 100000 --clients 0 --canaries canaries.json --noise 0.541 --seed 1 -o "
      "release.npy\n"
      "  dp-train canife --noise-multiplier 0.2 --audit-every 100 --out run/\n"
      "  dp-train fedavg --num-canaries 1000 --num-unseen 1000 --noise-multiplier 0.5 --out run/\n"
      "  dp-train ldp --crafter dummy-gradient --distinguisher white-box --eps 4 --trials 10000 > "
      "decisions.csv\n"
      "  dp-train sgd --threat malicious-dataset --engine simulate --eps 4 --trials 100000 > "
      "scores.csv\n"
      "  (see dp-train SUBCOMMAND --help, and dp-train(1))\n");
  app.require_subcommand(1);
  auto& all = commands();
  std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  std::vector<std::pair<CLI::App*, std::function<int()>>> bodies;
  for (auto& c : all) {
    CLI::App* sub = app.add_subcommand(c.name);
    bodies.emplace_back(sub, c.declare(*sub));
  }
  return dpaudit::cli::run(app, argc, argv, [&] {
    for (std::size_t i = 0; i < bodies.size(); ++i)
      if (bodies[i].first->parsed()) return run_command(all[i], bodies[i].second);
    return 0;
  });
}
