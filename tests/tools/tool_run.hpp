// A tool run in-process as its main() runs it (cli::run: parse, rules, body), with an
// argument vector, a string as its standard input, and its stdout and stderr captured: for
// the option-combination tests of tests/tools.
#pragma once
#include <doctest/doctest.h>

#include <functional>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/tool.hpp"

namespace dpaudit::tool_test {

struct Run {
  int status;
  std::string out, err;
};

// The tool's body after parsing: its input stream, output stream and error stream.
using Body = std::function<int(std::istream&, std::ostream&, std::ostream&)>;
// Declares the tool's options on the app and returns its body.
using Declare = std::function<Body(CLI::App&)>;

// TOOL ARGS (split at spaces) with `input` as its standard input.
inline Run run_tool(const std::string& tool, const Declare& declare, const std::string& args,
                    const std::string& input) {
  CLI::App app{"", tool};
  const Body body = declare(app);
  std::vector<std::string> words{tool};
  std::istringstream split(args);
  for (std::string w; split >> w;) words.push_back(w);
  std::vector<const char*> argv;
  for (const std::string& w : words) argv.push_back(w.c_str());
  std::istringstream in(input);
  std::ostringstream out, err;
  const int status = cli::run(
      app, static_cast<int>(argv.size()), argv.data(), [&] { return body(in, out, err); }, {}, err);
  return {status, out.str(), err.str()};
}

// A combination the tool refuses: its exit status and the line after "TOOL: error: ".
struct Refusal {
  const std::string& input;
  const char* args;
  int status;
  const char* error;
};

// Each refusal's status and exact line on stderr, and nothing on stdout.
inline void check_refusals(const std::string& tool, const Declare& declare,
                           const std::vector<Refusal>& refusals) {
  for (const Refusal& r : refusals) {
    CAPTURE(r.args);
    const Run run = run_tool(tool, declare, r.args, r.input);
    CHECK(run.status == r.status);
    CHECK(run.err == tool + ": error: " + r.error + "\n");
    CHECK(run.out == "");
  }
}

}  // namespace dpaudit::tool_test
