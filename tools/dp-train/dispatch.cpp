// dp-train: runs a DP mechanism or training algorithm with canaries inserted, and writes what
// an auditor observes. This program links no LibTorch: it runs the subcommands that need none
// (sum) itself, and for every other command line (the training subcommands, --help,
// --version, a usage error) it becomes its LibTorch part (main.cpp), found at
// DP_TRAIN_LIBTORCH_PART relative to this program's folder, with the same arguments. Both
// parse with the same app (app.cpp), so what either prints is the same.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "app.hpp"

namespace {

// Whether argv[1] names a subcommand of this program (registered by its command.cpp).
bool runs_here(int argc, char** argv) {
  if (argc < 2) return false;
  for (const auto& c : dpaudit::dp_train::commands())
    if (c.name == argv[1]) return true;
  return false;
}

// This program's folder, from /proc/self/exe (symbolic links followed).
std::string own_folder() {
  std::string path(4096, '\0');
  const ssize_t n = readlink("/proc/self/exe", path.data(), path.size());
  if (n <= 0 || static_cast<std::size_t>(n) == path.size()) return ".";
  path.resize(static_cast<std::size_t>(n));
  return path.substr(0, path.rfind('/'));
}

}  // namespace

int main(int argc, char** argv) {
  if (runs_here(argc, argv))
    return dpaudit::dp_train::run_app(argc, argv, dpaudit::dp_train::run_guarded);
  const std::string part = own_folder() + "/" + DP_TRAIN_LIBTORCH_PART;
  execv(part.c_str(), argv);
  std::fprintf(stderr, "dp-train: error: cannot start dp-train's LibTorch part: %s (%s)\n",
               std::strerror(errno), part.c_str());
  return 1;
}
