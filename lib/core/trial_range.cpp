#include "core/trial_range.hpp"

#include "core/error.hpp"
#include "core/format.hpp"

namespace dpaudit {

namespace {

std::optional<std::size_t> whole(std::string_view s) {
  if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return static_cast<std::size_t>(std::stoull(std::string(s)));
}

}  // namespace

std::optional<TrialRange> read_trial_range(std::string_view text) {
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto first = whole(text.substr(0, colon));
  const auto last = whole(text.substr(colon + 1));
  if (!first || !last) return std::nullopt;
  return TrialRange{*first, *last};
}

TrialRange parse_trial_range(const std::string& text) {
  if (const auto range = read_trial_range(text)) return *range;
  throw UsageError(Pattern{"the trial range must be A:B with whole numbers A < B, got " +
                           literal(quote_input(text))},
                   "{trial_range}");
}

void check_trial_range(const TrialRange& range, std::size_t trials) {
  if (!(range.first < range.last && range.last <= trials))
    throw UsageError(Pattern{"the trial range " + to_string(range) +
                             " is not a non-empty part of [0, " + std::to_string(trials) + ")"},
                     "{trial_range}");
}

std::string to_string(const TrialRange& range) {
  return std::to_string(range.first) + ":" + std::to_string(range.last);
}

}  // namespace dpaudit
