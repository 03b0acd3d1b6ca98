#include "data/datasets.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <numeric>

#include "core/error.hpp"
#include "core/names.hpp"
#include "io/idx.hpp"
#include "random/philox_stream.hpp"
#include "random/streams.hpp"

namespace dpaudit {

void shuffle(std::vector<std::size_t>& v, PhiloxStream& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[uniform_below(rng, i)]);
}

void shuffle_prefix(std::vector<std::size_t>& v, std::size_t k, PhiloxStream& rng) {
  for (std::size_t i = 0; i < k && i < v.size(); ++i)
    std::swap(v[i], v[i + uniform_below(rng, v.size() - i)]);
}

std::size_t Dataset::example_size() const {
  return static_cast<std::size_t>(std::accumulate(example_shape.begin(), example_shape.end(),
                                                  std::int64_t{1}, std::multiplies<>()));
}

namespace {

IdxArray read_fashion_mnist_file(const std::string& dir, const std::string& name) {
  const std::string path = (std::filesystem::path(dir) / name).string();
  if (!std::filesystem::exists(path))
    throw DataError("missing Fashion-MNIST file (Debian package dataset-fashion-mnist provides it)",
                    path);
  return read_idx(path);
}

Dataset fashion_mnist_split(const std::string& dir, const std::string& prefix) {
  const IdxArray images = read_fashion_mnist_file(dir, prefix + "-images-idx3-ubyte.gz");
  const IdxArray labels = read_fashion_mnist_file(dir, prefix + "-labels-idx1-ubyte.gz");
  if (images.shape.size() != 3 || images.shape[1] != 28 || images.shape[2] != 28)
    throw DataError("Fashion-MNIST images are not N x 28 x 28",
                    dir + "/" + prefix + "-images-idx3-ubyte.gz");
  if (labels.shape.size() != 1 || labels.items() != images.items())
    throw DataError("Fashion-MNIST labels do not match the images in count",
                    dir + "/" + prefix + "-labels-idx1-ubyte.gz");
  Dataset d;
  d.example_shape = {1, 28, 28};
  d.num_classes = 10;
  d.features.resize(images.data.size());
  std::transform(images.data.begin(), images.data.end(), d.features.begin(),
                 [](std::uint8_t v) { return static_cast<float>(v) / 255.0f; });
  d.labels.reserve(labels.items());
  for (std::uint8_t l : labels.data) {
    if (l >= 10) throw DataError("Fashion-MNIST label " + std::to_string(l) + " outside 0..9", dir);
    d.labels.push_back(l);
  }
  return d;
}

// Gamma(shape, 1) by Marsaglia & Tsang (2000), with the boost
// Gamma(a) = Gamma(a + 1) U^(1/a) for a < 1.
double sample_gamma(double shape, PhiloxStream& rng) {
  if (shape < 1.0) {
    const double u = std::max(rng.uniform(), 1e-300);
    return sample_gamma(shape + 1.0, rng) * std::pow(u, 1.0 / shape);
  }
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x = 0, v = 0;
    do {
      x = rng.normal();
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = std::max(rng.uniform(), 1e-300);
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

ClientIndices partition_iid(std::size_t examples, std::size_t clients, PhiloxStream& rng) {
  std::vector<std::size_t> order(examples);
  std::iota(order.begin(), order.end(), std::size_t{0});
  shuffle(order, rng);
  ClientIndices out(clients);
  for (std::size_t c = 0; c < clients; ++c)
    out[c].assign(order.begin() + static_cast<std::ptrdiff_t>(examples * c / clients),
                  order.begin() + static_cast<std::ptrdiff_t>(examples * (c + 1) / clients));
  return out;
}

ClientIndices partition_label_skew(const Dataset& data, std::size_t clients, double alpha,
                                   PhiloxStream& rng) {
  ClientIndices out(clients);
  for (std::int64_t cls = 0; cls < data.num_classes; ++cls) {
    std::vector<std::size_t> members;
    for (std::size_t i = 0; i < data.size(); ++i)
      if (data.labels[i] == cls) members.push_back(i);
    shuffle(members, rng);
    std::vector<double> p(clients);
    for (double& x : p) x = sample_gamma(alpha, rng);
    const double total = std::accumulate(p.begin(), p.end(), 0.0);
    // Cut points at the rounded cumulative proportions, so the pieces cover `members`.
    double cumulative = 0;
    std::size_t begin = 0;
    for (std::size_t c = 0; c < clients; ++c) {
      cumulative += p[c];
      const std::size_t end =
          c + 1 == clients ? members.size()
                           : std::min(members.size(), static_cast<std::size_t>(std::llround(
                                                          cumulative / total * members.size())));
      out[c].insert(out[c].end(), members.begin() + static_cast<std::ptrdiff_t>(begin),
                    members.begin() + static_cast<std::ptrdiff_t>(std::max(begin, end)));
      begin = std::max(begin, end);
    }
  }
  for (auto& client : out) std::sort(client.begin(), client.end());
  return out;
}

Dataset synthetic_split(const std::vector<float>& means, std::size_t examples, PhiloxStream& rng) {
  constexpr std::int64_t kClasses = 10;
  constexpr double kNoise = 1.5;
  Dataset d;
  d.example_shape = {1, 8, 8};
  d.num_classes = kClasses;
  const std::size_t dim = d.example_size();
  d.features.resize(examples * dim);
  d.labels.resize(examples);
  for (std::size_t i = 0; i < examples; ++i) {
    const std::int64_t label = static_cast<std::int64_t>(uniform_below(rng, kClasses));
    d.labels[i] = label;
    for (std::size_t j = 0; j < dim; ++j)
      d.features[i * dim + j] = static_cast<float>(means[label * dim + j] + kNoise * rng.normal());
  }
  return d;
}

}  // namespace

TrainTest load_fashion_mnist(const std::string& dir) {
  return {fashion_mnist_split(dir, "train"), fashion_mnist_split(dir, "t10k")};
}

TrainTest make_synthetic_task(std::uint64_t seed) {
  PhiloxStream rng(seed, streams::kSynthetic);
  std::vector<float> means(std::size_t{10} * 64);
  for (float& m : means) m = static_cast<float>(rng.normal());
  TrainTest t;
  t.train = synthetic_split(means, 2000, rng);
  t.test = synthetic_split(means, 500, rng);
  return t;
}

TrainTest load_task(const std::string& task, const std::string& data_dir, std::uint64_t seed) {
  if (task == "fashion-mnist")
    return load_fashion_mnist(data_dir.empty() ? kFashionMnistDir : data_dir);
  if (task == "synthetic") return make_synthetic_task(seed);
  throw UsageError(Pattern{"unknown task '" + literal(task) + "' (fashion-mnist or synthetic)"},
                   "{task}");
}

PartitionKind parse_partition(const std::string& name) {
  static constexpr Named<PartitionKind> kPartitions[] = {{"iid", PartitionKind::iid},
                                                         {"label-skew", PartitionKind::label_skew}};
  return parse_named(kPartitions, name, "partition", "{partition}");
}

ClientIndices partition_clients(const Dataset& data, std::size_t clients, PartitionKind kind,
                                double alpha, std::uint64_t seed) {
  if (clients == 0) throw UsageError(Pattern{"need at least one client"}, "{clients}");
  if (clients > data.size())
    throw UsageError(Pattern{"more clients (" + std::to_string(clients) +
                             ") than training examples (" + std::to_string(data.size()) + ")"},
                     "{clients}");
  if (!(alpha > 0) || !std::isfinite(alpha))
    throw UsageError(Pattern{"alpha must be positive"}, "{alpha}");
  PhiloxStream rng(seed, streams::kPartition);
  return kind == PartitionKind::iid ? partition_iid(data.size(), clients, rng)
                                    : partition_label_skew(data, clients, alpha, rng);
}

PartitionSummary summarize_partition(const Dataset& data, const ClientIndices& clients) {
  PartitionSummary s;
  double classes = 0;
  for (const auto& client : clients) {
    if (client.empty()) {
      ++s.empty_clients;
      continue;
    }
    std::vector<bool> seen(static_cast<std::size_t>(data.num_classes), false);
    for (std::size_t i : client) seen[static_cast<std::size_t>(data.labels[i])] = true;
    classes += static_cast<double>(std::count(seen.begin(), seen.end(), true));
  }
  const std::size_t filled = clients.size() - s.empty_clients;
  s.mean_classes_per_client = filled ? classes / static_cast<double>(filled) : 0.0;
  return s;
}

}  // namespace dpaudit
