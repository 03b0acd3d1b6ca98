// libFuzzer harness for `dp-train sgd`'s command line (tools/dp-train/sgd/options.hpp),
// which needs no LibTorch: the fuzzer's bytes, cut at newlines, are the arguments after
// `dp-train sgd`; once CLI11 has parsed them the options are resolved and validated,
// and the arithmetic checks run at the given noise multiplier (1 when --eps is given,
// whose calibration is the accountant's, fuzzed by its own tests). Nothing is trained.
// Its stdout and stderr are discarded at the stream level (a sanitizer's report still
// reaches fd 2); any outcome but a return is a finding.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "cli/tool.hpp"
#include "fuzz_input.hpp"
#include "sgd/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dpaudit::fuzz::silence_standard_streams();
  std::vector<std::string> args{"dp-train", "sgd", ""};
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n')
      args.emplace_back();
    else
      args.back().push_back(static_cast<char>(data[i]));
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  CLI::App app{"fuzz", "dp-train"};
  dpaudit::cli::setup(app, "");
  dpaudit::dp_train::SgdOptions options;
  const std::function<void()> resolve =
      dpaudit::dp_train::declare_sgd_options(*app.add_subcommand("sgd"), options);
  dpaudit::cli::run(app, static_cast<int>(args.size()), argv.data(), [&] {
    resolve();
    const dpaudit::dp_train::SgdConfig& c = options.config;
    c.check_arithmetic(c.noise_multiplier > 0 ? c.noise_multiplier : 1.0);
    return 0;
  });
  return 0;
}
