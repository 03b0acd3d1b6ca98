// libFuzzer harness: the CSV reader through every reader of scores (label,score with
// optional dim and trial columns, the trial rows checked for repeated (trial, label); by
// round; as cosines against --null-dim), of decisions (label,guess, optional trial) and of
// trade-off curves (fpr,fnr, read at a few points). Only DataError may come out.
#include "accounting/tradeoff_curve.hpp"
#include "core/error.hpp"
#include "fuzz_input.hpp"
#include "io/scores_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dpaudit;
  const fuzz::InputFile input(data, size);
  const ScoreReadOptions plain{}, null{false, false, true, 100};
  auto quietly = [](auto read) {
    try {
      read();
    } catch (const DataError&) {
    }
  };
  quietly([&] { read_scores_csv(input.path(), plain); });
  quietly([&] { read_scores_csv(input.path(), null); });
  quietly([&] { read_scores_csv_by_round(input.path(), plain); });
  quietly([&] { read_decisions_csv(input.path()); });
  quietly([&] {
    const TradeoffCurve f = read_tradeoff_curve(input.path());
    for (double x : {0.0, 1e-300, 0.25, 0.5, 1.0}) f(x);
  });
  return 0;
}
