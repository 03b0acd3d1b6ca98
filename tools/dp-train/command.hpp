// dp-train's subcommands register themselves here: each <name>/command.cpp defines
// a static Registration that adds its CLI11 subcommand and the function it runs.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace dpaudit::dp_train {

struct Command {
  std::string name;
  // Declares the subcommand's options on `sub`; returns the body to run once parsed.
  std::function<std::function<int()>(CLI::App& sub)> declare;
  // The options its memory grows with, for the one line an allocation failure prints.
  std::string memory;
};

std::vector<Command>& commands();

struct Registration {
  explicit Registration(Command c) { commands().push_back(std::move(c)); }
};

}  // namespace dpaudit::dp_train
