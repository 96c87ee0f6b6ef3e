// The walk store's key: the model hash, then both ends. An end is a place matched exactly
// (coordinates quantized to 0.1 unit) plus the surface it snapped to. The encoding is fixed width
// and big-endian, so RocksDB's bytewise order is the order of (model, from, to), and the first
// 8 bytes (the model) are the prefix the bloom filters and store packs work by.
// docs/store.md lays the bytes out.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nav/grid/grid.h"
#include "nav/grid/ids.h"
#include "nav/query/answer.h"

namespace walk::store {

// One end of a walk, as the store matches it.
struct EndKey {
  std::uint32_t continent = 0;
  std::int32_t x_decis = 0;  // x in tenths of a unit (yards), see QuantizeDecis
  std::int32_t y_decis = 0;
  bool has_z = false;                        // the place named its own height
  std::int32_t z_decis = 0;                  // the height in tenths of a yard when has_z, else 0
  nav::SurfaceId surface = nav::kInvalidId;  // the snapped surface; kInvalidId when none

  friend auto operator<=>(const EndKey&, const EndKey&) = default;
};

// A whole key: the model (store/model_hash.h) and the two ends, in the order walked.
struct WalkKey {
  std::uint64_t model = 0;
  EndKey from;
  EndKey to;

  // Orders as the encoded keys sort (model, then from, then to).
  friend auto operator<=>(const WalkKey&, const WalkKey&) = default;
};

// Bytes of an encoded end and of an encoded key; the model prefix's bytes.
inline constexpr std::size_t kEndKeyBytes = 21;
inline constexpr std::size_t kModelPrefixBytes = 8;
inline constexpr std::size_t kWalkKeyBytes = kModelPrefixBytes + 2 * kEndKeyBytes;  // 50

// `value` (yards) in tenths, rounded half away from zero (0.05 -> 1, -0.05 -> -1, 0.04 -> 0),
// as std::llround(value * 10) computes it on the double product. Values beyond the int32 range
// saturate and NaN gives 0; a validated place (nav::ValidatePlace) never comes near either.
std::int32_t QuantizeDecis(double value);

// The end of `place` snapped to `surface` (nav::kInvalidId when the place snapped to none: off
// the map, or on a column with no surface). `place` should be validated first.
EndKey MakeEndKey(const nav::Place& place, nav::SurfaceId surface);

// The key of the walk from `from` to `to` under `model` on `world`: each end is its place snapped
// as nav::AnswerWalk first snaps it (nav::SnapPlace: before any settling or second asking), with
// nav::kInvalidId for a place that snaps to no surface or names no continent of `world`. The
// places should have passed nav::ValidatePlace. Costs two column lookups: cheap enough to build
// before every store lookup.
WalkKey MakeWalkKey(std::uint64_t model, const nav::World& world, const nav::Place& from,
                    const nav::Place& to);

// Writes the kWalkKeyBytes bytes of `key` to `out` without allocating (the lookup path).
void EncodeWalkKeyTo(const WalkKey& key, char* out);
// The kWalkKeyBytes bytes of `key`.
std::string EncodeWalkKey(const WalkKey& key);
// The kModelPrefixBytes bytes every key of `model` starts with.
std::string EncodeModelPrefix(std::uint64_t model);

// Decodes an encoded key. DATA_LOSS, saying what is wrong, when `bytes` is not kWalkKeyBytes
// long or is not a key EncodeWalkKey could have written (a presence flag other than 0 or 1, a
// height without its flag).
absl::StatusOr<WalkKey> DecodeWalkKey(absl::string_view bytes);

// The model of an encoded key (its first 8 bytes); `bytes` must be at least 8 bytes long.
std::uint64_t DecodeModelPrefix(absl::string_view bytes);

}  // namespace walk::store
