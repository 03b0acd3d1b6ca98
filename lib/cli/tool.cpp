#include "cli/tool.hpp"

#include <cmath>
#include <iostream>

#include "io/csv.hpp"
#include "io/error.hpp"

namespace dpaudit::cli {

void setup(CLI::App& app, const std::string& examples) {
  app.set_version_flag("--version", std::string(DPAUDIT_VERSION));
  app.footer("\nEXAMPLES:\n" + examples);
  app.get_formatter()->column_width(34);
}

int run(CLI::App& app, int argc, char** argv, const std::function<int()>& body) {
  const std::string name = app.get_name();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << name << ": error: " << e.what() << "\n";
    return kExitUsage;
  }
  try {
    return body();
  } catch (const Error& e) {
    std::cerr << name << ": error: " << e.what() << "\n";
    return e.exit_status();
  } catch (const std::bad_alloc&) {
    std::cerr << name << ": error: out of memory\n";
    return kExitBadData;
  } catch (const std::exception& e) {
    std::cerr << name << ": error: " << e.what() << "\n";
    return kExitBadData;
  }
}

void forbid_options(const std::vector<CLI::Option*>& options, const std::string& mode) {
  for (const auto* o : options)
    if (o->count()) throw UsageError(o->get_name() + " cannot be used " + mode);
}

void require_options(const std::vector<CLI::Option*>& options, const std::string& mode) {
  for (const auto* o : options)
    if (!o->count()) throw UsageError(o->get_name() + " is required " + mode);
}

void note(const CLI::App& app, const std::string& message) {
  std::cerr << app.get_name() << ": note: " << message << "\n";
}

namespace {

CLI::Validator number_check(const std::string& desc, bool (*ok)(double)) {
  return CLI::Validator(
      [desc, ok](std::string& s) -> std::string {
        const auto v = parse_finite(s);
        if (!v) return "'" + s + "' is not a finite number";
        if (!ok(*v)) return "value " + s + " is not " + desc;
        return {};
      },
      "", desc);
}

}  // namespace

CLI::Validator open_unit_interval() {
  return number_check("in (0,1)", [](double x) { return x > 0 && x < 1; });
}
CLI::Validator unit_interval_open_left() {
  return number_check("in (0,1]", [](double x) { return x > 0 && x <= 1; });
}
CLI::Validator positive() {
  return number_check("> 0", [](double x) { return x > 0; });
}
CLI::Validator non_negative() {
  return number_check(">= 0", [](double x) { return x >= 0; });
}
CLI::Validator finite() {
  return number_check("finite", [](double) { return true; });
}

}  // namespace dpaudit::cli
