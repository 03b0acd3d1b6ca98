// dp-train's command line, shared by its two programs: the top-level CLI11 app with every
// registered subcommand (command.hpp), parsed and run. dp-train itself (dispatch.cpp) has
// the subcommands that need no LibTorch (sum) and runs them; for anything else it starts its
// LibTorch part (main.cpp, installed beside it: see CMakeLists.txt), which has them all.
#pragma once
#include <functional>

#include "command.hpp"
#include "core/error.hpp"

namespace dpaudit::dp_train {

// Runs a subcommand's body; the LibTorch part also turns LibTorch's errors into one line.
using Guard = std::function<int(const Command& command, const std::function<int()>& body)>;

// Parses argv with every registered subcommand and runs the chosen one through `guard`;
// returns the exit status (cli/tool.hpp's run: usage errors 2, DataError 1).
int run_app(int argc, char** argv, const Guard& guard);

// The body, with an allocation failure said in one line naming the options its size grows
// with (Command::memory): out_of_memory's error.
int run_guarded(const Command& command, const std::function<int()>& body);
DataError out_of_memory(const Command& command);

}  // namespace dpaudit::dp_train
