// The canary spec of DESIGN.md: a JSON object from which every canary is regenerated
// bit-identically anywhere, e.g. {"kind":"sphere","seed":7,"count":1000,"dim":101770,
// "first_index":0}.
//   sphere: canary j is uniform on the unit sphere S^{dim-1} (Andrew et al. 2024, Sec. 3, Alg. 1):
//   the
//           standard Gaussian vector of PhiloxStream(seed, first_index + j), normalised.
//   dummy:  Matsumoto et al. 2022's dummy gradient (Sec. 4.1, "Dummy gradient"): every entry
//           clip / sqrt(dim), so its norm is the clipping bound; "flip" negates it
//           (Matsumoto et al. 2022's g_2 = -g_1). All canaries of a dummy spec are this one vector.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace dpaudit {

enum class CanaryKind { sphere, dummy };

struct CanarySpec {
  CanaryKind kind = CanaryKind::sphere;
  std::uint64_t seed = 0;
  std::size_t count = 0;
  std::size_t dim = 0;
  std::size_t first_index = 0;
  double clip = 1;  // dummy: the norm of the canary
  bool flip = false;
};

// A sphere spec: `count` canaries of dimension `dim`, from streams first_index, first_index + 1,
// ... under key `seed` (not validated: validate_canary_spec does that).
CanarySpec sphere_spec(std::uint64_t seed, std::size_t count, std::size_t dim,
                       std::size_t first_index = 0);

CanaryKind parse_canary_kind(const std::string& name);  // UsageError for an unknown name
std::string canary_kind_name(CanaryKind kind);

// Limits of a spec, refused before any work starts. Every consumer keeps scores (and
// ids) per canary, so a count above 2^32 needs 100+ GiB for them alone; every canary is
// a dense vector of dim doubles, 8 TiB at 2^40 (a trillion parameters); and an audit
// regenerates count x dim normal numbers at least once, which at 2^50 (~1.1e15) is about
// two weeks of one core at 10^9 a second.
constexpr std::uint64_t kMaxCanaryCount = std::uint64_t{1} << 32;
constexpr std::uint64_t kMaxCanaryDim = std::uint64_t{1} << 40;
constexpr std::uint64_t kMaxCanaryEntries = std::uint64_t{1} << 50;
// A dummy canary's clip: its squared norm clip^2 must be a finite double (sqrt(DBL_MAX)
// is 1.34e154), or every cosine with it comes out 0.
constexpr double kMaxCanaryClip = 1e154;

// Reads and validates a spec ("-" is stdin). DataError naming the file and the field
// for malformed JSON, a missing, mistyped, repeated or out-of-range field, count or dim
// 0 or beyond the limits above, an unknown kind, a clip that is not a positive finite
// number or is above kMaxCanaryClip, a clip or flip in a sphere spec.
CanarySpec read_canary_spec(const std::string& path);
// The same for JSON text; `where` names its origin in errors.
CanarySpec parse_canary_spec(const std::string& text, const std::string& where);
// Throws DataError (with `where` and the field) unless 0 < count <= kMaxCanaryCount,
// 0 < dim <= kMaxCanaryDim, count x dim <= kMaxCanaryEntries, the streams first_index +
// j do not wrap, and 0 < clip <= kMaxCanaryClip.
void validate_canary_spec(const CanarySpec& spec, const std::string& where);

// One line of JSON (no newline); parse_canary_spec reads it back to the same spec.
std::string canary_spec_json(const CanarySpec& spec);

// Canary j (0 <= j < count), dim entries, into out.
void generate_canary(const CanarySpec& spec, std::size_t j, double* out);

// Entries [begin, begin + len) of canary j before normalisation: a sphere canary is
// raw / ||raw|| (raw being its Gaussian vector), a dummy canary is raw itself.
void generate_canary_raw(const CanarySpec& spec, std::size_t j, std::size_t begin, std::size_t len,
                         double* out);
bool raw_needs_normalising(const CanarySpec& spec);

}  // namespace dpaudit
