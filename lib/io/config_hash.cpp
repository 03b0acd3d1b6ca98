#include "io/config_hash.hpp"

#include <fmt/format.h>

namespace dpaudit {

std::uint64_t fnv1a_64(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string canonical_config(Json config) {
  config.erase("seed");
  config.erase("trial_range");
  return config.dump();
}

std::string config_hash(const Json& config) {
  return fmt::format("{:016x}", fnv1a_64(canonical_config(config)));
}

}  // namespace dpaudit
