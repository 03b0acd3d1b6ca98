// core/error.hpp: errors that name parameters by pattern, "{clip} must be positive"; what()
// reads in words, a binding renders its own spelling (cli/tool.hpp: the tool's flags).
#include <doctest/doctest.h>

#include <sstream>
#include <string>

#include "cli/tool.hpp"
#include "core/error.hpp"
#include "core/names.hpp"

using namespace dpaudit;

namespace {

std::string flags(const std::string& pattern) {
  return render_parameters(pattern, cli::option_flag);
}

// What cli::run prints for a body that throws `error` after parsing `args`.
template <class E>
std::string run_line(CLI::App& app, std::vector<std::string> args, const E& error,
                     const cli::ParameterFlags& mapping = {}) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  std::ostringstream captured;
  auto* old = std::cerr.rdbuf(captured.rdbuf());
  const int status = cli::run(
      app, static_cast<int>(argv.size()), argv.data(), [&]() -> int { throw error; }, mapping);
  std::cerr.rdbuf(old);
  CHECK(status == 2);
  return captured.str();
}

}  // namespace

TEST_CASE("error: a pattern reads in words; its pattern renders as flags") {
  const UsageError e(Pattern{"{clip} must be positive"}, "{clients_per_round}");
  CHECK(std::string(e.what()) == "clip must be positive (clients per round)");
  CHECK(e.pattern() == "{clip} must be positive ({clients_per_round})");
  CHECK(flags(e.pattern()) == "--clip must be positive (--clients-per-round)");
  CHECK(e.kind() == ErrorKind::usage);
  // The few names whose words differ from the name.
  CHECK(parameter_words("q") == "the sampling rate q");
  CHECK(parameter_words("server_lr") == "the server learning rate");
  CHECK(parameter_words("noise") == "noise");
  CHECK(cli::option_flag("null_dim") == "--null-dim");
}

TEST_CASE("error: plain text and literal() text read as themselves everywhere") {
  const DataError plain("bad {clip} in 'a{b}}'", "f{x}.csv");
  CHECK(std::string(plain.what()) == "bad {clip} in 'a{b}}' (f{x}.csv)");
  CHECK(flags(plain.pattern()) == "bad {clip} in 'a{b}}' (f{x}.csv)");
  CHECK(plain.kind() == ErrorKind::bad_data);
  CHECK(literal("{a}}") == "{{a}}}}");
  const DataError named(Pattern{"no " + literal("{q}") + " in {q}"}, literal("{dim}.npy"));
  CHECK(std::string(named.what()) == "no {q} in the sampling rate q ({dim}.npy)");
  CHECK(flags(named.pattern()) == "no {q} in --q ({dim}.npy)");
}

TEST_CASE("error: only '{' lower-case name '}' is a token; other braces stay as they are") {
  const auto words = [](const std::string& p) { return render_parameters(p, parameter_words); };
  CHECK(words("{Clip} {1x} {x-y} { } {} {a_1}") == "{Clip} {1x} {x-y} { } {} a 1");
  CHECK(words("open {clip") == "open {clip");
  CHECK(words("x}y {{z}}") == "x}y {z}");
  // A token no table knows still renders, as its name in words or its flag.
  CHECK(words("{unheard_of}") == "unheard of");
  CHECK(flags("{unheard_of}") == "--unheard-of");
}

TEST_CASE("error: names.hpp's unknown-name error names the parameter") {
  enum class Colour { red };
  static constexpr Named<Colour> kColours[] = {{"red", Colour::red}};
  try {
    parse_named(kColours, "{x}", "colour", "{paint_colour}");
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "unknown colour '{x}' (red) (paint colour)");
    CHECK(flags(e.pattern()) == "unknown colour '{x}' (red) (--paint-colour)");
  }
}

TEST_CASE("error: guarded() and run() print the tool's spelling") {
  std::ostringstream err;
  const auto body = []() -> int { throw UsageError(Pattern{"{noise} too high"}, "{clip}"); };
  CHECK(cli::guarded("t", err, body) == 2);
  CHECK(err.str() == "t: error: --noise too high (--clip)\n");
  err.str("");
  CHECK(cli::guarded("t", err, body, parameter_words) == 2);
  CHECK(err.str() == "t: error: noise too high (clip)\n");

  // run(): the running subcommand's options, those of the commands above, a mapping;
  // a parameter the tool has no option for reads in words.
  CLI::App app("t", "t");
  double clip = 0, noise = 0;
  app.add_option("--clip", clip);
  CLI::App* sub = app.add_subcommand("sum");
  sub->add_option("--noise-multiplier", noise);
  const UsageError e(Pattern{"{noise} or {clip} or {target_quantile}"}, "{clip}");
  CHECK(run_line(app, {"t", "sum"}, e, {{"noise", "--noise-multiplier"}}) ==
        "t: error: --noise-multiplier or --clip or target quantile (--clip)\n");
  CHECK(run_line(app, {"t", "sum"}, e) ==
        "t: error: noise or --clip or target quantile (--clip)\n");
}

TEST_CASE("error: forbid_given and require_given name the first parameter that breaks the rule") {
  // Patterns: a library token reads in words, a flag given as literal text as itself.
  const GivenParameters given = {{"{seed}", false}, {"{null_dim}", true}, {"--json", true}};
  try {
    forbid_given(given, "with {method} canife");
    FAIL("no error");
  } catch (const UsageError& e) {
    CHECK(std::string(e.what()) == "the null's dimension cannot be used with the estimator canife");
    CHECK(flags(e.pattern()) == "--null-dim cannot be used with --method canife");
  }
  CHECK_THROWS_WITH_AS(require_given(given, "(or give --events)"),
                       "seed is required (or give --events)", UsageError);
  CHECK_NOTHROW(forbid_given({{"{seed}", false}}, "here"));
  CHECK_NOTHROW(require_given({{"--json", true}}, "here"));
  CHECK_THROWS_WITH_AS(cli::forbid_given({{"--json", false}, {"--report", true}}, "with --x"),
                       "--report cannot be used with --x", UsageError);
}
