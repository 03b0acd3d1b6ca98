// The trial rows of dp-train sgd and ldp on their way out. On stdout they stream: each
// delivery of finished trials (in trial order) is written and flushed at once, so a reader
// such as `eps-from-scores --sequential` sees every trial when it is done. A reader that
// closes the pipe (a gate that has decided) stops the run: SIGPIPE is ignored, the failed
// write says so (reader_closed), and the command ends quietly with status 0, the rows it
// wrote being whole. To a file, the rows appear whole at the end or not at all
// (io/atomic_output.hpp), as every output of dpaudit.
#pragma once
#include <ostream>
#include <string>

#include "io/atomic_output.hpp"

namespace dpaudit::dp_train {

class TrialRows {
 public:
  explicit TrialRows(const std::string& path);
  std::ostream& stream() { return out_.stream(); }
  // Ends a delivery: flushes a stream; false when a write failed (the reader closed the
  // pipe, or another error that commit() reports).
  bool flush();
  bool reader_closed() const { return out_.reader_closed(); }
  // The end of the run: a file is renamed into place; a write error is thrown (DataError);
  // a stream whose reader has gone has nothing to commit.
  void commit();

 private:
  AtomicOutput out_;
};

}  // namespace dpaudit::dp_train
