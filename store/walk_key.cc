#include "store/walk_key.h"

#include <cmath>
#include <limits>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "nav/query/snap.h"

namespace walk::store {
namespace {

// Signed values are stored offset by 2^31 (the sign bit flipped), so that big-endian bytes sort
// as the signed values do.
constexpr std::uint32_t kSignFlip = 0x80000000u;

void PutU32(std::uint32_t value, char* out) {
  out[0] = static_cast<char>(value >> 24);
  out[1] = static_cast<char>(value >> 16);
  out[2] = static_cast<char>(value >> 8);
  out[3] = static_cast<char>(value);
}

void PutU64(std::uint64_t value, char* out) {
  PutU32(static_cast<std::uint32_t>(value >> 32), out);
  PutU32(static_cast<std::uint32_t>(value), out + 4);
}

std::uint32_t GetU32(const char* in) {
  const auto* b = reinterpret_cast<const unsigned char*>(in);
  return (std::uint32_t{b[0]} << 24) | (std::uint32_t{b[1]} << 16) | (std::uint32_t{b[2]} << 8) |
         std::uint32_t{b[3]};
}

std::uint64_t GetU64(const char* in) { return (std::uint64_t{GetU32(in)} << 32) | GetU32(in + 4); }

std::int32_t GetSigned(const char* in) { return static_cast<std::int32_t>(GetU32(in) ^ kSignFlip); }

// continent u32 | x i32 | y i32 | has_z u8 | z i32 | surface u32: 21 bytes.
void PutEnd(const EndKey& end, char* out) {
  PutU32(end.continent, out);
  PutU32(static_cast<std::uint32_t>(end.x_decis) ^ kSignFlip, out + 4);
  PutU32(static_cast<std::uint32_t>(end.y_decis) ^ kSignFlip, out + 8);
  out[12] = end.has_z ? 1 : 0;
  PutU32(static_cast<std::uint32_t>(end.has_z ? end.z_decis : 0) ^ kSignFlip, out + 13);
  PutU32(end.surface, out + 17);
}

absl::Status GetEnd(const char* in, const char* which, EndKey* end) {
  end->continent = GetU32(in);
  end->x_decis = GetSigned(in + 4);
  end->y_decis = GetSigned(in + 8);
  const auto flag = static_cast<unsigned char>(in[12]);
  if (flag > 1) {
    return absl::DataLossError(
        absl::StrCat("walk key: the ", which, " end's height flag is ", flag, ", not 0 or 1"));
  }
  end->has_z = flag == 1;
  end->z_decis = GetSigned(in + 13);
  if (!end->has_z && end->z_decis != 0) {
    return absl::DataLossError(absl::StrCat(
        "walk key: the ", which, " end has no height but a height of ", end->z_decis, " decis"));
  }
  end->surface = GetU32(in + 17);
  return absl::OkStatus();
}

}  // namespace

std::int32_t QuantizeDecis(double value) {
  const double tenths = value * 10.0;
  if (std::isnan(tenths)) return 0;
  constexpr double kMax = std::numeric_limits<std::int32_t>::max();
  constexpr double kMin = std::numeric_limits<std::int32_t>::min();
  if (tenths >= kMax) return std::numeric_limits<std::int32_t>::max();
  if (tenths <= kMin) return std::numeric_limits<std::int32_t>::min();
  return static_cast<std::int32_t>(std::llround(tenths));  // half away from zero
}

EndKey MakeEndKey(const nav::Place& place, nav::SurfaceId surface) {
  EndKey end;
  end.continent = place.continent;
  end.x_decis = QuantizeDecis(place.x_yards);
  end.y_decis = QuantizeDecis(place.y_yards);
  end.has_z = place.z_yards.has_value();
  end.z_decis = end.has_z ? QuantizeDecis(*place.z_yards) : 0;
  end.surface = surface;
  return end;
}

WalkKey MakeWalkKey(std::uint64_t model, const nav::World& world, const nav::Place& from,
                    const nav::Place& to) {
  const auto end_of = [&](const nav::Place& place) {
    nav::SurfaceId surface = nav::kInvalidId;
    if (const nav::Continent* c = world.FindContinent(place.continent); c != nullptr) {
      const nav::Snap snap = nav::SnapPlace(*c, world.FrameOf(*c), place);
      if (snap.status == nav::WalkStatus::kOk) surface = snap.end.surface;
    }
    return MakeEndKey(place, surface);
  };
  WalkKey key;
  key.model = model;
  key.from = end_of(from);
  key.to = end_of(to);
  return key;
}

void EncodeWalkKeyTo(const WalkKey& key, char* out) {
  PutU64(key.model, out);
  PutEnd(key.from, out + kModelPrefixBytes);
  PutEnd(key.to, out + kModelPrefixBytes + kEndKeyBytes);
}

std::string EncodeWalkKey(const WalkKey& key) {
  std::string bytes(kWalkKeyBytes, '\0');
  EncodeWalkKeyTo(key, bytes.data());
  return bytes;
}

std::string EncodeModelPrefix(std::uint64_t model) {
  std::string bytes(kModelPrefixBytes, '\0');
  PutU64(model, bytes.data());
  return bytes;
}

absl::StatusOr<WalkKey> DecodeWalkKey(absl::string_view bytes) {
  if (bytes.size() != kWalkKeyBytes) {
    return absl::DataLossError(
        absl::StrCat("walk key: ", bytes.size(), " bytes, expected ", kWalkKeyBytes));
  }
  WalkKey key;
  key.model = GetU64(bytes.data());
  if (absl::Status s = GetEnd(bytes.data() + kModelPrefixBytes, "from", &key.from); !s.ok()) {
    return s;
  }
  if (absl::Status s = GetEnd(bytes.data() + kModelPrefixBytes + kEndKeyBytes, "to", &key.to);
      !s.ok()) {
    return s;
  }
  return key;
}

std::uint64_t DecodeModelPrefix(absl::string_view bytes) { return GetU64(bytes.data()); }

}  // namespace walk::store
