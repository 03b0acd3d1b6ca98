#include "app.hpp"

#include <algorithm>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "cli/tool.hpp"

namespace dpaudit::dp_train {

DataError out_of_memory(const Command& command) {
  return DataError("out of memory: its size grows with " + command.memory);
}

int run_guarded(const Command& command, const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    throw out_of_memory(command);
  }
}

int run_app(int argc, char** argv, const Guard& guard) {
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
      if (bodies[i].first->parsed()) return guard(all[i], bodies[i].second);
    return 0;
  });
}

}  // namespace dpaudit::dp_train
