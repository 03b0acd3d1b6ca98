// libFuzzer harness: rdp-compose --delta 1e-5 --events - in-process (tools/rdp-compose/
// compose.hpp), the fuzzer's bytes as the input stream: the segments reader
// (lib/accounting/accounting_csv.hpp) and the RDP accountant behind it. Only dpaudit's errors may
// come out.
#include <sstream>
#include <string>

#include "compose.hpp"
#include "core/error.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dpaudit;
  rdp_compose::Options options;
  options.accounting.accountant = Accountant::rdp;
  options.delta = 1e-5;
  options.events_path = "-";
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  std::ostringstream out;
  try {
    rdp_compose::compose(options, in, out, [](const std::string&) {});
  } catch (const Error&) {
  }
  return 0;
}
