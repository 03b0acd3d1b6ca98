// Errors as values that carry their kind: bad data, or a bad parameter. Library code throws
// these; a tool maps the kind to its exit status (cli/exit_status.hpp) and prints one line,
// `TOOL: error: WHAT (WHERE)`.
//
// A message names a parameter in library terms: `Pattern{"{clip} must be positive"}`, where
// `clip` is the snake_case name of the parameter (the config field). what() reads in words
// ("clip must be positive", parameter_words); the error keeps its pattern, which a binding
// renders in its own spelling (a tool: its flag, "--clip must be positive"; cli/tool.hpp).
// In a pattern, "{{" and "}}" stand for "{" and "}" (literal() escapes text from elsewhere,
// e.g. a file name); a '{' or '}' that starts neither a token nor an escape is kept as is.
// A token is '{', a lower-case letter, lower-case letters, digits or '_', then '}'.
// An error built from plain text reads as that text everywhere.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dpaudit {

enum class ErrorKind {
  bad_data,  // bad input data or a runtime failure
  usage,     // a bad parameter, or parameters that do not go together
};

// A message text that names parameters as {name}.
struct Pattern {
  std::string text;
};

// How a binding spells a parameter, given its name ("clip", "clients_per_round").
using ParameterSpelling = std::function<std::string(const std::string& name)>;

// The library's words for a parameter: its name with spaces for underscores, except a few
// that read better otherwise ("q" -> "the sampling rate q").
std::string parameter_words(const std::string& name);
// `pattern` with every {name} replaced by names(name), "{{" and "}}" by "{" and "}".
std::string render_parameters(std::string_view pattern, const ParameterSpelling& names);
// `text` escaped so that it renders as itself: "{" -> "{{", "}" -> "}}".
std::string literal(std::string_view text);

class Error : public std::runtime_error {
 public:
  // Plain text: what() is `what (where)`, or `what` without a where.
  Error(const std::string& what, const std::string& where, ErrorKind kind);
  // A pattern; `where` is a pattern too (a parameter, "{clip}", or a literal() file name).
  Error(const Pattern& what, const std::string& where, ErrorKind kind);
  ErrorKind kind() const { return kind_; }
  // `WHAT (WHERE)` with its {name} tokens, for render_parameters.
  const std::string& pattern() const { return pattern_; }

 private:
  Error(std::string pattern, ErrorKind kind);
  std::string pattern_;
  ErrorKind kind_;
};

// Bad data in an input file or stream.
struct DataError : Error {
  explicit DataError(const std::string& what, const std::string& where = "")
      : Error(what, where, ErrorKind::bad_data) {}
  explicit DataError(const Pattern& what, const std::string& where = "")
      : Error(what, where, ErrorKind::bad_data) {}
};

// A bad parameter value or combination.
struct UsageError : Error {
  explicit UsageError(const std::string& what, const std::string& where = "")
      : Error(what, where, ErrorKind::usage) {}
  explicit UsageError(const Pattern& what, const std::string& where = "")
      : Error(what, where, ErrorKind::usage) {}
};

// Parameters that go together or not: each named as a message names it (a pattern: "{seed}",
// or a binding's literal() flag) with whether the caller gave it. `mode` is a pattern that
// completes the sentence: forbid_given({{"{seed}", true}}, "with {method} canife") throws
// UsageError "{seed} cannot be used with {method} canife".
using GivenParameters = std::vector<std::pair<std::string, bool>>;
// UsageError "NAME cannot be used MODE" for the first parameter given.
void forbid_given(const GivenParameters& parameters, const std::string& mode);
// UsageError "NAME is required MODE" for the first parameter not given.
void require_given(const GivenParameters& parameters, const std::string& mode);

}  // namespace dpaudit
