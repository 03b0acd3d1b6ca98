// The output tail every tool shares: one result printed as the number(s) alone, one JSON
// object (--json) or a short table (--report), written whole to -o/--output or the output
// stream, or not at all.
#pragma once
#include <functional>
#include <ostream>
#include <string>

#include "io/json.hpp"

namespace dpaudit::cli {

enum class OutputFormat { plain, json, report };

// --json / --report as given (at most one).
OutputFormat output_format(bool json, bool report);

// The text of a result in `format`: plain(), json_line(json()) or report(); only the chosen
// one is built. An empty `report` is not offered by the tool.
std::string format_output(OutputFormat format, const std::function<std::string()>& plain,
                          const std::function<Json()>& json,
                          const std::function<std::string()>& report = {});

// Writes `text` whole: to `path` through an atomic output (io/atomic_output.hpp), or for "-"
// (or "") to `out`, flushed; DataError "cannot write to stdout" when `out` fails.
void write_output(const std::string& path, const std::string& text, std::ostream& out);

}  // namespace dpaudit::cli
