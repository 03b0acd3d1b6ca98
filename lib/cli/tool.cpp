#include "cli/tool.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>

#include "cli/exit_status.hpp"
#include "cli/gate.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "io/csv.hpp"

namespace dpaudit::cli {

void setup(CLI::App& app, const std::string& examples) {
  app.set_version_flag("--version", std::string(DPAUDIT_VERSION));
  app.footer("\nEXAMPLES:\n" + examples);
  app.get_formatter()->column_width(34);
}

// CLI11 reads integers with strtoull/strtoll in base 0 and no range check: '-1' became
// 2^64 - 1 for an unsigned option, '99999999999999999999' the largest value, '010'
// octal 8. Integer options take decimal digits only (a '-' for signed ones), in range.
// run() adds it to every integer option, after the option's own validators; an option
// with a range gives it first (see tool.hpp) so a '-1' is not reported as out of range.
CLI::Validator whole_number(bool is_signed) {
  return CLI::Validator(
      [is_signed](const std::string& s) -> std::string {
        std::size_t i = (is_signed && !s.empty() && s[0] == '-') ? 1 : 0;
        const bool digits =
            i < s.size() && s.find_first_not_of("0123456789", i) == std::string::npos;
        if (!digits) return quote_input(s) + " is not a whole number" + (is_signed ? "" : " >= 0");
        errno = 0;
        if (is_signed)
          (void)std::strtoll(s.c_str(), nullptr, 10);
        else
          (void)std::strtoull(s.c_str(), nullptr, 10);
        if (errno == ERANGE) return quote_input(s) + " is out of range";
        if (s.size() > i + 1 && s[i] == '0')
          return quote_input(s) + " has a leading zero (it would read as octal)";
        return {};
      },
      "");
}

namespace {

void check_whole_numbers(CLI::App& app) {
  for (CLI::Option* o : app.get_options({})) {
    const std::string type = o->get_type_name();
    if (type.rfind("UINT", 0) == 0)
      o->check(whole_number(false));
    else if (type.rfind("INT", 0) == 0)
      o->check(whole_number(true));
  }
  for (CLI::App* sub : app.get_subcommands({})) check_whole_numbers(*sub);
}

// The command that runs: the deepest parsed subcommand.
CLI::App* running(CLI::App& app) {
  for (CLI::App* sub : app.get_subcommands()) return running(*sub);
  return &app;
}

ParameterSpelling app_spelling(CLI::App& app, const ParameterFlags& flags) {
  return [&app, &flags](const std::string& name) {
    if (const auto it = flags.find(name); it != flags.end()) return it->second;
    const std::string flag = option_flag(name);
    for (const CLI::App* a = running(app); a != nullptr; a = a->get_parent())
      if (a->get_option_no_throw(flag) != nullptr) return flag;
    return parameter_words(name);
  };
}

}  // namespace

std::string option_flag(const std::string& parameter) {
  std::string flag = "--" + parameter;
  for (char& c : flag)
    if (c == '_') c = '-';
  return flag;
}

int run(CLI::App& app, int argc, const char* const* argv, const std::function<int()>& body,
        const ParameterFlags& flags, std::ostream& err) {
  const std::string name = app.get_name();
  try {
    check_whole_numbers(app);
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    err << name << ": error: " << e.what() << "\n";
    return kExitUsage;
  }
  return guarded(name, err, body, app_spelling(app, flags));
}

int guarded(const std::string& tool, std::ostream& err, const std::function<int()>& body,
            const ParameterSpelling& spelling) {
  try {
    return body();
  } catch (const Refusal& e) {
    err << tool << ": error: " << e.what() << "\n";
    return kExitBudgetExceeded;
  } catch (const Error& e) {
    err << tool << ": error: " << render_parameters(e.pattern(), spelling) << "\n";
    return exit_status(e.kind());
  } catch (const std::bad_alloc&) {
    err << tool << ": error: out of memory\n";
    return kExitBadData;
  } catch (const std::exception& e) {
    err << tool << ": error: " << e.what() << "\n";
    return kExitBadData;
  }
}

namespace {

// Each option by its name (a literal: a flag is no pattern), and whether it was given.
GivenParameters given(const std::vector<CLI::Option*>& options) {
  GivenParameters out;
  for (const auto* o : options) out.emplace_back(literal(o->get_name()), o->count() > 0);
  return out;
}

}  // namespace

void forbid_options(const std::vector<CLI::Option*>& options, const std::string& mode) {
  forbid_given(given(options), mode);
}

void require_options(const std::vector<CLI::Option*>& options, const std::string& mode) {
  require_given(given(options), mode);
}

void note(const CLI::App& app, const std::string& message) {
  note(std::cerr, app.get_name(), message);
}

void note(std::ostream& err, const std::string& tool, const std::string& message) {
  err << tool << ": note: " << message << "\n";
}

namespace {

CLI::Validator number_check(const std::string& desc, bool (*ok)(double)) {
  return CLI::Validator(
      [desc, ok](std::string& s) -> std::string {
        const auto v = parse_finite(s);
        if (!v) return quote_input(s) + " is not a finite number";
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
CLI::Validator epsilon() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        if (s == "inf") return {};
        const auto v = parse_finite(s);
        if (!v) return quote_input(s) + " is not a number >= 0 or inf";
        if (!(*v >= 0)) return "value " + s + " is not >= 0";
        return {};
      },
      "", ">= 0 or inf");
}
CLI::Validator cosine_dimension() {
  return number_check("a whole dimension in [2, 1.8e19)",
                      [](double x) { return x >= 2 && x == std::floor(x) && x < 1.8e19; });
}
CLI::Validator thread_count() {
  return number_check("a thread count in [0, 1024] (0: all cores)",
                      [](double x) { return x >= 0 && x <= 1024 && x == std::floor(x); });
}

std::vector<std::string> comma_items(const std::string& list) {
  std::vector<std::string> items(1);
  for (char c : list) {
    if (c == ',')
      items.emplace_back();
    else
      items.back().push_back(c);
  }
  return items;
}

}  // namespace dpaudit::cli
