#include "io/shard_merge.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dpaudit {

namespace {

// "trial 5" or "trials 5 to 9": the trials [first, last); "is" or "are".
std::string trials_text(std::size_t first, std::size_t last) {
  return last - first == 1 ? fmt::format("trial {}", first)
                           : fmt::format("trials {} to {}", first, last - 1);
}
const char* verb(std::size_t first, std::size_t last) {
  return last - first == 1 ? "is" : "are";
}

std::string two(const ShardFile& a, const ShardFile& b) {
  return a.source + ", " + b.source;
}

// DataError at the first shard whose `key` differs from the first shard's.
template <class T>
void check_same(const std::vector<ShardFile>& shards,
                const std::function<T(const ShardStamp&)>& key, const char* what) {
  for (const ShardFile& s : shards)
    if (key(s.stamp) != key(shards.front().stamp))
      throw DataError(fmt::format(fmt::runtime(what), key(shards.front().stamp), key(s.stamp)),
                      two(shards.front(), s));
}

std::string range_of(const ShardFile& s) {
  return s.source + "'s " + to_string(s.stamp.range);
}

// A gap [first, last) of the run's 0:N between the shards before and after (null at an end).
[[noreturn]] void gap(std::size_t first, std::size_t last, std::size_t n, const ShardFile* before,
                      const ShardFile* after) {
  std::string where;
  if (before) where = "after " + range_of(*before);
  if (after) where += (before ? ", before " : "before ") + range_of(*after);
  throw DataError(fmt::format("{} of the run's 0:{} {} in no shard", trials_text(first, last), n,
                              verb(first, last)),
                  where);
}

}  // namespace

std::vector<std::size_t> shard_order(const std::vector<ShardFile>& shards) {
  if (shards.empty()) return {};
  check_same<std::uint64_t>(
      shards, [](const ShardStamp& s) { return s.seed; }, "shards of different seeds, {} and {}");
  check_same<std::string>(
      shards, [](const ShardStamp& s) { return s.config_hash; },
      "shards of different configurations, hash {} and {}");
  check_same<std::size_t>(
      shards, [](const ShardStamp& s) { return s.trials; },
      "shards of runs of different lengths, {} and {} trials");
  std::vector<std::size_t> order(shards.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return shards[a].stamp.range.first < shards[b].stamp.range.first;
  });
  const std::size_t n = shards.front().stamp.trials;
  const ShardFile* before = nullptr;
  std::size_t next = 0;  // the first trial not yet covered
  for (const std::size_t i : order) {
    const ShardFile& s = shards[i];
    const TrialRange r = s.stamp.range;
    if (r.first < next)
      throw DataError(fmt::format("{} {} in two shards, {} and {}",
                                  trials_text(r.first, std::min(next, r.last)),
                                  verb(r.first, std::min(next, r.last)),
                                  to_string(before->stamp.range), to_string(r)),
                      two(*before, s));
    if (r.first > next) gap(next, r.first, n, before, &s);
    next = r.last;
    before = &s;
  }
  if (next < n) gap(next, n, n, before, nullptr);
  return order;
}

}  // namespace dpaudit
