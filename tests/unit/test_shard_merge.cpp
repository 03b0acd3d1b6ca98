#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/shard_merge.hpp"

using namespace dpaudit;

namespace {

const std::string kHash = "a97ff75d8e83ec7a";

ShardFile shard(const std::string& name, std::size_t first, std::size_t last,
                std::size_t trials = 300, std::uint64_t seed = 1, const std::string& hash = kHash) {
  return {name, {hash, seed, {first, last}, trials}};
}

std::string error_of(const std::vector<ShardFile>& shards) {
  try {
    shard_order(shards);
  } catch (const DataError& e) {
    return e.what();
  }
  return "no DataError";
}

}  // namespace

TEST_CASE("shard order: the shards of 0:N in any order, read by first trial") {
  CHECK(shard_order({shard("c.csv", 200, 300), shard("a.csv", 0, 100), shard("b.csv", 100, 200)}) ==
        std::vector<std::size_t>{1, 2, 0});
  CHECK(shard_order({shard("all.csv", 0, 300)}) == std::vector<std::size_t>{0});
  CHECK(shard_order({shard("b.csv", 1, 300), shard("a.csv", 0, 1)}) ==
        std::vector<std::size_t>{1, 0});
}

TEST_CASE("shard order: different seeds, configurations or lengths, overlaps and gaps refused") {
  // The seed first: a different seed is said as such even with a different hash too.
  CHECK(error_of({shard("a.csv", 0, 150), shard("b.csv", 150, 300, 300, 2, "0123456789abcdef")}) ==
        "shards of different seeds, 1 and 2 (a.csv, b.csv)");
  CHECK(error_of({shard("a.csv", 0, 150), shard("b.csv", 150, 300, 300, 1, "0123456789abcdef")}) ==
        "shards of different configurations, hash a97ff75d8e83ec7a and 0123456789abcdef (a.csv, "
        "b.csv)");
  CHECK(error_of({shard("a.csv", 0, 150), shard("b.csv", 150, 400, 400)}) ==
        "shards of runs of different lengths, 300 and 400 trials (a.csv, b.csv)");
  CHECK(error_of({shard("b.csv", 100, 300), shard("a.csv", 0, 150)}) ==
        "trials 100 to 149 are in two shards, 0:150 and 100:300 (a.csv, b.csv)");
  CHECK(error_of({shard("a.csv", 0, 150), shard("b.csv", 149, 300)}) ==
        "trial 149 is in two shards, 0:150 and 149:300 (a.csv, b.csv)");
  // A shard inside another, and the same file twice.
  CHECK(error_of({shard("a.csv", 0, 300), shard("b.csv", 100, 120)}) ==
        "trials 100 to 119 are in two shards, 0:300 and 100:120 (a.csv, b.csv)");
  CHECK(error_of({shard("a.csv", 0, 300), shard("a.csv", 0, 300)}) ==
        "trials 0 to 299 are in two shards, 0:300 and 0:300 (a.csv, a.csv)");
  CHECK(error_of({shard("a.csv", 0, 150), shard("c.csv", 200, 300)}) ==
        "trials 150 to 199 of the run's 0:300 are in no shard (after a.csv's 0:150, before "
        "c.csv's 200:300)");
  CHECK(error_of({shard("b.csv", 1, 300)}) ==
        "trial 0 of the run's 0:300 is in no shard (before b.csv's 1:300)");
  CHECK(error_of({shard("a.csv", 0, 100), shard("b.csv", 100, 200)}) ==
        "trials 200 to 299 of the run's 0:300 are in no shard (after b.csv's 100:200)");
}
