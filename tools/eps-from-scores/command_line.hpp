// eps-from-scores' options: declared on a CLI::App, read back as Options after parsing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "tool.hpp"

namespace dpaudit::eps_from_scores {

class CommandLine {
 public:
  explicit CommandLine(CLI::App& app);
  // The options as parsed (call after parsing).
  Options options() const;

 private:
  void declare_inputs(CLI::App& app);
  void declare_strategy(CLI::App& app);
  void declare_outputs(CLI::App& app);
  void declare_sequential(CLI::App& app);
  std::optional<SequentialRun> sequential_run() const;

  std::vector<std::string> scores_paths{"-"}, decisions_paths;
  std::string in_npy, out_npy, output_path = "-";
  std::string method_name, thresholds_name = "bonferroni", null_name = "exact", per;
  std::size_t null_dim = 0;
  double alpha = 0.05, delta = 0, fixed_threshold = 0, fail_above = 0;
  std::uint64_t seed = 0;
  std::size_t splits = 100;
  int threads = 1;
  std::string curve_name = "gaussian";
  std::size_t bootstrap_replicates = 0, jackknife_groups = 1000;
  std::string tpr_list = "0.001,0.01,0.1";  // kSummaryFprs
  std::string guesses_text, curve_path, band_path, eps_delta_path;
  bool negate = false, one_sided = false, json = false, report = false, quiet = false;
  bool fail_on_refute = false;
  bool sequential = false;
  std::size_t every = 0;
  std::string trace_path, grid_text = "0.01:10";
  CLI::Option *sequential_opt, *every_opt, *trace_opt, *grid_opt;
  CLI::Option *scores_opt, *in_opt, *out_opt, *decisions_opt, *negate_opt, *null_dim_opt, *null_opt,
      *method_opt, *delta_opt, *thresholds_opt, *threshold_opt, *guesses_opt, *curve_opt, *seed_opt,
      *splits_opt, *bootstrap_opt, *groups_opt, *tpr_opt, *one_sided_opt, *per_opt, *fail_opt,
      *against_opt, *json_opt, *report_opt, *band_opt, *eps_delta_opt;
};

}  // namespace dpaudit::eps_from_scores
