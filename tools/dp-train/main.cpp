// dp-train's LibTorch part: every subcommand, each in its folder (canife/, fedavg/, ldp/, sgd/,
// sum/). dp-train (dispatch.cpp) starts it for every command line but its own LibTorch-free
// subcommands; it is installed beside it (CMakeLists.txt) and is not meant to be run by hand.
#include <string>

#include <c10/util/Exception.h>

#include "app.hpp"
#include "core/error.hpp"

namespace {

using dpaudit::DataError;

// The subcommand's body, with what LibTorch throws said in one line (its own message carries a
// C++ stack trace); LibTorch's allocation failure reads as the allocator's.
int run_command(const dpaudit::dp_train::Command& command, const std::function<int()>& body) {
  try {
    return dpaudit::dp_train::run_guarded(command, body);
  } catch (const c10::Error& e) {
    std::string message = e.what_without_backtrace();
    message = message.substr(0, message.find('\n'));
    // "DefaultCPUAllocator: can't allocate memory" (not enough memory, in other versions)
    if (message.find("DefaultCPUAllocator") != std::string::npos)
      throw dpaudit::dp_train::out_of_memory(command);
    throw DataError("LibTorch: " + message);
  }
}

}  // namespace

int main(int argc, char** argv) {
  return dpaudit::dp_train::run_app(argc, argv, run_command);
}
