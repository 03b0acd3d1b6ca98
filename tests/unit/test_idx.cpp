#include <doctest/doctest.h>

#include <zlib.h>

#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "io/idx.hpp"

using namespace dpaudit;

namespace {

// A 2 x 3 unsigned-byte IDX image: magic 00 00 08 02, sizes 2 and 3, then 6 bytes.
std::vector<std::uint8_t> small_idx() {
  return {0, 0, 8, 2, 0, 0, 0, 2, 0, 0, 0, 3, 10, 20, 30, 40, 50, 255};
}

void write_gzip(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size())) ==
          static_cast<int>(bytes.size()));
  gzclose(f);
}

}  // namespace

TEST_CASE("IDX header and body parse in C order") {
  IdxArray a = parse_idx(small_idx(), "mem");
  CHECK(a.shape == std::vector<std::size_t>{2, 3});
  CHECK(a.items() == 2);
  CHECK(a.item_size() == 3);
  CHECK(a.data == std::vector<std::uint8_t>{10, 20, 30, 40, 50, 255});
}

TEST_CASE("IDX read from a gzip file and from a plain file give the same array") {
  const std::string gz = "test_idx_small.gz", plain = "test_idx_small.idx";
  write_gzip(gz, small_idx());
  {
    std::FILE* f = std::fopen(plain.c_str(), "wb");
    REQUIRE(f != nullptr);
    std::fwrite(small_idx().data(), 1, small_idx().size(), f);
    std::fclose(f);
  }
  CHECK(read_idx(gz).data == read_idx(plain).data);
  CHECK(read_idx(gz).shape == std::vector<std::size_t>{2, 3});
  std::remove(gz.c_str());
  std::remove(plain.c_str());
}

TEST_CASE("IDX errors name the problem") {
  auto bytes = small_idx();
  bytes[0] = 1;
  CHECK_THROWS_WITH_AS(parse_idx(bytes, "x.idx"), "not an IDX file (bad magic number) (x.idx)",
                       DataError);
  bytes = small_idx();
  bytes[2] = 0x0D;  // float
  CHECK_THROWS_WITH_AS(parse_idx(bytes, "x.idx"),
                       "unsupported IDX element type 13 (only unsigned byte) (x.idx)", DataError);
  bytes = small_idx();
  bytes.pop_back();
  CHECK_THROWS_WITH_AS(parse_idx(bytes, "x.idx"), "truncated IDX body: 5 of 6 bytes (x.idx)",
                       DataError);
  bytes.resize(7);
  CHECK_THROWS_WITH_AS(parse_idx(bytes, "x.idx"), "truncated IDX header (x.idx)", DataError);
  // Sizes 2^22 x 2^21 x 2^21 wrap to 0 elements, which an empty body would satisfy.
  bytes = {0, 0, 8, 3, 0, 0x40, 0, 0, 0, 0x20, 0, 0, 0, 0x20, 0, 0};
  CHECK_THROWS_WITH_AS(parse_idx(bytes, "x.idx"), "IDX sizes multiply past 2^64 (x.idx)",
                       DataError);
  CHECK_THROWS_AS(read_idx("/nonexistent/train-images-idx3-ubyte.gz"), DataError);
}

TEST_CASE("Fashion-MNIST from Debian's dataset-fashion-mnist (scripts/install-deps installs it)") {
  const std::string dir = "/usr/share/datasets/fashion-mnist/";
  // Known values, computed with /usr/bin/python3 numpy from the same files:
  // labels[:10] = 9 0 0 3 0 2 7 2 5 5, 6000 per class; images[0].sum() = 76247,
  // images[0,14,14] = 217; test labels[:5] = 9 2 1 1 6.
  IdxArray labels = read_idx(dir + "train-labels-idx1-ubyte.gz");
  REQUIRE(labels.shape == std::vector<std::size_t>{60000});
  CHECK(std::vector<std::uint8_t>(labels.data.begin(), labels.data.begin() + 10) ==
        std::vector<std::uint8_t>{9, 0, 0, 3, 0, 2, 7, 2, 5, 5});
  std::vector<int> per_class(10, 0);
  for (auto l : labels.data) ++per_class.at(l);
  CHECK(per_class == std::vector<int>(10, 6000));

  IdxArray images = read_idx(dir + "train-images-idx3-ubyte.gz");
  REQUIRE(images.shape == std::vector<std::size_t>{60000, 28, 28});
  CHECK(std::accumulate(images.data.begin(), images.data.begin() + 784, 0L) == 76247);
  CHECK(images.data[14 * 28 + 14] == 217);

  IdxArray test_labels = read_idx(dir + "t10k-labels-idx1-ubyte.gz");
  CHECK(test_labels.items() == 10000);
  CHECK(std::vector<std::uint8_t>(test_labels.data.begin(), test_labels.data.begin() + 5) ==
        std::vector<std::uint8_t>{9, 2, 1, 1, 6});
}
