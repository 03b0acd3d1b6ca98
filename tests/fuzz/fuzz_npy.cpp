// libFuzzer harness: the NPY reader (whole-array and row-by-row) on arbitrary bytes.
// Any outcome but a DataError or a value is a finding; a read array must hold exactly
// the values its header claims.
#include <cstdlib>

#include "core/error.hpp"
#include "fuzz_input.hpp"
#include "io/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dpaudit;
  const fuzz::InputFile input(data, size);
  try {
    const NpyArray a = read_npy(input.path(), false);
    if (a.data.size() != a.header.size()) std::abort();
  } catch (const DataError&) {
  }
  try {
    NpyReader reader(input.path());
    const std::size_t rows = reader.header().rows(), cols = reader.header().cols();
    if (cols > 0 && cols <= (std::size_t{1} << 16)) {
      std::vector<double> row(cols);
      for (std::size_t r = 0; r < rows; ++r) reader.read_rows(1, row.data());
    }
  } catch (const DataError&) {
  }
  return 0;
}
