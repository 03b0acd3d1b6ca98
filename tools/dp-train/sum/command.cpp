// dp-train sum: one release of the Gaussian sum query with canaries inserted (Andrew et al. 2024
// Alg. 1, lines 1-6); the library does the work (mechanisms/gaussian_sum.hpp).
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "canary/canary_set.hpp"
#include "cli/progress.hpp"
#include "cli/tool.hpp"
#include "command.hpp"
#include "core/error.hpp"
#include "io/npy.hpp"
#include "mechanisms/gaussian_sum.hpp"

namespace dpaudit::dp_train {
namespace {

struct SumOptions {
  GaussianSumConfig config;
  std::string client_data = "zero";
  std::string canaries;
  std::string output = "-";
  std::string dtype = "f8";
  bool quiet = false;
};

int run_sum(const SumOptions& o, bool clients_given) {
  GaussianSumConfig config = o.config;
  if (o.client_data == "zero") {
    config.client_data = ClientData::zero;
  } else if (o.client_data == "random") {
    config.client_data = ClientData::random;
  } else {
    if (clients_given)
      throw UsageError(
          "--clients cannot be given with --client-data FILE (its rows are the clients)");
    config.client_data = ClientData::given;
  }
  // Client rows stream from the NPY file, one at a time (the mechanism takes vectors).
  std::unique_ptr<NpyReader> client_file;
  ClientRows given;
  if (config.client_data == ClientData::given) {
    client_file = std::make_unique<NpyReader>(o.client_data);
    if (client_file->header().cols() != config.dim)
      throw DataError("client dimension " + std::to_string(client_file->header().cols()) +
                          " does not match --dim " + std::to_string(config.dim),
                      o.client_data);
    given = {client_file->header().rows(), [&](double* row) { client_file->read_rows(1, row); }};
  }
  std::optional<CanarySet> canaries;
  if (!o.canaries.empty()) canaries = CanarySet::open(o.canaries);
  const std::size_t terms = (canaries ? canaries->count() : 0) +
                            (config.client_data == ClientData::random ? config.clients : 0);
  cli::Progress progress("dp-train sum", 2 * terms, o.quiet);  // a term: its norm, its addition
  const std::vector<double> release =
      gaussian_sum_release(config, canaries ? &*canaries : nullptr, client_file ? &given : nullptr,
                           [&](std::size_t done) { progress.update(done); });
  // Written through as it goes: a copy held for stdout would double the memory.
  save_npy(o.output, release.data(), {release.size()}, parse_npy_dtype(o.dtype), true);
  return 0;
}

const Registration kSum{
    {"sum",
     [](CLI::App& sub) -> std::function<int()> {
       auto o = std::make_shared<SumOptions>();
       sub.description(
           "One release of the Gaussian sum query with canaries inserted (Andrew et al. 2024, Alg. "
           "1):\n"
           "  rho = C (sum_i clip_1(x_i) + sum_j clip_1(c_j) + sigma Z), Z ~ N(0, I_D),\n"
           "written as a 1-D NPY of D entries. Score it with score-dump.");
       sub.add_option("--dim", o->config.dim, "dimension D of the vectors")
           ->required()
           ->check(CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max()));
       auto* clients = sub.add_option("--clients", o->config.clients,
                                      "number N of client vectors (zero, random)")
                           ->capture_default_str();
       sub.add_option("--client-data", o->client_data,
                      "zero | random (standard Gaussian, clipped to norm 1) | FILE.npy (N x D, "
                      "rows clipped to norm 1)")
           ->capture_default_str();
       sub.add_option(
           "--canaries", o->canaries,
           "canaries: a spec (canary-gen) or an NPY matrix K x D; rows clipped to norm 1");
       sub.add_option("--noise", o->config.noise,
                      "noise multiplier sigma: noise N(0, (sigma C)^2 I)")
           ->required()
           ->check(dpaudit::cli::positive());
       sub.add_option("--clip", o->config.clip, "sensitivity C: everything is scaled by C")
           ->capture_default_str()
           ->check(dpaudit::cli::positive());
       sub.add_option("--seed", o->config.seed, "seed of the noise and the random clients")
           ->capture_default_str();
       sub.add_option("--threads", o->config.threads,
                      "threads (0: all cores); the output does not depend on it")
           ->capture_default_str()
           ->check(dpaudit::cli::thread_count());
       sub.add_option("-o,--output", o->output, "release NPY file; - = stdout")
           ->capture_default_str();
       sub.add_option("--dtype", o->dtype, "f8 or f4")
           ->capture_default_str()
           ->check(CLI::IsMember({"f8", "f4"}));
       sub.add_flag("-q,--quiet", o->quiet,
                    "no progress on stderr (shown only when it is a terminal)");
       return [o, clients] { return run_sum(*o, clients->count() > 0); };
     },
     "--dim and the canaries (--canaries)"}};

}  // namespace
}  // namespace dpaudit::dp_train
