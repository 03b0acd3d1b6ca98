// The hash a shard carries of the configuration that made it (io/shard_stamp.hpp): shards
// with the same hash were made by the same configuration, so their trials belong to one run.
//
// Definition: FNV-1a with 64 bits (Fowler, Noll & Vo: offset basis 0xcbf29ce484222325,
// prime 0x100000001b3, one byte at a time) of the configuration's canonical JSON, printed as
// 16 lower-case hexadecimal digits. The canonical JSON is nlohmann's compact dump() of the
// object: keys in byte order at every level, no whitespace, integers as integers, other
// numbers in their shortest round-trip form, strings UTF-8 with JSON's escapes. The keys
// "seed" (carried beside the hash) and "trial_range" (what differs between shards) are left
// out at the top level. Not a cryptographic hash: it tells apart configurations by accident,
// not against an adversary.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "io/json.hpp"

namespace dpaudit {

// FNV-1a, 64 bits, of `bytes`.
std::uint64_t fnv1a_64(std::string_view bytes);

// The canonical JSON of `config` (an object) without "seed" and "trial_range".
std::string canonical_config(Json config);

// fnv1a_64 of canonical_config(config), as 16 lower-case hexadecimal digits.
std::string config_hash(const Json& config);

}  // namespace dpaudit
