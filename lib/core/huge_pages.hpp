// A hint that a large buffer about to be filled should be backed by 2 MiB transparent huge
// pages (Linux's THP in its "madvise" mode, Debian's default): 512 times fewer first-touch
// page faults, and a radix sort's scattered writes or a sweep's stream stay within the
// TLB. Nothing else changes: the same bytes, the same results.
#pragma once
#include <cstddef>
#include <vector>

namespace dpaudit {

// The 2 MiB pages wholly inside [p, p + bytes), for memory not yet touched (pages already
// there keep their size). A hint: below 4 MiB, off Linux, or where the kernel says no, it
// does nothing.
void advise_huge_pages(const void* p, std::size_t bytes);

// v.reserve(n), its new storage advised as above (for a vector still empty or small).
template <class T>
void reserve_huge_pages(std::vector<T>& v, std::size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace dpaudit
