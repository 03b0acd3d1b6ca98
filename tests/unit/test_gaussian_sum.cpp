#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string_view>
#include <vector>

#include "canary/canary_set.hpp"
#include "core/error.hpp"
#include "io/config_hash.hpp"
#include "mechanisms/gaussian_sum.hpp"

using namespace dpaudit;

namespace {
CanarySet spheres(std::size_t k, std::size_t d) {
  CanarySpec s;
  s.seed = 4;
  s.count = k;
  s.dim = d;
  return CanarySet::from_spec(s);
}
GaussianSumConfig config(std::size_t d, double noise) {
  GaussianSumConfig c;
  c.dim = d;
  c.noise = noise;
  c.seed = 3;
  return c;
}
}  // namespace

TEST_CASE("FixedPointSum: exact, order-free, 2^-52 resolution for 1000 terms") {
  FixedPointSum a(3, 1000), b(3, 1000);
  CHECK(a.scale_bits() == 52);  // 62 - ceil(log2(1001))
  const double x[3] = {0.5, -0.25, 1e-3}, y[3] = {0.125, 1.0, -1.0};
  a.add(x);
  a.add(y);
  b.add(y, 1, 0, 2);  // a term added in two ranges, in the other order
  b.add(x);
  b.add(y, 1, 2, 3);
  double ta[3], tb[3];
  a.total(ta);
  b.total(tb);
  CHECK(ta[0] == 0.625);
  CHECK(ta[1] == 0.75);
  CHECK(std::abs(ta[2] - (1e-3 - 1.0)) <= 0x1p-53);  // one rounding of 1e-3 to a multiple of 2^-52
  for (int i = 0; i < 3; ++i) CHECK(ta[i] == tb[i]);
  // Ties round away from zero, on the vector path (blocks of four small entries) and the
  // scalar one (a block with an entry of 2^51 or more once scaled, and the tail).
  FixedPointSum ties(9, 1000);
  const double tie[9] = {0x1p-53, -0x1p-53, 3 * 0x1p-53, -5 * 0x1p-53, 0.75,
                         -0.0,    0x1p-53,  -0x1p-53,    7 * 0x1p-53};
  ties.add(tie);
  ties.add(tie, 1, 4, 5);  // 0.75 once more: 1.5
  double tt[9];
  ties.total(tt);
  const double want[9] = {0x1p-52, -0x1p-52, 2 * 0x1p-52, -3 * 0x1p-52, 1.5,
                          0,       0x1p-52,  -0x1p-52,    4 * 0x1p-52};
  for (int i = 0; i < 9; ++i) CHECK(tt[i] == want[i]);
  // 61 bits: 0.75 is 0.75 2^61 once scaled, beyond AVX2's conversion (its scalar path). Nine
  // entries: eight on the 8-wide AVX-512 path, and the tail.
  FixedPointSum one_term(9, 1);
  const double big[9] = {0.75, -0.3, 2.5 * 0x1p-61, -2.5 * 0x1p-61, -0.0, 1, -1, 0x1p-62, -0.3};
  one_term.add(big);
  double tb1[9];
  one_term.total(tb1);
  CHECK(tb1[0] == 0.75);
  CHECK(tb1[1] == -0.3);  // 0.3 2^61 is a whole number
  CHECK(tb1[2] == 3 * 0x1p-61);
  CHECK(tb1[3] == -3 * 0x1p-61);
  CHECK(tb1[4] == 0);
  CHECK(tb1[5] == 1);
  CHECK(tb1[6] == -1);
  CHECK(tb1[7] == 0x1p-61);  // a tie, 0.5 2^-61: away from zero
  CHECK(tb1[8] == -0.3);
  FixedPointSum scaled(1, 1);
  const double half = 0.5;
  scaled.add(&half, 0.5);
  double t;
  scaled.total(&t);
  CHECK(t == 0.25);
}

TEST_CASE("release without noise is the sum of the unit canaries, scaled by C") {
  const std::size_t k = 7, d = 5000;
  const CanarySet set = spheres(k, d);
  GaussianSumConfig c = config(d, 0);
  c.clip = 2;
  const std::vector<double> rho = gaussian_sum_release(c, &set);
  std::vector<double> sum(d, 0.0), canary(d);
  for (std::size_t j = 0; j < k; ++j) {
    set.get(j, canary.data());
    for (std::size_t i = 0; i < d; ++i) sum[i] += canary[i];
  }
  for (std::size_t i = 0; i < d; i += 97)
    CHECK(rho[i] == doctest::Approx(2 * sum[i]).epsilon(1e-12));
}

TEST_CASE("same release whatever the threads; noise has sd sigma C") {
  const std::size_t d = 200000;
  const CanarySet set = spheres(9, d);
  GaussianSumConfig c = config(d, 3);
  c.clip = 0.5;
  c.threads = 1;
  const std::vector<double> one = gaussian_sum_release(c, &set);
  c.threads = 3;
  CHECK(gaussian_sum_release(c, &set) == one);
  c.kept_term_bytes = 0;  // two passes (the default keeps the terms at this size: one)
  CHECK(gaussian_sum_release(c, &set) == one);
  c.threads = 1;
  CHECK(gaussian_sum_release(c, &set) == one);
  c.kept_term_bytes = GaussianSumConfig{}.kept_term_bytes;
  double mean = 0, sq = 0;
  for (double v : one) {
    mean += v;
    sq += v * v;
  }
  mean /= d;
  const double sd = std::sqrt(sq / d - mean * mean);
  // canaries add 9/d to the variance per entry (negligible); noise sd = sigma C = 1.5
  CHECK(std::abs(sd - 1.5) < 4 * 1.5 / std::sqrt(2.0 * d));
  CHECK(std::abs(mean) < 4 * 1.5 / std::sqrt(double(d)));
  c.seed = 4;
  CHECK(gaussian_sum_release(c, &set) != one);
}

TEST_CASE("a release that overflows is an error, not inf") {
  const CanarySet set = spheres(2, 3);
  GaussianSumConfig c = config(3, 1e10);
  c.clip = 1e308;  // |C sigma z| > DBL_MAX unless |z| < 1.8e-10 in every coordinate
  CHECK_THROWS_AS(gaussian_sum_release(c, &set), DataError);
  c.clip = 1;
  CHECK_NOTHROW(gaussian_sum_release(c, &set));
}

TEST_CASE("client data: random clients have norm 1, given rows are clipped to norm 1") {
  GaussianSumConfig c = config(1000, 0);
  c.client_data = ClientData::random;
  c.clients = 1;
  const std::vector<double> rho = gaussian_sum_release(c, nullptr);
  double n2 = 0;
  for (double v : rho) n2 += v * v;
  CHECK(std::sqrt(n2) == doctest::Approx(1).epsilon(1e-12));

  // Two rows, (3, 4, 0) of norm 5 -> (0.6, 0.8, 0), and (0, 0, 0.5) unchanged.
  const double rows[6] = {3, 4, 0, 0, 0, 0.5};
  std::size_t next = 0;
  const ClientRows given{2, [&](double* row) { std::copy_n(rows + 3 * next++, 3, row); }};
  GaussianSumConfig f = config(3, 0);
  f.client_data = ClientData::given;
  const std::vector<double> fr = gaussian_sum_release(f, nullptr, &given);
  CHECK(next == 2);
  CHECK(fr[0] == doctest::Approx(0.6).epsilon(1e-15));
  CHECK(fr[1] == doctest::Approx(0.8).epsilon(1e-15));
  CHECK(fr[2] == 0.5);
}

TEST_CASE("canary dimension mismatch names both sizes") {
  const CanarySet set = spheres(2, 10);
  CHECK_THROWS_WITH_AS(gaussian_sum_release(config(20, 1), &set),
                       "canary dimension 10 does not match the dimension 20 (spec)", DataError);
}

// The release's bytes, pinned: FNV-1a (io/config_hash.hpp) of its 8-byte entries. The hashes
// are what the one-pass implementation before issue 26 gave (this test's configurations run
// against commit 084f076's gaussian_sum.cpp: each term generated whole, then added), so both
// of today's paths keep every bit: each case runs with kept_term_bytes on either side of the
// boundary, one term per thread (threads beyond the terms keep none) of d doubles, which is one
// pass, and one byte less, which is two passes (norms first, then blocks of coordinates).
// d = 10007 is not a multiple of the block; the cases cover random clients, a dummy spec,
// clipped and unclipped matrix rows and given rows, at 1, 2 and 3 threads.
TEST_CASE(
    "the release keeps its bytes on both paths: sphere, dummy and matrix canaries, every "
    "client kind") {
  const std::size_t d = 10007;
  auto fnv = [](const std::vector<double>& r) {
    return fnv1a_64(std::string_view(reinterpret_cast<const char*>(r.data()), r.size() * 8));
  };
  // The release's hash on both paths (0 where they differ); `keepers` terms kept in one pass.
  auto hash = [&](GaussianSumConfig c, std::size_t keepers, const CanarySet* set,
                  const std::function<ClientRows()>& rows = {}) {
    c.kept_term_bytes = keepers * d * sizeof(double);
    ClientRows one = rows ? rows() : ClientRows{};
    const std::uint64_t one_pass = fnv(gaussian_sum_release(c, set, rows ? &one : nullptr));
    c.kept_term_bytes -= 1;
    ClientRows two = rows ? rows() : ClientRows{};
    const std::uint64_t two_passes = fnv(gaussian_sum_release(c, set, rows ? &two : nullptr));
    return one_pass == two_passes ? one_pass : 0;
  };
  const CanarySet set = spheres(9, d);
  GaussianSumConfig c = config(d, 0.7);
  c.clip = 1.3;
  c.threads = 2;
  c.client_data = ClientData::random;
  c.clients = 2;
  CHECK(hash(c, 2, &set) == 0x00f4b43fd9156d20ull);

  CanarySpec dummy;
  dummy.kind = CanaryKind::dummy;
  dummy.count = 4;
  dummy.dim = d;
  dummy.clip = 0.9;
  dummy.flip = true;
  const CanarySet dummies = CanarySet::from_spec(dummy);
  GaussianSumConfig e = config(d, 0.2);
  e.seed = 8;
  e.threads = 1;
  CHECK(hash(e, 1, &dummies) == 0x3e9f13f8f3077575ull);

  // Row 0 has norm 2.1 (clipped), rows 1 and 2 norm 0.07; given row 0 norm 3.5, row 1 0.07.
  std::vector<double> m(3 * d);
  for (std::size_t i = 0; i < m.size(); ++i)
    m[i] = std::sin(0.37 * double(i)) * (i < d ? 0.03 : 0.001);
  const CanarySet matrix = CanarySet::from_matrix(m, 3, d, "matrix");
  // Given rows, streamed once per release.
  auto given = [&] {
    auto next = std::make_shared<std::size_t>(0);
    return ClientRows{3, [next, d](double* row) {
                        for (std::size_t i = 0; i < d; ++i)
                          row[i] =
                              std::cos(0.11 * double(i + *next * d)) * (*next == 1 ? 0.001 : 0.05);
                        ++*next;
                      }};
  };
  GaussianSumConfig g = config(d, 0.4);
  g.seed = 5;
  g.client_data = ClientData::given;
  g.threads = 3;
  CHECK(hash(g, 3, &matrix, given) == 0xd446b73dbedb3d1aull);
}

TEST_CASE("progress: each term counts twice, once per pass, up to 2 (clients + canaries)") {
  const CanarySet set = spheres(5, 9000);
  GaussianSumConfig c = config(9000, 1);
  c.client_data = ClientData::random;
  c.clients = 2;
  c.threads = 2;
  for (const std::size_t kept : {std::size_t{0}, std::numeric_limits<std::size_t>::max()}) {
    CAPTURE(kept);
    c.kept_term_bytes = kept;
    std::vector<std::size_t> seen;
    (void)gaussian_sum_release(c, &set, nullptr, [&](std::size_t done) { seen.push_back(done); });
    REQUIRE(!seen.empty());
    CHECK(std::is_sorted(seen.begin(), seen.end()));
    // Two passes: the norms of all 7 terms, then the blocks. One pass: rounds of 2 terms.
    const std::vector<std::size_t> one_pass{4, 8, 12, 14};
    if (kept == 0)
      CHECK(std::find(seen.begin(), seen.end(), 7u) != seen.end());
    else
      CHECK(seen == one_pass);
    CHECK(seen.back() == 14);
  }
}
