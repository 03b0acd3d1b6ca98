#include "canary/canary_spec.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "canary/lane_sum.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/names.hpp"
#include "io/json.hpp"
#include "random/philox_stream.hpp"

namespace dpaudit {

namespace {

std::string read_text(const std::string& path) {
  if (path == "-" || path.empty()) {
    return std::string(std::istreambuf_iterator<char>(std::cin), {});
  }
  std::error_code ec;  // a folder opens, then throws a message without the path on reading
  if (std::filesystem::is_directory(path, ec))
    throw DataError("is a directory, not a canary spec", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw DataError("cannot open canary spec", path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string field_where(const std::string& where, const std::string& field) {
  return where + ", field " + cut_input(field);
}

std::uint64_t unsigned_field(const Json& j, const std::string& name, const std::string& where) {
  const Json& v = j.at(name);
  if (!v.is_number_unsigned())
    throw DataError("expected a non-negative integer", field_where(where, name));
  return v.get<std::uint64_t>();
}

constexpr Named<CanaryKind> kKinds[] = {{"sphere", CanaryKind::sphere},
                                        {"dummy", CanaryKind::dummy}};

}  // namespace

CanaryKind parse_canary_kind(const std::string& name) {
  return parse_named(kKinds, name, "canary kind", "{kind}");
}
std::string canary_kind_name(CanaryKind kind) {
  return name_of(kKinds, kind);
}

void validate_canary_spec(const CanarySpec& spec, const std::string& where) {
  if (spec.count == 0) throw DataError("canary count is 0", field_where(where, "count"));
  if (spec.dim == 0) throw DataError("canary dimension is 0", field_where(where, "dim"));
  if (spec.count > kMaxCanaryCount)
    throw DataError(fmt::format("canary count {} is too large (at most 2^32)", spec.count),
                    field_where(where, "count"));
  if (spec.dim > kMaxCanaryDim)
    throw DataError(fmt::format("canary dimension {} is too large (at most 2^40)", spec.dim),
                    field_where(where, "dim"));
  if (spec.dim > kMaxCanaryEntries / spec.count)  // count x dim could wrap
    throw DataError(
        fmt::format("count {} x dim {} is too many entries to regenerate (at most 2^50)",
                    spec.count, spec.dim),
        where + ", fields count and dim");
  if (spec.first_index >
      std::numeric_limits<std::uint64_t>::max() - (spec.count - 1))  // streams would wrap to 0
    throw DataError("first_index + count - 1 exceeds 2^64 - 1", field_where(where, "first_index"));
  if (!(spec.clip > 0) || !std::isfinite(spec.clip))
    throw DataError("clip must be a positive finite number", field_where(where, "clip"));
  if (spec.clip > kMaxCanaryClip)
    throw DataError(
        fmt::format(
            "clip {} is too large (at most 1e154: the canary's squared norm would overflow)",
            spec.clip),
        field_where(where, "clip"));
}

CanarySpec parse_canary_spec(const std::string& text, const std::string& where) {
  // The parser's callback sees each top-level key before its value: a number beyond
  // double's range (an exception inside the parser) is reported with its key, and a
  // key given twice (nlohmann keeps the last silently) is an error.
  std::string key;
  std::vector<std::string> keys;
  const Json::parser_callback_t track_keys = [&](int depth, Json::parse_event_t event,
                                                 Json& parsed) {
    if (depth != 1 || event != Json::parse_event_t::key) return true;
    key = parsed.get<std::string>();
    if (std::find(keys.begin(), keys.end(), key) != keys.end())
      throw DataError("field given twice", field_where(where, key));
    keys.push_back(key);
    return true;
  };
  Json j;
  try {
    j = Json::parse(text, track_keys);
  } catch (const Json::parse_error& e) {
    throw DataError("malformed JSON at byte " + std::to_string(e.byte), where);
  } catch (const Json::out_of_range&) {
    throw DataError("number out of range", key.empty() ? where : field_where(where, key));
  }
  if (!j.is_object()) throw DataError("a canary spec must be a JSON object", where);
  for (const char* required : {"kind", "count", "dim"})
    if (!j.contains(required)) throw DataError("missing field", field_where(where, required));
  for (const auto& item : j.items()) {
    static const char* known[] = {"kind", "seed", "count", "dim", "first_index", "clip", "flip"};
    if (std::find(std::begin(known), std::end(known), item.key()) == std::end(known))
      throw DataError("unknown field", field_where(where, item.key()));
  }
  CanarySpec spec;
  if (!j["kind"].is_string()) throw DataError("expected a string", field_where(where, "kind"));
  const std::string kind = j["kind"].get<std::string>();
  const CanaryKind* known_kind = find_named(kKinds, kind);
  if (!known_kind)
    throw DataError("unknown canary kind " + quote_input(kind) + " (" + name_list(kKinds) + ")",
                    field_where(where, "kind"));
  spec.kind = *known_kind;
  if (spec.kind == CanaryKind::sphere && !j.contains("seed"))
    throw DataError("missing field", field_where(where, "seed"));
  // clip and flip shape a dummy canary; a sphere canary is a unit vector, so they would be
  // ignored there and lost on the way back to JSON: refused instead.
  for (const char* dummy_only : {"clip", "flip"})
    if (spec.kind == CanaryKind::sphere && j.contains(dummy_only))
      throw DataError("applies to dummy canaries only", field_where(where, dummy_only));
  if (j.contains("seed")) spec.seed = unsigned_field(j, "seed", where);
  spec.count = unsigned_field(j, "count", where);
  spec.dim = unsigned_field(j, "dim", where);
  if (j.contains("first_index")) spec.first_index = unsigned_field(j, "first_index", where);
  if (j.contains("clip")) {
    if (!j["clip"].is_number()) throw DataError("expected a number", field_where(where, "clip"));
    spec.clip = j["clip"].get<double>();
  }
  if (j.contains("flip")) {
    if (!j["flip"].is_boolean())
      throw DataError("expected true or false", field_where(where, "flip"));
    spec.flip = j["flip"].get<bool>();
  }
  validate_canary_spec(spec, where);
  return spec;
}

CanarySpec read_canary_spec(const std::string& path) {
  return parse_canary_spec(read_text(path), path == "-" || path.empty() ? "stdin" : path);
}

std::string canary_spec_json(const CanarySpec& spec) {
  // Keys in the order of DESIGN.md (ordered_json keeps insertion order).
  nlohmann::ordered_json j;
  j["kind"] = canary_kind_name(spec.kind);
  j["seed"] = spec.seed;
  j["count"] = spec.count;
  j["dim"] = spec.dim;
  j["first_index"] = spec.first_index;
  if (spec.kind == CanaryKind::dummy) {
    j["clip"] = spec.clip;
    j["flip"] = spec.flip;
  }
  return j.dump();
}

CanarySpec sphere_spec(std::uint64_t seed, std::size_t count, std::size_t dim,
                       std::size_t first_index) {
  CanarySpec spec;
  spec.kind = CanaryKind::sphere;
  spec.seed = seed;
  spec.count = count;
  spec.dim = dim;
  spec.first_index = first_index;
  return spec;
}

bool raw_needs_normalising(const CanarySpec& spec) {
  return spec.kind == CanaryKind::sphere;
}

void generate_canary_raw(const CanarySpec& spec, std::size_t j, std::size_t begin, std::size_t len,
                         double* out) {
  if (spec.kind == CanaryKind::sphere) {
    PhiloxStream(spec.seed, spec.first_index + j, begin).fill_normal(out, len);
  } else {
    const double entry = spec.clip / std::sqrt(static_cast<double>(spec.dim));
    std::fill(out, out + len, spec.flip ? -entry : entry);
  }
}

void generate_canary(const CanarySpec& spec, std::size_t j, double* out) {
  generate_canary_raw(spec, j, 0, spec.dim, out);
  if (!raw_needs_normalising(spec)) return;
  LaneSum norm2;
  norm2.add_squares(out, spec.dim);
  const double scale = 1 / std::sqrt(norm2.total());
  for (std::size_t i = 0; i < spec.dim; ++i) out[i] *= scale;
}

}  // namespace dpaudit
