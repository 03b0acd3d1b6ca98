#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "core/huge_pages.hpp"

using namespace dpaudit;

// A hint only: whatever the range (small, unaligned, empty, or holding data already), the
// memory keeps its bytes and stays writable (advice such as MADV_DONTNEED or MADV_FREE
// would lose them: this is what the test guards against).
TEST_CASE("advise_huge_pages keeps every byte, for any range") {
  std::vector<std::uint64_t> v(3'000'000);  // 24 MB: several whole 2 MiB pages inside
  std::iota(v.begin(), v.end(), std::uint64_t{7});
  advise_huge_pages(v.data(), v.size() * sizeof(std::uint64_t));
  advise_huge_pages(reinterpret_cast<const char*>(v.data()) + 3, 5 << 20);  // unaligned
  advise_huge_pages(v.data(), 100);                                         // below 4 MiB
  advise_huge_pages(nullptr, 0);
  std::uint64_t expected = 7;
  bool same = true;
  for (const std::uint64_t x : v) same = same && x == expected++;
  CHECK(same);
  v.resize(6'000'000, 1);  // and memory advised before it is touched fills as any other
  advise_huge_pages(v.data() + 3'000'000, 3'000'000 * sizeof(std::uint64_t));
  CHECK(std::accumulate(v.begin() + 3'000'000, v.end(), std::uint64_t{0}) == 3'000'000);
}
