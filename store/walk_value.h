// The walk store's value: the parts of a walk's answer that are kept (status, how it was found,
// seconds, yards, whether it took the second asking or is band 0's walk, the zone cells, and
// the zones of the ends walked). The ends' snap details,
// the path and the search counters are not kept: the key holds the ends, and a path is never
// stored. docs/store.md lays the bytes out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "nav/query/answer.h"

namespace walk::store {

// The first byte of every value. Bump it (and keep decoding the old one, or bump
// kWalkerAnswerVersion so old answers stop matching) whenever the layout changes.
inline constexpr std::uint8_t kWalkValueVersion = 2;

struct StoredWalk {
  nav::WalkStatus status = nav::WalkStatus::kNoWalk;
  nav::Method method = nav::Method::kTrivial;
  double seconds = 0.0;                   // cost at the profile's pace; set when kOk
  double yards = 0.0;                     // walked yards; set when kOk
  bool retried = false;                   // found only at the columns' usual floors
  bool from_band_zero = false;            // band 0's walk, which this band prices alike
  std::vector<nav::ZoneCell> zone_cells;  // sorted by cell, then zone
  std::uint16_t from_zone = 0;            // the zones of the ends walked (danger exempts them)
  std::uint16_t to_zone = 0;
};

// Field by field, doubles compared exactly (a stored answer is the computed one, bit for bit).
bool operator==(const StoredWalk& a, const StoredWalk& b);

// What a batch answer says of a walk (StoredWalk without its zone cells).
struct WalkOutcome {
  nav::WalkStatus status = nav::WalkStatus::kNoWalk;
  nav::Method method = nav::Method::kTrivial;
  bool from_band_zero = false;  // here, in the padding: the answer cache holds millions
  double seconds = 0.0;
  double yards = 0.0;
};

// What a batch answer in columns says of `stored` (store/answer_cache.h).
WalkOutcome OutcomeOf(const StoredWalk& stored);

// The stored parts of `answer`.
StoredWalk FromAnswer(const nav::WalkAnswer& answer);
// An answer holding what `stored` holds: no ends, no path, zero search counters.
nav::WalkAnswer ToAnswer(const StoredWalk& stored);
// As above, moving the zone cells out of `stored`.
nav::WalkAnswer ToAnswer(StoredWalk&& stored);

// Appends the encoding of `walk` to `*out` (which it does not clear).
void AppendWalkValue(const StoredWalk& walk, std::string* out);
// The encoding of `walk`.
std::string EncodeWalkValue(const StoredWalk& walk);

// Decodes `bytes` into `*out` (reusing its zone cells' capacity); a version 1 value (no ends'
// zones) reads with zones 0. DATA_LOSS naming what is
// wrong: an unknown version, status or method, unknown flag bits, a cut-off or overlong field,
// or bytes left over. `*out` is unspecified after an error.
absl::Status DecodeWalkValue(absl::string_view bytes, StoredWalk* out);

}  // namespace walk::store
