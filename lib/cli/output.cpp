#include "cli/output.hpp"

#include "core/error.hpp"
#include "io/atomic_output.hpp"

namespace dpaudit::cli {

OutputFormat output_format(bool json, bool report) {
  return json ? OutputFormat::json : report ? OutputFormat::report : OutputFormat::plain;
}

std::string format_output(OutputFormat format, const std::function<std::string()>& plain,
                          const std::function<Json()>& json,
                          const std::function<std::string()>& report) {
  switch (format) {
    case OutputFormat::json:
      return json_line(json());
    case OutputFormat::report:
      return report();
    case OutputFormat::plain:
      break;
  }
  return plain();
}

void write_output(const std::string& path, const std::string& text, std::ostream& out) {
  if (!path.empty() && path != "-") {
    write_whole(path, text);
    return;
  }
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  if (!out) throw DataError("cannot write to stdout");
}

}  // namespace dpaudit::cli
