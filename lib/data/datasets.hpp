// Data sets and client partitions for dp-train (shared by fedavg, ldp, ...).
// No LibTorch here: examples are plain float rows; models.hpp turns them into tensors.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "random/philox_stream.hpp"

namespace dpaudit {

// A labelled classification data set: size() examples of shape example_shape
// (e.g. {1, 28, 28}), features row-major, one row of example_size() floats per example.
struct Dataset {
  std::vector<std::int64_t> example_shape;
  std::vector<float> features;
  std::vector<std::int64_t> labels;
  std::int64_t num_classes = 0;
  std::size_t size() const { return labels.size(); }
  std::size_t example_size() const;
  const float* example(std::size_t i) const { return features.data() + i * example_size(); }
};

struct TrainTest {
  Dataset train, test;
};

// Where Debian's dataset-fashion-mnist puts the gzip IDX files.
inline const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";

// Fashion-MNIST (60,000 train / 10,000 test 1x28x28 images, 10 classes) from the four
// gzip IDX files in `dir`; pixels scaled to [0, 1]. DataError naming the missing file
// and the Debian package that provides it.
TrainTest load_fashion_mnist(const std::string& dir);

// A small generated task that keeps tests fast: 10 classes, 1x8x8 "images"; class c
// has a mean drawn from N(0, 1) per pixel and examples are mean + N(0, 1.5^2) noise.
// 2,000 train and 500 test examples, a pure function of seed.
TrainTest make_synthetic_task(std::uint64_t seed);

// "fashion-mnist" (from data_dir; empty: kFashionMnistDir) or "synthetic" (from seed);
// UsageError otherwise.
TrainTest load_task(const std::string& task, const std::string& data_dir, std::uint64_t seed);

enum class PartitionKind { iid, label_skew };
PartitionKind parse_partition(const std::string& name);  // "iid" | "label-skew"

// Example indices of each client; clients are disjoint and cover the training set.
using ClientIndices = std::vector<std::vector<std::size_t>>;

// iid: a uniform shuffle cut into `clients` blocks whose sizes differ by at most one.
// label-skew: for each class, client proportions p ~ Dirichlet(alpha, ..., alpha) and the
// class's (shuffled) examples are cut in those proportions (Yurochkin et al. 2019; Wang
// et al. 2020 "FedMA"); small alpha gives few classes per client, and some clients may
// get no example at all. Randomness: PhiloxStream(seed, kPartitionStream).
// UsageError when clients is 0 or exceeds the number of examples, or alpha <= 0.
ClientIndices partition_clients(const Dataset& data, std::size_t clients, PartitionKind kind,
                                double alpha, std::uint64_t seed);

// How skewed a partition is (reported in run.json): clients without examples and the
// mean number of distinct labels per non-empty client. For iid clients of n examples
// from C equally likely classes the mean is C (1 - (1 - 1/C)^n).
struct PartitionSummary {
  std::size_t empty_clients = 0;
  double mean_classes_per_client = 0;
};
PartitionSummary summarize_partition(const Dataset& data, const ClientIndices& clients);

// Fisher-Yates shuffle of v, from its last position down.
void shuffle(std::vector<std::size_t>& v, PhiloxStream& rng);
// The first k positions of v become a uniform sample of its entries without replacement
// (a partial Fisher-Yates from the front: position i swaps with i + uniform_below(n - i)).
void shuffle_prefix(std::vector<std::size_t>& v, std::size_t k, PhiloxStream& rng);

}  // namespace dpaudit
