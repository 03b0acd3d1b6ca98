// `dp-train sgd`'s command line: its options, and their checks once parsed, into an
// SgdConfig. No LibTorch here: tests/fuzz/fuzz_sgd_options fuzzes it alone.
#pragma once
#include <cstddef>
#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "sgd/config.hpp"

namespace dpaudit::dp_train {

struct SgdOptions {
  SgdConfig config;
  std::string out = "-";     // -o: the scores CSV
  std::size_t evaluate = 5;  // --json: models scored on the test set
  bool json = false;
  bool shard = false;  // --trial-range given: the CSV carries the shard columns
};

// Declares the options on `sub`, read into `options`; the function returned, called
// once they are parsed, completes options.config (threat, sampling, trial range, ...)
// and validates it (SgdConfig::validate): a UsageError names the option.
std::function<void()> declare_sgd_options(CLI::App& sub, SgdOptions& options);

}  // namespace dpaudit::dp_train
