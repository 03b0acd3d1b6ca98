#include "trial_rows.hpp"

#include <csignal>

namespace dpaudit::dp_train {

namespace {

// stdout streams; any other path is held whole (a file renamed into place, a device written
// on commit), so that a failed run leaves nothing partial there.
AtomicOutput::Holding holding_for(const std::string& path) {
  if (path != "-" && !path.empty()) return AtomicOutput::Holding::whole;
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe is a failed write (EPIPE), not a kill
  return AtomicOutput::Holding::stream;
}

}  // namespace

TrialRows::TrialRows(const std::string& path) : out_(path, holding_for(path)) {}

bool TrialRows::flush() {
  if (out_.is_stdout()) out_.stream().flush();
  return static_cast<bool>(out_.stream());  // a failed write stops the run; commit() says why
}

void TrialRows::commit() {
  if (!out_.reader_closed()) out_.commit();
}

}  // namespace dpaudit::dp_train
