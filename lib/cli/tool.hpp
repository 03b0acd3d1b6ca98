// What every tool's main shares: the CLI11 set-up (--version, an EXAMPLES footer,
// one-line errors) and the run wrapper that turns errors into exit statuses
// (cli/exit_status.hpp): usage errors exit 2, DataError 1, and a gate's refusal 3.
#pragma once
#include <functional>
#include <iostream>
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/error.hpp"

namespace dpaudit::cli {

// Adds --version and the EXAMPLES footer; `examples` is one command per line.
void setup(CLI::App& app, const std::string& examples);

// A library error names parameters by their library name, {clip} (core/error.hpp); a tool
// prints the option that sets it. By default that is option_flag(name), "--clip",
// "--clients-per-round"; where a tool's option is named otherwise, the tool gives the
// flag in a ParameterFlags map, {{"noise", "--noise-multiplier"}}.
using ParameterFlags = std::map<std::string, std::string>;
// "--" + `parameter` with '-' for '_'.
std::string option_flag(const std::string& parameter);

// Parses argv, then calls body() as guarded() does. Prints `TOOL: error: WHAT (WHERE)` on
// one line on `err` for any failure and returns the documented exit status. A parameter in
// the message reads as flags[name] when given, else as option_flag(name) when the running
// (sub)command or a command above it has that option, else in words (parameter_words).
// (--help and --version print on stdout.)
int run(CLI::App& app, int argc, const char* const* argv, const std::function<int()>& body,
        const ParameterFlags& flags = {}, std::ostream& err = std::cerr);

// Calls body() and returns its status; for an error, prints `TOOL: error: WHAT (WHERE)` on
// `err` and returns the error's exit status (a tool's body run in-process: tests, fuzzing).
// Parameters in the message read as `spelling` says: by default, their option_flag.
int guarded(const std::string& tool, std::ostream& err, const std::function<int()>& body,
            const ParameterSpelling& spelling = option_flag);

// Usage errors for option combinations (core/error.hpp's forbid_given and require_given,
// here for the tools): `mode` completes the sentence, e.g.
// forbid_options({a, b}, "with --batch") -> "--a cannot be used with --batch".
void forbid_options(const std::vector<CLI::Option*>& options, const std::string& mode);
void require_options(const std::vector<CLI::Option*>& options, const std::string& mode);
// The same for options as a body run in-process sees them: (name, given) pairs.
using dpaudit::forbid_given;
using dpaudit::require_given;

// Prints one line on stderr, `TOOL: note: ...` (callers skip it under --quiet).
void note(const CLI::App& app, const std::string& message);
// The same on `err`.
void note(std::ostream& err, const std::string& tool, const std::string& message);

// Validators that print the project's messages.
CLI::Validator open_unit_interval();       // 0 < x < 1
CLI::Validator unit_interval_open_left();  // 0 < x <= 1
CLI::Validator positive();                 // x > 0 and finite
CLI::Validator non_negative();             // x >= 0 and finite
CLI::Validator finite();                   // not NaN or Inf
CLI::Validator epsilon();  // an epsilon: x >= 0, or inf (e.g. --fail-above inf: never fail)
CLI::Validator cosine_dimension();  // --null-dim: a whole number d >= 2
CLI::Validator thread_count();      // --threads: a whole number in [0, 1024]
// Decimal digits only (a leading '-' when is_signed), no leading zero, within the type's
// range. run() adds it to every integer option after its own validators; an option with a
// CLI::Range checks it first, so '-1' reads as "not a whole number", not "out of range".
CLI::Validator whole_number(bool is_signed);

// The items of a comma-separated option value, every one kept: "" where two commas meet or
// at an end ("2,,3", "2,", ",2"), so that a caller can refuse it rather than read the list
// without it (--orders, --tpr-at).
std::vector<std::string> comma_items(const std::string& list);

}  // namespace dpaudit::cli
