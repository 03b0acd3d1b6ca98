// Whether shards belong to one run, and the order that reads them as the unsharded run: the
// check a merge of shards makes (eps-from-scores given several files) before it reads a row.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "io/shard_stamp.hpp"

namespace dpaudit {

struct ShardFile {
  std::string source;  // the file, as errors name it
  ShardStamp stamp;
};

// The shards' indices by first trial, when they are the whole of one run: the same seed,
// configuration hash and number of trials N, ranges that neither overlap nor leave a gap, and
// together 0:N. Otherwise a DataError, one line naming the two files (or the file beside the
// gap) and the trials:
//   "shards of different seeds, 1 and 2 (a.csv, b.csv)"
//   "shards of different configurations, hash H1 and H2 (a.csv, b.csv)"
//   "shards of runs of different lengths, 300 and 400 trials (a.csv, b.csv)"
//   "trials 100 to 149 are in two shards, 0:150 and 100:200 (a.csv, b.csv)"
//   "trials 150 to 199 of the run's 0:300 are in no shard (after a.csv's 0:150, before
//    c.csv's 200:300)"
// The seed is compared first, then the hash, then N: a different seed is named as such even
// where it also changes the hash.
std::vector<std::size_t> shard_order(const std::vector<ShardFile>& shards);

}  // namespace dpaudit
