#include <doctest/doctest.h>

#include "io/config_hash.hpp"

using namespace dpaudit;

// FNV-1a 64's published test vectors (Fowler, Noll & Vo's reference test suite, fnv-test.c).
TEST_CASE("FNV-1a 64: the reference test vectors") {
  CHECK(fnv1a_64("") == 0xcbf29ce484222325ULL);
  CHECK(fnv1a_64("a") == 0xaf63dc4c8601ec8cULL);
  CHECK(fnv1a_64("foobar") == 0x85944171f73967e8ULL);
}

// A fixed configuration's canonical JSON and hash. The expected values are Python's, an
// independent serialization of the same object:
//   c = {"eps": 4, "nested": {"b": 1, "a": "x"}, "q": 0.1, "threat": "api", "trials": 300}
//   s = json.dumps(c, sort_keys=True, separators=(",", ":"))
//   h = 0xcbf29ce484222325; for b in s.encode(): h = ((h ^ b) * 0x100000001b3) % 2**64
// A change to the serialization changes these: shards made before and after would no longer
// merge, so it must be deliberate.
TEST_CASE("config hash: the canonical JSON without seed and trial_range, and its FNV-1a") {
  const Json config = {{"threat", "api"},
                       {"trials", 300},
                       {"q", 0.1},
                       {"eps", 4},
                       {"seed", 7},
                       {"trial_range", {0, 100}},
                       {"nested", {{"b", 1}, {"a", "x"}}}};
  CHECK(canonical_config(config) ==
        R"({"eps":4,"nested":{"a":"x","b":1},"q":0.1,"threat":"api","trials":300})");
  CHECK(config_hash(config) == "a97ff75d8e83ec7a");
  // The seed and the range do not enter it; any other key does.
  Json other_shard = config;
  other_shard["seed"] = 8;
  other_shard["trial_range"] = {100, 200};
  CHECK(config_hash(other_shard) == "a97ff75d8e83ec7a");
  Json other_run = config;
  other_run["trials"] = 301;
  CHECK(config_hash(other_run) != "a97ff75d8e83ec7a");
  CHECK(config_hash(Json::object()) == "08f44b07b5901a25");  // fnv1a_64("{}")
}
