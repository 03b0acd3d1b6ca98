#include "core/error.hpp"

#include <utility>

namespace dpaudit {

namespace {

// Words for the parameters whose name alone reads badly.
struct ParameterWords {
  const char* name;
  const char* words;
};
constexpr ParameterWords kWords[] = {
    {"q", "the sampling rate q"},
    {"dim", "the dimension"},
    {"lr", "the learning rate"},
    {"server_lr", "the server learning rate"},
    {"clip_lr", "the clip learning rate"},
    {"design_lr", "the design learning rate"},
    {"out", "the out scores"},
    {"null_dim", "the null's dimension"},
    // The estimator request's (stats/estimate_request.hpp).
    {"method", "the estimator"},
    {"against_curve", "the test against a trade-off curve"},
    {"null", "the cosine null"},
    {"one_sided", "one-sided"},
    {"budget", "a budget"},
    {"bootstrap", "the bootstrap replicates"},
    {"tpr_at", "the FPRs of the TPR summary"},
    {"guesses", "the guess counts"},
    {"thresholds", "the threshold strategy"},
    {"threshold", "a fixed threshold"},
    {"splits", "the number of splits"},
    {"curve", "the trade-off curve"},
    {"jackknife_groups", "the jackknife groups"},
    {"details", "the details"},
    {"negated", "negated scores"},
};

bool token_char(char c, bool first) {
  return (c >= 'a' && c <= 'z') || (!first && ((c >= '0' && c <= '9') || c == '_'));
}

// The length of the token at pattern[i] ('{' name '}'), or 0.
std::size_t token_length(std::string_view pattern, std::size_t i) {
  if (pattern[i] != '{') return 0;
  std::size_t j = i + 1;
  while (j < pattern.size() && token_char(pattern[j], j == i + 1)) ++j;
  return j > i + 1 && j < pattern.size() && pattern[j] == '}' ? j + 1 - i : 0;
}

}  // namespace

std::string parameter_words(const std::string& name) {
  for (const auto& w : kWords)
    if (name == w.name) return w.words;
  std::string out = name;
  for (char& c : out)
    if (c == '_') c = ' ';
  return out;
}

std::string render_parameters(std::string_view pattern, const ParameterSpelling& names) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    if ((c == '{' || c == '}') && i + 1 < pattern.size() && pattern[i + 1] == c) {
      out += c;
      i += 2;
    } else if (const std::size_t n = token_length(pattern, i)) {
      out += names(std::string(pattern.substr(i + 1, n - 2)));
      i += n;
    } else {
      out += pattern[i++];
    }
  }
  return out;
}

std::string literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '{' || c == '}') out += c;
    out += c;
  }
  return out;
}

namespace {

// The first parameter whose given-ness is `given`: UsageError "NAME VERB MODE".
void refuse_first(const GivenParameters& parameters, bool given, const char* verb,
                  const std::string& mode) {
  for (const auto& [name, is_given] : parameters)
    if (is_given == given) throw UsageError(Pattern{name + verb + mode});
}

}  // namespace

void forbid_given(const GivenParameters& parameters, const std::string& mode) {
  refuse_first(parameters, true, " cannot be used ", mode);
}

void require_given(const GivenParameters& parameters, const std::string& mode) {
  refuse_first(parameters, false, " is required ", mode);
}

Error::Error(std::string pattern, ErrorKind kind)
    : std::runtime_error(render_parameters(pattern, parameter_words)),
      pattern_(std::move(pattern)),
      kind_(kind) {}

Error::Error(const std::string& what, const std::string& where, ErrorKind kind)
    : Error(literal(where.empty() ? what : what + " (" + where + ")"), kind) {}

Error::Error(const Pattern& what, const std::string& where, ErrorKind kind)
    : Error(where.empty() ? what.text : what.text + " (" + where + ")", kind) {}

}  // namespace dpaudit
