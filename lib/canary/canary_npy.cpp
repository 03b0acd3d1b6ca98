#include "canary/canary_npy.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {

void write_canaries_npy(const CanarySet& set, const CanarySpec& spec, NpyDtype type, int threads,
                        std::ostream& out, const std::string& where) {
  const std::size_t count = set.count(), dim = set.dim();
  const std::size_t block =
      std::max<std::size_t>(1, (std::size_t{64} << 20) / sizeof(double) / dim);
  for (std::size_t first = 0; first < count && out; first += block) {
    const std::vector<double> rows = set.rows(first, std::min(block, count - first), threads);
    if (first == 0) {
      if (type == NpyDtype::f4) check_fits_f4(rows.data(), dim, 0, where);
      if (type == NpyDtype::f4 && spec.kind == CanaryKind::dummy &&
          static_cast<float>(rows[0]) == 0.0f)
        throw DataError(
            fmt::format("the dummy canary's entries ({}) underflow to 0 in f4 (use f8)", rows[0]),
            where);
      write_npy_header(out, {count, dim}, type);
    }
    write_npy_values(out, rows.data(), rows.size(), type);
  }
}

}  // namespace dpaudit
