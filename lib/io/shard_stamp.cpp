#include "io/shard_stamp.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/format.hpp"

namespace dpaudit {

namespace {

const char* const kNames[] = {"config_hash", "seed", "trial_range", "trials"};

bool is_hash(std::string_view s) {
  return s.size() == 16 && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

std::optional<std::uint64_t> whole_u64(std::string_view s) {
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::string shard_fields(const ShardStamp& stamp) {
  return fmt::format("{},{},{},{}", stamp.config_hash, stamp.seed, to_string(stamp.range),
                     stamp.trials);
}

std::optional<ShardColumns> ShardColumns::find(const CsvReader& csv) {
  const auto hash = csv.find_column("config_hash");
  if (!hash) return std::nullopt;
  ShardColumns s;
  s.hash_ = *hash;
  s.seed_ = csv.column("seed");
  s.range_ = csv.column("trial_range");
  s.trials_ = csv.column("trials");
  s.trial_ = csv.column("trial");
  return s;
}

// The first row's stamp, each field checked.
void ShardColumns::read_stamp(const CsvReader& csv) {
  ShardStamp s;
  if (!is_hash(csv.field(hash_)))
    throw DataError(fmt::format("config_hash {} is not 16 lower-case hexadecimal digits",
                                quote_input(csv.field(hash_))),
                    csv.where(hash_));
  s.config_hash = std::string(csv.field(hash_));
  const auto seed = whole_u64(csv.field(seed_));
  if (!seed)
    throw DataError(
        fmt::format("seed {} is not a whole number in [0, 2^64)", quote_input(csv.field(seed_))),
        csv.where(seed_));
  s.seed = *seed;
  const auto trials = whole_u64(csv.field(trials_));
  if (!trials || *trials == 0)
    throw DataError(
        fmt::format("trials {} is not a whole number >= 1", quote_input(csv.field(trials_))),
        csv.where(trials_));
  s.trials = static_cast<std::size_t>(*trials);
  const auto range = read_trial_range(csv.field(range_));
  if (!range || !(range->first < range->last && range->last <= s.trials))
    throw DataError(fmt::format("trial_range {} is not A:B with whole numbers A < B <= {}",
                                quote_input(csv.field(range_)), s.trials),
                    csv.where(range_));
  s.range = *range;
  stamp_ = s;
  for (const std::size_t col : {hash_, seed_, range_, trials_}) first_.emplace_back(csv.field(col));
  first_row_ = csv.line();
}

void ShardColumns::add_row(const CsvReader& csv) {
  if (!stamp_) read_stamp(csv);
  const std::size_t cols[] = {hash_, seed_, range_, trials_};
  for (std::size_t i = 0; i < 4; ++i)
    if (csv.field(cols[i]) != first_[i])
      throw DataError(
          fmt::format("{} {} differs from row {}'s {}: a shard's rows carry one stamp", kNames[i],
                      quote_input(csv.field(cols[i])), first_row_, quote_input(first_[i])),
          csv.where(cols[i]));
  const std::uint64_t trial = csv.trial(trial_);  // a whole number >= 0, or a DataError
  if (trial < stamp_->range.first || trial >= stamp_->range.last)
    throw DataError(fmt::format("trial {} is outside the shard's trial_range {}", trial,
                                to_string(stamp_->range)),
                    csv.where(trial_));
  seen_.push_back(trial);
}

ShardStamp ShardColumns::finish(const std::string& source) {
  if (!stamp_) throw DataError("a shard without rows", source);
  std::sort(seen_.begin(), seen_.end());
  seen_.erase(std::unique(seen_.begin(), seen_.end()), seen_.end());
  if (seen_.size() != stamp_->range.size()) {
    std::uint64_t missing = stamp_->range.first;
    for (const std::uint64_t t : seen_) {
      if (t != missing) break;
      ++missing;
    }
    throw DataError(fmt::format("trial {} of the shard's trial_range {} has no row", missing,
                                to_string(stamp_->range)),
                    source);
  }
  seen_.clear();
  return *stamp_;
}

}  // namespace dpaudit
