#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <vector>

#include "canary/canary_scores.hpp"
#include "canary/canary_set.hpp"
#include "canary/canary_spec.hpp"
#include "canary/lane_sum.hpp"
#include "core/error.hpp"
#include "io/npy.hpp"
#include "random/philox_stream.hpp"

using namespace dpaudit;

namespace {
double norm(const std::vector<double>& x) {
  long double s = 0;
  for (double v : x) s += (long double)v * v;
  return std::sqrt((double)s);
}
std::string spec_error(const std::string& text) {
  try {
    parse_canary_spec(text, "c.json");
  } catch (const DataError& e) {
    CHECK(e.kind() == ErrorKind::bad_data);
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST_CASE("spec JSON: the docs/formats.md example reads and writes back") {
  const std::string text =
      R"({"kind":"sphere","seed":7,"count":1000,"dim":101770,"first_index":0})";
  const CanarySpec s = parse_canary_spec(text, "c.json");
  CHECK(s.kind == CanaryKind::sphere);
  CHECK(s.seed == 7);
  CHECK(s.count == 1000);
  CHECK(s.dim == 101770);
  CHECK(canary_spec_json(s) == text);
  CanarySpec d = s;
  d.kind = CanaryKind::dummy;
  d.clip = 0.5;
  d.flip = true;
  CHECK(
      canary_spec_json(d) ==
      R"({"kind":"dummy","seed":7,"count":1000,"dim":101770,"first_index":0,"clip":0.5,"flip":true})");
  const CanarySpec back = parse_canary_spec(canary_spec_json(d), "x");
  CHECK(back.clip == 0.5);
  CHECK(back.flip);
  CHECK(parse_canary_spec(R"({"kind":"sphere","seed":18446744073709551615,"count":1,"dim":1})", "x")
            .seed == 18446744073709551615ull);
}

TEST_CASE("spec JSON: every malformed spec is a DataError naming file and field") {
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":0,"dim":5})") ==
        "canary count is 0 (c.json, field count)");
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":3,"dim":0})") ==
        "canary dimension is 0 (c.json, field dim)");
  CHECK(spec_error(R"({"kind":"cube","seed":1,"count":3,"dim":4})") ==
        "unknown canary kind 'cube' (sphere or dummy) (c.json, field kind)");
  // 36 characters: nlohmann::json reports the unexpected end of input at byte 37
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":3,)") ==
        "malformed JSON at byte 37 (c.json)");
  CHECK(spec_error(R"({"kind":"sphere","count":3,"dim":4})") ==
        "missing field (c.json, field seed)");
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":3,"dim":4,"frist_index":2})") ==
        "unknown field (c.json, field frist_index)");
  CHECK(spec_error(R"({"kind":"sphere","seed":-1,"count":3,"dim":4})") ==
        "expected a non-negative integer (c.json, field seed)");
  CHECK(spec_error(R"({"kind":"dummy","count":3,"dim":4,"clip":0})") ==
        "clip must be a positive finite number (c.json, field clip)");
  CHECK(spec_error("[1,2]") == "a canary spec must be a JSON object (c.json)");
  // clip and flip shape dummy canaries: a sphere spec with one would lose it on the way back to
  // JSON (a finding of fuzz_canary_spec's round trip), so it is refused
  CHECK(spec_error(R"({"kind":"sphere","seed":7,"count":3,"dim":4,"clip":0.5})") ==
        "applies to dummy canaries only (c.json, field clip)");
  CHECK(spec_error(R"({"kind":"sphere","seed":7,"count":3,"dim":4,"flip":true})") ==
        "applies to dummy canaries only (c.json, field flip)");
}

TEST_CASE("spec JSON: limits and out-of-range numbers are refused with the file and the key") {
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":1000000000000,"dim":5})") ==
        "canary count 1000000000000 is too large (at most 2^32) (c.json, field count)");
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":18446744073709551615,"dim":5})") ==
        "canary count 18446744073709551615 is too large (at most 2^32) (c.json, field count)");
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":1,"dim":1099511627777})") ==
        "canary dimension 1099511627777 is too large (at most 2^40) (c.json, field dim)");
  // 1025 x 2^40 passes both single limits and wraps no 64-bit product, but not 2^50.
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":1025,"dim":1099511627776})") ==
        "count 1025 x dim 1099511627776 is too many entries to regenerate (at most 2^50) (c.json, "
        "fields count and dim)");
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":3,"dim":1e400})") ==
        "number out of range (c.json, field dim)");
  CHECK(spec_error(R"({"kind":"dummy","count":3,"dim":4,"clip":[-1e999]})") ==
        "number out of range (c.json, field clip)");
  CHECK(spec_error("1e400") == "number out of range (c.json)");
  // clip^2 beyond double made every cosine 0 (issue 9 item 9).
  CHECK(spec_error(R"({"kind":"dummy","count":3,"dim":4,"clip":1e308})") ==
        "clip 1e+308 is too large (at most 1e154: the canary's squared norm would overflow) "
        "(c.json, field clip)");
  CHECK(spec_error(R"({"kind":"dummy","count":3,"dim":4,"clip":1.0000000000000002e+154})") ==
        "clip 1.0000000000000002e+154 is too large (at most 1e154: the canary's squared norm would "
        "overflow) (c.json, field clip)");
  CHECK(spec_error(R"({"kind":"sphere","seed":1,"count":3,"dim":4,"count":5})") ==
        "field given twice (c.json, field count)");
  // The limits themselves are accepted.
  CHECK(parse_canary_spec(R"({"kind":"sphere","seed":1,"count":4294967296,"dim":262144})", "x")
            .count == 4294967296ull);
  CHECK(parse_canary_spec(R"({"kind":"sphere","seed":1,"count":1024,"dim":1099511627776})", "x")
            .dim == 1099511627776ull);
  // canary-gen's options go through the same check.
  CanarySpec big = sphere_spec(1, 5000000000ull, 10);
  CHECK_THROWS_WITH_AS(CanarySet::from_spec(big),
                       "canary count 5000000000 is too large (at most 2^32) (spec, field count)",
                       DataError);
}

TEST_CASE("sphere canary j is the normalised Gaussian of stream (seed, first_index + j)") {
  const std::size_t d = 1001;
  std::vector<double> c(d), g(d);
  generate_canary(sphere_spec(5, 10, d), 7, c.data());
  PhiloxStream(5, 7).fill_normal(g.data(), d);
  const double n = norm(g);
  for (std::size_t i = 0; i < d; ++i) CHECK(c[i] == doctest::Approx(g[i] / n).epsilon(1e-14));
  CHECK(norm(c) == doctest::Approx(1).epsilon(1e-14));
  // the same canary whatever the count and the split of indices
  std::vector<double> c2(d);
  generate_canary(sphere_spec(5, 1, d, 7), 0, c2.data());
  CHECK(c == c2);
  generate_canary(sphere_spec(5, 100000, d, 3), 4, c2.data());
  CHECK(c == c2);
  generate_canary(sphere_spec(6, 10, d), 7, c2.data());
  CHECK(c != c2);
}

TEST_CASE("dummy canary: every entry clip/sqrt(D); flip negates it") {
  CanarySpec s;
  s.kind = CanaryKind::dummy;
  s.count = 2;
  s.dim = 16;
  s.clip = 2;
  std::vector<double> c(16);
  generate_canary(s, 1, c.data());
  for (double v : c) CHECK(v == 0.5);  // 2 / sqrt(16)
  s.flip = true;
  generate_canary(s, 0, c.data());
  for (double v : c) CHECK(v == -0.5);
}

TEST_CASE(
    "CanarySet::shares_canaries_with: overlapping sphere ranges, equal dummies, the same file") {
  CanarySpec a = sphere_spec(7, 10, 5), b = a;
  b.first_index = 9;  // canary 9 is in both
  CHECK(CanarySet::from_spec(a).shares_canaries_with(CanarySet::from_spec(b)));
  b.first_index = 10;  // disjoint: 0..9 and 10..19
  CHECK(!CanarySet::from_spec(a).shares_canaries_with(CanarySet::from_spec(b)));
  b = a;
  b.seed = 8;
  CHECK(!CanarySet::from_spec(a).shares_canaries_with(CanarySet::from_spec(b)));
  CanarySpec d;
  d.kind = CanaryKind::dummy;
  d.count = 1;
  d.dim = 5;
  CanarySpec flipped = d;
  flipped.flip = true;
  CHECK(CanarySet::from_spec(d).shares_canaries_with(CanarySet::from_spec(d)));
  CHECK(!CanarySet::from_spec(d).shares_canaries_with(CanarySet::from_spec(flipped)));
  CHECK(!CanarySet::from_spec(d).shares_canaries_with(CanarySet::from_spec(a)));
  const std::vector<double> rows(5, 1.0);
  CHECK(CanarySet::from_matrix(rows, 1, 5, "m.npy")
            .shares_canaries_with(CanarySet::from_matrix(rows, 1, 5, "m.npy")));
  CHECK(!CanarySet::from_matrix(rows, 1, 5, "m.npy")
             .shares_canaries_with(CanarySet::from_matrix(rows, 1, 5, "n.npy")));
}

TEST_CASE("CanarySet reads a spec file or an NPY matrix") {
  const std::string json = "test_canary_set.json", npy = "test_canary_set.npy";
  std::ofstream(json) << canary_spec_json(sphere_spec(3, 4, 50));
  const CanarySet from_spec = CanarySet::open(json);
  CHECK(from_spec.count() == 4);
  CHECK(from_spec.dim() == 50);
  std::vector<double> rows(4 * 50);
  for (std::size_t j = 0; j < 4; ++j) from_spec.get(j, rows.data() + j * 50);
  save_npy(npy, rows.data(), {4, 50});
  const CanarySet from_npy = CanarySet::open(npy);
  CHECK(from_npy.count() == 4);
  CHECK(!from_npy.raw_needs_normalising());
  std::vector<double> row(50);
  from_npy.get(2, row.data());
  CHECK(std::equal(row.begin(), row.end(), rows.begin() + 100));
  std::ofstream(json) << R"({"kind":"sphere","seed":1,"count":0,"dim":5})";
  CHECK_THROWS_WITH_AS(CanarySet::open(json),
                       "canary count is 0 (test_canary_set.json, field count)", DataError);
  std::remove(json.c_str());
  std::remove(npy.c_str());
}

TEST_CASE("LaneSum: fixed lanes, the same bits in any chunking") {
  std::vector<double> a(1003), b(1003);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = std::sin(double(i));
    b[i] = std::cos(double(i) * 0.5);
  }
  LaneSum whole, parts;
  whole.add_products(a.data(), b.data(), a.size());
  parts.add_products(a.data(), b.data(), 512);
  parts.add_products(a.data() + 512, b.data() + 512, 488);
  parts.add_products(a.data() + 1000, b.data() + 1000, 3);
  CHECK(whole.total() == parts.total());
  long double exact = 0;
  for (std::size_t i = 0; i < a.size(); ++i) exact += (long double)a[i] * b[i];
  CHECK(whole.total() == doctest::Approx((double)exact).epsilon(1e-13));
}

TEST_CASE("cosine scores: closed forms for dummy canaries") {
  CanarySpec s;
  s.kind = CanaryKind::dummy;
  s.count = 2;
  s.dim = 100;
  s.clip = 3;
  const CanarySet set = CanarySet::from_spec(s);
  std::vector<double> ones(100, 1.0), e1(100, 0.0);
  e1[0] = 5;
  CHECK(CanaryScorer(set).scores(ones.data(), ScoreStat::cosine)[0] ==
        doctest::Approx(1.0).epsilon(1e-15));
  CHECK(CanaryScorer(set).scores(e1.data(), ScoreStat::cosine)[1] ==
        doctest::Approx(0.1).epsilon(1e-15));  // 1/sqrt(100)
  CHECK(CanaryScorer(set).scores(e1.data(), ScoreStat::dot)[1] ==
        doctest::Approx(1.5).epsilon(1e-15));  // 5 * 3/10
  CanarySpec largest = s;
  largest.clip = kMaxCanaryClip;  // clip^2 still finite: the cosine is still exact
  CHECK(CanaryScorer(CanarySet::from_spec(largest)).scores(ones.data(), ScoreStat::cosine)[0] ==
        doctest::Approx(1.0).epsilon(1e-15));
  s.flip = true;
  const CanarySet flipped = CanarySet::from_spec(s);
  CHECK(CanaryScorer(flipped).scores(ones.data(), ScoreStat::cosine)[0] ==
        doctest::Approx(-1.0).epsilon(1e-15));
  std::vector<double> zero(100, 0.0);
  CHECK_THROWS_AS(CanaryScorer(set).scores(zero.data(), ScoreStat::cosine), DataError);
}

// The scorers' test problem (a fixture): 37 sphere canaries of dimension 10,000 (seed 11) and one
// observation v ~ N(0, I) (seed 99).
struct SphereProblem {
  static constexpr std::size_t k = 37, d = 10000;
  CanarySet set = CanarySet::from_spec(sphere_spec(11, k, d));
  std::vector<double> v = [] {
    std::vector<double> x(d);
    PhiloxStream(99, 0).fill_normal(x.data(), d);
    return x;
  }();
};

TEST_CASE_FIXTURE(SphereProblem,
                  "sphere scores: exact cosines, same bits for any threads and with the cache") {
  const std::vector<double> one = CanaryScorer(set, 1).scores(v.data(), ScoreStat::cosine);
  CHECK(CanaryScorer(set, 3).scores(v.data(), ScoreStat::cosine) == one);
  const CanaryScorer cached(set, 2, k * d * sizeof(double));
  CHECK(cached.cached());
  CHECK(cached.scores(v.data(), ScoreStat::cosine) == one);
  std::vector<double> c(d);
  for (std::size_t j : {0u, 20u, 36u}) {
    set.get(j, c.data());
    long double dot = 0;
    for (std::size_t i = 0; i < d; ++i) dot += (long double)c[i] * v[i];
    CHECK(one[j] == doctest::Approx(double(dot) / norm(v)).epsilon(1e-12));
    CHECK(CanaryScorer(set, 2).scores(v.data(), ScoreStat::dot)[j] ==
          doctest::Approx(double(dot)).epsilon(1e-12));
  }
}

TEST_CASE(
    "sphere scores: the definition written out in LaneSum's order, bit for bit, for any group and "
    "chunk") {
  // 6 canaries (a group of 4 and one of 2) of dimension 9,003 (chunks of 4,096, 4,096 and 811,
  // whose last 3 entries are a partial lane row): the scorer's sums, side by side in groups
  // where the CPU has AVX-512 and one by one elsewhere, must be the plain sums of the raw
  // entries with v, and of their squares, in LaneSum's lanes.
  const std::size_t k = 6, d = 9003;
  const CanarySet set = CanarySet::from_spec(sphere_spec(13, k, d));
  std::vector<double> v(d);
  PhiloxStream(98, 0).fill_normal(v.data(), d);
  LaneSum v2;
  v2.add_squares(v.data(), d);
  const double v_norm = std::sqrt(v2.total());
  const std::vector<double> cos = CanaryScorer(set, 1).scores(v.data(), ScoreStat::cosine);
  const std::vector<double> dots = CanaryScorer(set, 2).scores(v.data(), ScoreStat::dot);
  const std::vector<double> cached =
      CanaryScorer(set, 1, k * d * sizeof(double)).scores(v.data(), ScoreStat::cosine);
  std::vector<double> raw(d);
  for (std::size_t j = 0; j < k; ++j) {
    set.raw(j, 0, d, raw.data());
    LaneSum dot, norm2;
    dot.add_products(raw.data(), v.data(), d);
    norm2.add_squares(raw.data(), d);
    const double raw_norm = std::sqrt(norm2.total());
    CHECK(cos[j] == dot.total() / raw_norm / v_norm);
    CHECK(dots[j] == dot.total() / raw_norm);
    CHECK(cached[j] == cos[j]);
  }
}

TEST_CASE_FIXTURE(
    SphereProblem,
    "f32 storage: u_j = fl32(c_j / ||c_j||) summed in LaneSum's order, within 2^-24") {
  const std::vector<double> f64 = CanaryScorer(set, 1).scores(v.data(), ScoreStat::cosine);
  const CanaryScorer cached(set, 2, k * d * sizeof(float), CanaryStorage::f32);
  CHECK(cached.cached());
  CHECK_FALSE(CanaryScorer(set, 2, k * d * sizeof(float) - 1, CanaryStorage::f32).cached());
  const std::vector<double> f32 = cached.scores(v.data(), ScoreStat::cosine);
  // The same bits with any threads, cached or regenerated.
  CHECK(CanaryScorer(set, 1, 0, CanaryStorage::f32).scores(v.data(), ScoreStat::cosine) == f32);
  CHECK(CanaryScorer(set, 3, 0, CanaryStorage::f32).scores(v.data(), ScoreStat::cosine) == f32);
  LaneSum v2;
  v2.add_squares(v.data(), d);
  const double v_norm = std::sqrt(v2.total());
  double largest = 0;
  std::vector<double> c(d), u(d);
  for (std::size_t j = 0; j < k; ++j) {
    // The definition, written out: u_j widened to double, LaneSum's order.
    set.get(j, c.data());
    LaneSum c2, dot;
    c2.add_squares(c.data(), d);
    const double c_norm = std::sqrt(c2.total());
    for (std::size_t i = 0; i < d; ++i) u[i] = double(float(c[i] * (1 / c_norm)));
    dot.add_products(u.data(), v.data(), d);
    CHECK(f32[j] == dot.total() / v_norm);
    CHECK(CanaryScorer(set, 2, 0, CanaryStorage::f32).scores(v.data(), ScoreStat::dot)[j] ==
          dot.total() * c_norm);
    // The analytic bound (canary_scores.hpp): 2^-24 plus the sums' rounding (1e-15 here).
    CHECK(std::abs(f32[j] - f64[j]) <= std::ldexp(1, -24) + 1e-15);
    largest = std::max(largest, std::abs(f32[j] - f64[j]));
  }
  // Rounding to float does move the cosines (by about 2^-24 / sqrt(d) = 6e-10 each).
  CHECK(largest > 1e-11);
}

TEST_CASE("f32 storage: dummy canaries of any clip, and a zero canary refused") {
  CanarySpec s;
  s.kind = CanaryKind::dummy;
  s.count = 2;
  s.dim = 100;
  s.clip = kMaxCanaryClip;  // entries of 1e153 overflow a float: stored as the unit vector
  std::vector<double> ones(100, 1.0), e1(100, 0.0);
  e1[0] = 5;
  const CanarySet set = CanarySet::from_spec(s);
  const CanaryScorer big(set, 1, 1000, CanaryStorage::f32);
  CHECK(big.cached());
  // u has entries fl32(0.1) = 0.1 (1 + 1.49e-8): cosines within 2^-24 of the exact 1 and 0.1.
  CHECK(std::abs(big.scores(ones.data(), ScoreStat::cosine)[0] - 1) <= std::ldexp(1, -24));
  CHECK(big.scores(e1.data(), ScoreStat::cosine)[1] == 5 * double(0.1f) / 5);
  CHECK(big.scores(e1.data(), ScoreStat::dot)[1] ==
        doctest::Approx(5 * double(0.1f) * kMaxCanaryClip).epsilon(1e-14));
  const std::string npy = "test_canary_f32_zero.npy";
  std::vector<double> rows(2 * 3, 1.0);
  rows[3] = rows[4] = rows[5] = 0;
  save_npy(npy, rows.data(), {2, 3});
  const CanarySet zero = CanarySet::open(npy);
  std::vector<double> v{1, 2, 3};
  for (std::size_t cache : {0u, 100u})
    CHECK_THROWS_WITH_AS(
        CanaryScorer(zero, 1, cache, CanaryStorage::f32).scores(v.data(), ScoreStat::cosine),
        "canary 1 is the zero vector (test_canary_f32_zero.npy)", DataError);
  std::remove(npy.c_str());
}

TEST_CASE(
    "cosines of sphere canaries with a fixed vector have mean 0 and variance 1/d (Andrew et al. "
    "2024, Thm 3.1)") {
  const std::size_t k = 4000, d = 500;
  const CanarySet set = CanarySet::from_spec(sphere_spec(2, k, d));
  std::vector<double> v(d, 0.0);
  v[3] = 1;
  const std::vector<double> cos = CanaryScorer(set, 2).scores(v.data(), ScoreStat::cosine);
  const double mean = std::accumulate(cos.begin(), cos.end(), 0.0) / k;
  double var = 0;
  for (double x : cos) var += x * x;
  var /= k;
  // sd of the mean: 1/sqrt(k d); sd of the mean square: sqrt(2/(k)) / d (approximately Gaussian)
  CHECK(std::abs(mean) < 4 / std::sqrt(double(k * d)));
  CHECK(std::abs(var * d - 1) < 4 * std::sqrt(2.0 / k));
}

TEST_CASE("round reductions: max and mean over rounds") {
  RoundReduction max(RoundReduce::max, 2), mean(RoundReduce::mean, 2);
  for (const std::vector<double>& r : {std::vector<double>{0.1, -0.5}, {0.3, -0.7}, {-0.2, -0.6}}) {
    max.add(r);
    mean.add(r);
  }
  CHECK(max.result() == std::vector<double>{0.3, -0.5});
  CHECK(mean.result()[0] == doctest::Approx(0.2 / 3));
  CHECK(mean.result()[1] == doctest::Approx(-0.6));
  CHECK(mean.rounds() == 3);
  CHECK_THROWS_AS(parse_round_reduce("median"), UsageError);
  CHECK_THROWS_AS(parse_score_stat("l2"), UsageError);
}
