// score-dump's body, callable in-process: the options as parsed and the exit status. It
// reads files only and writes `output` ("-": stdout) through lib/canary's writer; progress,
// notes and errors go to `err`.
#pragma once
#include <ostream>
#include <string>

namespace dpaudit::score_dump {

struct Options {
  std::string canaries, unseen, model, reference, deltas;  // paths ("": not given)
  std::string stat = "cosine";                             // cosine | dot
  std::string reduce = "max";                              // --deltas: max | mean
  std::string device = "cpu";                              // cpu | cuda
  int threads = 0;
  double cache_mb = 0;
  std::string output = "-";
  bool quiet = false;
};

int run(const Options& options, std::ostream& err);

}  // namespace dpaudit::score_dump
