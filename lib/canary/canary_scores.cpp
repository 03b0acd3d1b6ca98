#include "canary/canary_scores.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "canary/cuda/cuda_canary_sums.hpp"
#include "canary/f32_rows.hpp"
#include "canary/lane_sum.hpp"
#include "core/error.hpp"
#include "core/names.hpp"
#include "core/parallel.hpp"
#include "core/x86_simd.hpp"

namespace dpaudit {

namespace {
constexpr std::size_t kChunk = 4096;  // entries per chunk; a multiple of LaneSum's 8 lanes

#ifdef DPAUDIT_X86_SIMD
DPAUDIT_AVX512_CODE_BEGIN
// For kRows rows side by side, with AVX-512F: dots[g].add_products(rows[g], v, n) and
// norms[g].add_squares(rows[g], n), each lane's additions in the same order (the same bits;
// no fused multiply-add), a row's eight lanes in one register. One sum alone waits on each
// of its additions; here the 2 kRows chains overlap.
template <std::size_t kRows>
DPAUDIT_TARGET("avx512f")
void add_rows_avx512(const double* const* rows, const double* v, std::size_t n, LaneSum* dots,
                     LaneSum* norms) {
  __m512d p[kRows], q[kRows];
  for (std::size_t g = 0; g < kRows; ++g) {
    p[g] = _mm512_loadu_pd(dots[g].lanes());
    q[g] = _mm512_loadu_pd(norms[g].lanes());
  }
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m512d b = _mm512_loadu_pd(v + i);
    for (std::size_t g = 0; g < kRows; ++g) {
      const __m512d x = _mm512_loadu_pd(rows[g] + i);
      p[g] = _mm512_add_pd(p[g], _mm512_mul_pd(x, b));
      q[g] = _mm512_add_pd(q[g], _mm512_mul_pd(x, x));
    }
  }
  for (std::size_t g = 0; g < kRows; ++g) {
    _mm512_storeu_pd(dots[g].lanes(), p[g]);
    _mm512_storeu_pd(norms[g].lanes(), q[g]);
    dots[g].add_products(rows[g] + i, v + i, n - i);  // the last few entries, as LaneSum adds them
    norms[g].add_squares(rows[g] + i, n - i);
  }
}
DPAUDIT_AVX512_CODE_END

// add_rows_avx512 for 1 to 4 rows; false where the CPU lacks AVX-512F.
bool add_rows_fast(const double* const* rows, std::size_t count, const double* v, std::size_t n,
                   LaneSum* dots, LaneSum* norms) {
  static const bool avx512 = DPAUDIT_CPU_SUPPORTS("avx512f");
  if (!avx512) return false;
  switch (count) {
    case 1:
      add_rows_avx512<1>(rows, v, n, dots, norms);
      break;
    case 2:
      add_rows_avx512<2>(rows, v, n, dots, norms);
      break;
    case 3:
      add_rows_avx512<3>(rows, v, n, dots, norms);
      break;
    default:
      add_rows_avx512<4>(rows, v, n, dots, norms);
  }
  return true;
}
#else
bool add_rows_fast(const double* const*, std::size_t, const double*, std::size_t, LaneSum*,
                   LaneSum*) {
  return false;
}
#endif
}  // namespace

ScoreStat parse_score_stat(const std::string& name) {
  static constexpr Named<ScoreStat> kStats[] = {{"cosine", ScoreStat::cosine},
                                                {"dot", ScoreStat::dot}};
  return parse_named(kStats, name, "statistic", "{stat}");
}

ScoreDevice parse_score_device(const std::string& name) {
  static constexpr Named<ScoreDevice> kDevices[] = {{"cpu", ScoreDevice::cpu},
                                                    {"cuda", ScoreDevice::cuda}};
  return parse_named(kDevices, name, "device", "{device}");
}

CanaryScorer::CanaryScorer(const CanarySet& set, int threads, std::size_t cache_bytes,
                           CanaryStorage storage, ScoreDevice device)
    : set_(set), threads_(threads), storage_(storage) {
  if (device == ScoreDevice::cuda) {
    if (!CudaCanarySums::built()) throw UsageError(CudaCanarySums::kNotBuilt);
    const CanarySpec* spec = set.spec();
    if (spec && spec->kind == CanaryKind::sphere && storage == CanaryStorage::f64) {
      cuda_ = std::make_shared<const CudaCanarySums>(spec->seed, spec->first_index, spec->count,
                                                     spec->dim, threads);
      return;
    }
  }
  const bool f32 = storage == CanaryStorage::f32;
  const double bytes =
      double(set.count()) * double(set.dim()) * double(f32 ? sizeof(float) : sizeof(double));
  if (bytes > double(cache_bytes)) return;
  const std::size_t d = set.dim();
  if (f32) {
    cache32_.resize(set.count() * d);
    norms32_.resize(set.count());
  } else {
    cache_.resize(set.count() * d);
  }
  parallel_blocks(set.count(), threads_, [&](std::size_t begin, std::size_t end, std::size_t) {
    std::vector<double> row(f32 ? d : 0);
    for (std::size_t j = begin; j < end; ++j) {
      if (f32) {
        norms32_[j] = unit_row(j, row.data(), cache32_.data() + j * d);
      } else {
        set_.raw(j, 0, d, cache_.data() + j * d);
      }
    }
  });
}

double CanaryScorer::unit_row(std::size_t j, double* row, float* out) const {
  const std::size_t d = set_.dim();
  set_.get(j, row);
  LaneSum norm2;
  norm2.add_squares(row, d);
  const double norm = std::sqrt(norm2.total());
  const double scale = norm > 0 ? 1 / norm : 0;
  for (std::size_t i = 0; i < d; ++i) out[i] = static_cast<float>(row[i] * scale);
  return norm;
}

void CanaryScorer::f32_sums(const double* v, std::vector<double>& dots,
                            std::vector<double>& norms) const {
  const std::size_t d = set_.dim();
  dots.resize(set_.count());
  if (!cache32_.empty()) {
    norms = norms32_;
    parallel_blocks(set_.count(), threads_, [&](std::size_t begin, std::size_t end, std::size_t) {
      f32_row_dots(cache32_.data() + begin * d, end - begin, d, v, dots.data() + begin);
    });
    return;
  }
  norms.resize(set_.count());
  parallel_blocks(set_.count(), threads_, [&](std::size_t begin, std::size_t end, std::size_t) {
    std::vector<double> row(d);
    std::vector<float> unit(d);
    for (std::size_t j = begin; j < end; ++j) {
      norms[j] = unit_row(j, row.data(), unit.data());
      f32_row_dots(unit.data(), 1, d, v, dots.data() + j);
    }
  });
}

void CanaryScorer::group_sums(std::size_t first, std::size_t n, const double* v, double* buffer,
                              double* dot, double* norm2) const {
  static_assert(kGroup == 4, "add_rows_fast takes 1 to 4 rows");
  LaneSum dots[kGroup], norms[kGroup];
  const std::size_t d = set_.dim();
  for (std::size_t begin = 0; begin < d; begin += kChunk) {
    const std::size_t len = std::min(kChunk, d - begin);
    const double* rows[kGroup];
    for (std::size_t g = 0; g < n; ++g) {
      if (cached()) {
        rows[g] = cache_.data() + (first + g) * d + begin;
      } else {
        set_.raw(first + g, begin, len, buffer + g * kChunk);
        rows[g] = buffer + g * kChunk;
      }
    }
    if (add_rows_fast(rows, n, v + begin, len, dots, norms)) continue;
    for (std::size_t g = 0; g < n; ++g) {
      dots[g].add_products(rows[g], v + begin, len);
      norms[g].add_squares(rows[g], len);
    }
  }
  for (std::size_t g = 0; g < n; ++g) {
    dot[g] = dots[g].total();
    norm2[g] = norms[g].total();
  }
}

std::vector<double> CanaryScorer::scores(const double* v, ScoreStat stat,
                                         const std::string& where) const {
  double v_norm = 0;
  if (stat == ScoreStat::cosine) {
    LaneSum v2;
    v2.add_squares(v, set_.dim());
    v_norm = std::sqrt(v2.total());
    if (v_norm == 0) throw DataError("the cosine with a zero vector is undefined", where);
  }
  if (storage_ == CanaryStorage::f32) {
    std::vector<double> out, norms;
    f32_sums(v, out, norms);
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (norms[j] == 0)
        throw DataError("canary " + std::to_string(j) + " is the zero vector", set_.source());
      out[j] = stat == ScoreStat::cosine ? out[j] / v_norm : out[j] * norms[j];
    }
    return out;
  }
  const std::size_t count = set_.count();
  std::vector<double> dot(count), norm2(count);
  if (cuda_) {
    cuda_->sums(v, dot.data(), norm2.data());
  } else {
    parallel_blocks(count, threads_, [&](std::size_t begin, std::size_t end, std::size_t) {
      std::vector<double> buffer(cached() ? 0 : kGroup * kChunk);
      for (std::size_t first = begin; first < end; first += kGroup)
        group_sums(first, std::min(kGroup, end - first), v, buffer.data(), dot.data() + first,
                   norm2.data() + first);
    });
  }
  std::vector<double> out(count);
  for (std::size_t j = 0; j < count; ++j) {
    if (norm2[j] == 0)
      throw DataError("canary " + std::to_string(j) + " is the zero vector", set_.source());
    const double raw_norm = std::sqrt(norm2[j]);
    if (stat == ScoreStat::cosine) {
      out[j] = dot[j] / raw_norm / v_norm;
    } else {
      out[j] = set_.raw_needs_normalising() ? dot[j] / raw_norm : dot[j];
    }
  }
  return out;
}

RoundReduce parse_round_reduce(const std::string& name) {
  static constexpr Named<RoundReduce> kReductions[] = {{"max", RoundReduce::max},
                                                       {"mean", RoundReduce::mean}};
  return parse_named(kReductions, name, "reduction", "{reduce}");
}

RoundReduction::RoundReduction(RoundReduce how, std::size_t count)
    : how_(how),
      acc_(count, how == RoundReduce::max ? -std::numeric_limits<double>::infinity() : 0.0) {}

void RoundReduction::add(const std::vector<double>& round_scores) {
  for (std::size_t j = 0; j < acc_.size(); ++j)
    acc_[j] =
        how_ == RoundReduce::max ? std::max(acc_[j], round_scores[j]) : acc_[j] + round_scores[j];
  ++rounds_;
}

std::vector<double> RoundReduction::result() const {
  if (how_ == RoundReduce::max) return acc_;
  std::vector<double> mean(acc_);
  for (double& m : mean) m /= double(rounds_);
  return mean;
}

}  // namespace dpaudit
