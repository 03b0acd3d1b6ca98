#include "fedavg/output.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>

#include "io/atomic_output.hpp"
#include "core/error.hpp"
#include "io/format.hpp"

namespace dpaudit::dp_train {

namespace fs = std::filesystem;

StagingDir::StagingDir(std::string target) {
  fs::path t(target);
  if (t.filename().empty()) t = t.parent_path();  // "run/" -> "run"
  // A symlinked --out stays a link: its target gets the files, staged beside it (the
  // same file system, so they can be renamed into it).
  target_ = follow_symlinks(t.string());
  staging_ = target_ + ".partial-" + std::to_string(::getpid());
  std::error_code ec;
  fs::remove_all(staging_, ec);
  remove_on_signal_ = std::make_unique<RemoveOnSignal>(staging_, RemoveOnSignal::Kind::folder);
  ensure_directory(staging_);
}

StagingDir::~StagingDir() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

std::string StagingDir::path(const std::string& file) const { return (fs::path(staging_) / file).string(); }

void StagingDir::commit() {
  ensure_directory(target_);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(staging_)) {
    fs::rename(entry.path(), fs::path(target_) / entry.path().filename(), ec);
    if (ec) throw DataError("cannot move " + entry.path().filename().string() + " into place: " + ec.message(), target_);
  }
  fs::remove(staging_, ec);
  remove_on_signal_.reset();
  committed_ = true;
}

void write_metrics_csv(const std::string& path, const std::vector<RoundMetrics>& rows) {
  AtomicOutput out(path);
  std::ostream& s = out.stream();
  s << "round,train_loss,update_norm,clip,test_accuracy\n";
  for (const auto& r : rows) {
    s << r.round << ',' << format_number(r.train_loss) << ',' << format_number(r.update_norm) << ',' << format_number(r.clip) << ',';
    if (r.test_accuracy >= 0) s << format_number(r.test_accuracy);
    s << '\n';
  }
  out.commit();
}

double peak_memory_mb() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KiB on Linux
}

}  // namespace dpaudit::dp_train
