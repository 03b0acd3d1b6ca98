// What a shard of a many-trial run carries, so that a merge can tell whether shards belong
// together (io/shard_merge.hpp): the configuration's hash (io/config_hash.hpp), the seed,
// the shard's trial range A:B and the run's number of trials N. A shard's CSV carries them
// as four columns after the format's own, the same value on every row:
//
//   trial,label,score,config_hash,seed,trial_range,trials
//   0,0,-2.41,4f0c3b4a9d2e7a11,1,0:100,300
//
// Columns, not a comment line: every CSV reader sees them as data (lib/io/csv and older
// eps-from-scores ignore them, python's csv and pandas read them, `cut -d, -f1-3` removes
// them), and the format's own columns keep their positions. Every trial of A:B has at least
// one row, and only trials of A:B have rows.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/trial_range.hpp"
#include "io/csv.hpp"

namespace dpaudit {

struct ShardStamp {
  std::string config_hash;  // 16 lower-case hexadecimal digits
  std::uint64_t seed = 0;
  TrialRange range;        // the trials of this shard
  std::size_t trials = 0;  // N: the run's trials are 0:N
};

// The header's shard columns, in order.
inline constexpr const char* kShardColumns = "config_hash,seed,trial_range,trials";
// The shard columns of a row: "HASH,SEED,A:B,N".
std::string shard_fields(const ShardStamp& stamp);

// The shard columns of a CSV being read, checked row by row: the same stamp on every row
// (a 16-digit hash, a whole seed, a range A:B with A < B <= N), every row's `trial` inside
// the range, every trial of the range present. DataErrors name the file, row and column.
class ShardColumns {
 public:
  // The columns of `csv`'s header: nullopt without a config_hash column (not a shard); a
  // DataError when config_hash is there but another shard column or `trial` is missing.
  static std::optional<ShardColumns> find(const CsvReader& csv);
  // The current row (after its trial column was read as a whole number).
  void add_row(const CsvReader& csv);
  // After the last row: the stamp; a DataError naming the first trial of the range without
  // a row, or "no rows" for an empty shard.
  ShardStamp finish(const std::string& source);

 private:
  ShardColumns() = default;
  void read_stamp(const CsvReader& csv);
  std::size_t hash_ = 0, seed_ = 0, range_ = 0, trials_ = 0, trial_ = 0;
  std::vector<std::string> first_;  // the first row's four fields
  std::size_t first_row_ = 0;
  std::optional<ShardStamp> stamp_;
  std::vector<std::uint64_t> seen_;  // the rows' trials
};

}  // namespace dpaudit
