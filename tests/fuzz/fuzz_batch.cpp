// libFuzzer harness: eps-gauss2 --batch (tools/eps-gauss2/tool.cpp's run(), in-process) on
// the fuzzer's bytes as its input file. Its output and error lines go nowhere; any outcome
// but a return is a finding.
#include <sstream>

#include "fuzz_input.hpp"
#include "tool.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const dpaudit::fuzz::InputFile input(data, size);
  dpaudit::eps_gauss2::Options options;
  options.batch = true;
  options.input = input.path();
  std::istringstream in;
  std::ostringstream out, err;
  dpaudit::eps_gauss2::run(options, in, out, err);
  return 0;
}
