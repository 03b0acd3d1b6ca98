#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "core/error.hpp"
#include "io/csv.hpp"
#include "io/shard_stamp.hpp"

using namespace dpaudit;

namespace {

const char* kHeader = "trial,label,score,config_hash,seed,trial_range,trials\n";

// The stamp of a shard CSV given as text (read from "stdin"), or its DataError's line.
std::string stamp_of(const std::string& text) {
  std::istringstream in(text);
  CsvReader csv("-", in);
  try {
    auto shard = ShardColumns::find(csv);
    if (!shard) return "not a shard";
    while (csv.next()) shard->add_row(csv);
    const ShardStamp s = shard->finish(csv.source());
    return shard_fields(s);
  } catch (const DataError& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("shard columns: written as HASH,SEED,A:B,N and read back") {
  CHECK(std::string(kShardColumns) == "config_hash,seed,trial_range,trials");
  const ShardStamp s{"a97ff75d8e83ec7a", 18446744073709551615ULL, {100, 200}, 300};
  CHECK(shard_fields(s) == "a97ff75d8e83ec7a,18446744073709551615,100:200,300");
  // dp-train sgd's rows, two per trial, trials in any order
  CHECK(stamp_of(std::string(kHeader) + "101,0,0.5,a97ff75d8e83ec7a,7,100:102,300\n"
                                        "100,0,0.1,a97ff75d8e83ec7a,7,100:102,300\n"
                                        "100,1,0.2,a97ff75d8e83ec7a,7,100:102,300\n") ==
        "a97ff75d8e83ec7a,7,100:102,300");
  CHECK(stamp_of("trial,label,score\n0,0,1\n") == "not a shard");
}

TEST_CASE("shard columns: a missing column, a bad or changing stamp, a trial outside or missing") {
  CHECK(
      stamp_of("label,guess,config_hash,seed,trial_range,trials\n1,1,a97ff75d8e83ec7a,1,0:1,1\n") ==
      "missing column 'trial' (header: label,guess,config_hash,seed,trial_range,trials) (stdin)");
  CHECK(stamp_of("trial,label,score,config_hash\n0,0,1,a97ff75d8e83ec7a\n") ==
        "missing column 'seed' (header: trial,label,score,config_hash) (stdin)");
  CHECK(stamp_of(std::string(kHeader) + "0,0,1,A97FF75D8E83EC7A,1,0:1,1\n") ==
        "config_hash 'A97FF75D8E83EC7A' is not 16 lower-case hexadecimal digits (stdin, row 2, "
        "column 'config_hash')");
  CHECK(stamp_of(std::string(kHeader) + "0,0,1,a97ff75d8e83ec7a,-1,0:1,1\n") ==
        "seed '-1' is not a whole number in [0, 2^64) (stdin, row 2, column 'seed')");
  CHECK(stamp_of(std::string(kHeader) + "0,0,1,a97ff75d8e83ec7a,1,0:1,0\n") ==
        "trials '0' is not a whole number >= 1 (stdin, row 2, column 'trials')");
  CHECK(stamp_of(std::string(kHeader) + "0,0,1,a97ff75d8e83ec7a,1,0:4,3\n") ==
        "trial_range '0:4' is not A:B with whole numbers A < B <= 3 (stdin, row 2, column "
        "'trial_range')");
  CHECK(stamp_of(std::string(kHeader) + "0,0,1,a97ff75d8e83ec7a,1,0:2,3\n" +
                 "1,0,1,a97ff75d8e83ec7a,2,0:2,3\n") ==
        "seed '2' differs from row 2's '1': a shard's rows carry one stamp (stdin, row 3, column "
        "'seed')");
  CHECK(stamp_of(std::string(kHeader) + "2,0,1,a97ff75d8e83ec7a,1,0:2,3\n") ==
        "trial 2 is outside the shard's trial_range 0:2 (stdin, row 2, column 'trial')");
  // A negative trial is refused, never cast (it was undefined behaviour before csv's trial()).
  CHECK(stamp_of(std::string(kHeader) + "-1,0,1,a97ff75d8e83ec7a,1,0:2,3\n") ==
        "trial -1 is not a whole number >= 0 (stdin, row 2, column 'trial')");
  CHECK(stamp_of(std::string(kHeader) + "0,0,1,a97ff75d8e83ec7a,1,0:3,3\n" +
                 "2,0,1,a97ff75d8e83ec7a,1,0:3,3\n") ==
        "trial 1 of the shard's trial_range 0:3 has no row (stdin)");
  CHECK(stamp_of(kHeader) == "a shard without rows (stdin)");
}
