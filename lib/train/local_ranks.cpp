#include "train/local_ranks.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <thread>

#include "core/error.hpp"

namespace dpaudit {

namespace {

// A port that was free on 127.0.0.1 a moment ago (the kernel's pick).
int free_loopback_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw DataError(std::string("cannot open a socket: ") + std::strerror(errno));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof a;
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0;
  close(fd);
  if (!ok) throw DataError(std::string("no free port on 127.0.0.1: ") + std::strerror(errno));
  return ntohs(a.sin_port);
}

struct Rank {
  pid_t pid = -1;
  std::FILE* err = nullptr;  // the stderr of ranks > 0
  int status = 0;
  bool ended = false;
};

[[noreturn]] void exec_rank(const std::vector<std::string>& argv, int rank, int ranks, int port,
                            std::FILE* err) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);  // a rank does not outlive the launcher
  setenv("RANK", std::to_string(rank).c_str(), 1);
  setenv("LOCAL_RANK", std::to_string(rank).c_str(), 1);
  setenv("WORLD_SIZE", std::to_string(ranks).c_str(), 1);
  setenv("MASTER_ADDR", "127.0.0.1", 1);
  setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
  if (err != nullptr) dup2(fileno(err), STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv("/proc/self/exe", args.data());
  std::fprintf(stderr, "cannot start rank %d: %s\n", rank, std::strerror(errno));
  _exit(127);
}

// Waits for any rank; returns its index.
std::size_t wait_any(std::vector<Rank>& ranks) {
  for (;;) {
    int status = 0;
    const pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == EINTR) continue;
    if (pid < 0) throw DataError(std::string("waiting for the ranks: ") + std::strerror(errno));
    for (std::size_t i = 0; i < ranks.size(); ++i)
      if (ranks[i].pid == pid) {
        ranks[i].status = status;
        ranks[i].ended = true;
        return i;
      }
  }
}

// Gives rank 0 `grace` to end by itself (it notices a lost rank at once when it waits for
// it); true when it did.
bool rank0_ends_within(Rank& r0, std::chrono::milliseconds grace) {
  const auto until = std::chrono::steady_clock::now() + grace;
  while (std::chrono::steady_clock::now() < until) {
    if (waitpid(r0.pid, &r0.status, WNOHANG) == r0.pid) return r0.ended = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// Rank 0 gets SIGTERM (it discards its staged output), the others SIGKILL; a stopped rank is
// continued so that it can end.
void stop_the_rest(std::vector<Rank>& ranks) {
  for (std::size_t k = 0; k < ranks.size(); ++k)
    if (!ranks[k].ended) {
      kill(ranks[k].pid, k == 0 ? SIGTERM : SIGKILL);
      kill(ranks[k].pid, SIGCONT);
    }
  for (Rank& r : ranks)
    if (!r.ended) {
      waitpid(r.pid, &r.status, 0);
      r.ended = true;
    }
}

bool failed(int status) {
  return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

std::string ended_how(int status) {
  if (WIFSIGNALED(status)) {
    const char* name = strsignal(WTERMSIG(status));
    return "was killed by signal " + std::to_string(WTERMSIG(status)) +
           (name != nullptr ? std::string(" (") + name + ")" : std::string());
  }
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

// A failed rank > 0: its own error lines, or one line when a signal ended it.
int report_rank(Rank& r, std::size_t k) {
  if (WIFEXITED(r.status)) {
    std::rewind(r.err);
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, r.err)) > 0;)
      std::cerr.write(buffer, static_cast<std::streamsize>(n));
    return WEXITSTATUS(r.status);
  }
  throw DataError("rank " + std::to_string(k) + " " + ended_how(r.status));
}

}  // namespace

std::vector<std::string> own_command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> argv;
  std::string arg;
  while (std::getline(in, arg, '\0')) argv.push_back(arg);
  return argv;
}

int run_local_ranks(const std::vector<std::string>& argv, int ranks,
                    const std::function<void(long pid)>& rank0_killed) {
  const int port = free_loopback_port();
  std::vector<Rank> rs(static_cast<std::size_t>(ranks));
  std::cout.flush();
  std::cerr.flush();
  for (int k = 0; k < ranks; ++k) {
    Rank& r = rs[static_cast<std::size_t>(k)];
    if (k > 0) r.err = std::tmpfile();
    r.pid = fork();
    if (r.pid < 0) {
      stop_the_rest(rs);
      throw DataError(std::string("cannot start rank ") + std::to_string(k) + ": " +
                      std::strerror(errno));
    }
    if (r.pid == 0) exec_rank(argv, k, ranks, port, r.err);
  }
  std::size_t first = wait_any(rs);
  while (first != 0 && !failed(rs[first].status)) first = wait_any(rs);
  if (first != 0 && rank0_ends_within(rs[0], std::chrono::seconds(2))) first = 0;
  stop_the_rest(rs);
  int result = 0;
  if (first != 0)
    result = report_rank(rs[first], first);
  else if (WIFSIGNALED(rs[0].status)) {
    rank0_killed(rs[0].pid);
    throw DataError("rank 0 " + ended_how(rs[0].status));
  } else
    result = WEXITSTATUS(rs[0].status);
  for (Rank& r : rs)
    if (r.err != nullptr) std::fclose(r.err);
  return result;
}

}  // namespace dpaudit
