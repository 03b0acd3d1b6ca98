// libFuzzer harness for a reader inside a tool's main.cpp (rdp-compose --events): the tool is
// compiled with main renamed tool_main (CMakeLists) and run with the arguments FUZZ_TOOL_ARGS (one
// string, split on blanks) followed by the fuzzer's bytes as a file. Its stdout and stderr are
// discarded at the stream level (a sanitizer's report still reaches fd 2); any outcome but a return
// is a finding.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_input.hpp"

int tool_main(int argc, char** argv);

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  dpaudit::fuzz::silence_standard_streams();
  const dpaudit::fuzz::InputFile input(data, size);
  std::vector<std::string> args{"tool"};
  std::istringstream words(FUZZ_TOOL_ARGS);
  for (std::string w; words >> w;) args.push_back(w);
  args.push_back(input.path());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  tool_main(static_cast<int>(args.size()), argv.data());
  return 0;
}
