// Output that appears whole or not at all. For a file, writes go to a temporary
// file in the same folder, renamed over the target on commit(); for "-" (stdout),
// writes are buffered and printed on commit(). Without commit() nothing is left.
#pragma once
#include <fstream>
#include <sstream>
#include <string>

namespace dpaudit {

class AtomicOutput {
 public:
  explicit AtomicOutput(std::string path, bool binary = false);
  ~AtomicOutput();
  AtomicOutput(const AtomicOutput&) = delete;
  AtomicOutput& operator=(const AtomicOutput&) = delete;

  std::ostream& stream();
  void commit();
  bool is_stdout() const { return path_ == "-" || path_.empty(); }

 private:
  std::string path_;
  std::string temp_path_;
  std::ofstream file_;
  std::ostringstream buffer_;
  bool committed_ = false;
};

// Creates folder `dir` (and parents) if missing; DataError when it cannot.
void ensure_directory(const std::string& dir);

}  // namespace dpaudit
