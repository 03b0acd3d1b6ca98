#include "games/canife_audit.hpp"

#include <algorithm>
#include <variant>

#include "data/datasets.hpp"
#include "stats/estimate.hpp"

namespace dpaudit {

void split_scores(const Audit& a, std::vector<double>& in, std::vector<double>& out) {
  for (std::size_t k = 0; k < a.scores.size(); ++k) (k % 2 ? in : out).push_back(a.scores[k]);
}

CanaryStart initial_canary(CanaryInit init, const Dataset& pool, std::size_t first,
                           PhiloxStream& rng) {
  CanaryStart s;
  s.x.resize(pool.example_size());
  // uniform pixels and a uniform class (Maddock et al. 2023's code)
  if (init == CanaryInit::random) {
    for (float& v : s.x) v = static_cast<float>(rng.uniform());
    s.label =
        static_cast<std::int64_t>(uniform_below(rng, static_cast<std::size_t>(pool.num_classes)));
  } else {  // a design example
    std::copy_n(pool.example(first), s.x.size(), s.x.begin());
    s.label = pool.labels[first];
  }
  return s;
}

void estimate_audit_epsilons(std::vector<Audit>& audits) {
  if (audits.empty()) return;
  EstimateRequest r;
  r.method = "canife";
  r.input = EstimateInput::rounds;
  r.alpha = 0.05;  // Maddock et al. 2023's two-sided 95% interval
  validate(r);
  for (const Audit& a : audits) {
    std::vector<double> in, out;
    split_scores(a, in, out);
    r.rounds.emplace(static_cast<double>(a.round), ScoreSet(std::move(in), std::move(out)));
  }
  const Estimate e = estimate(r);
  const auto& rounds = std::get<CanifeRounds>(e.result);
  for (Audit& a : audits) a.eps = rounds.at(static_cast<double>(a.round));
}

}  // namespace dpaudit
