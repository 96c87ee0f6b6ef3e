#include "store/walk_value.h"

#include <bit>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"

namespace walk::store {
namespace {

// version u8 | status u8 | method u8 | flags u8 | seconds f64 | yards f64 = 20 bytes, then the
// zone cell count (varint) and per cell: x, y (zigzag varints), zone (varint), yards (f64);
// from version 2 on, then the zones of the ends walked (two varints).
constexpr std::size_t kFixedBytes = 20;
constexpr std::size_t kMinCellBytes = 1 + 1 + 1 + 8;
constexpr std::uint8_t kFlagRetried = 0x01;
constexpr std::uint8_t kFlagFromBandZero = 0x02;
constexpr std::uint8_t kKnownFlags = kFlagRetried | kFlagFromBandZero;
constexpr std::uint8_t kMaxStatus = static_cast<std::uint8_t>(nav::WalkStatus::kNoSurface);
constexpr std::uint8_t kMaxMethod = static_cast<std::uint8_t>(nav::kMethodCount - 1);

static_assert(std::endian::native == std::endian::little,
              "the value codec copies doubles as little-endian bytes");

void PutDouble(double value, std::string* out) {
  char bytes[8];
  std::memcpy(bytes, &value, 8);
  out->append(bytes, 8);
}

void PutVarint(std::uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// Small magnitudes of either sign to small unsigned values: 0, -1, 1, -2 -> 0, 1, 2, 3.
std::uint32_t ZigZag(std::int32_t value) {
  return (static_cast<std::uint32_t>(value) << 1) ^ static_cast<std::uint32_t>(value >> 31);
}

// Reads the value's bytes front to back; each Get fails (false) at the end of the bytes.
class Reader {
 public:
  explicit Reader(absl::string_view bytes) : bytes_(bytes) {}

  bool GetDouble(double* value) {
    if (bytes_.size() - pos_ < 8) return false;
    std::memcpy(value, bytes_.data() + pos_, 8);
    pos_ += 8;
    return true;
  }

  // A LEB128 varint of at most `max_bytes` (<= 9) bytes, in its shortest form (so that one
  // value has one encoding).
  bool GetVarint(std::uint64_t* value, int max_bytes) {
    std::uint64_t result = 0;
    for (int i = 0; i < max_bytes; ++i) {
      if (pos_ == bytes_.size()) return false;
      const auto byte = static_cast<unsigned char>(bytes_[pos_++]);
      result |= std::uint64_t{byte & 0x7Fu} << (7 * i);
      if ((byte & 0x80u) == 0) {
        if (byte == 0 && i > 0) return false;  // overlong
        *value = result;
        return true;
      }
    }
    return false;
  }

  std::size_t pos() const { return pos_; }
  std::size_t left() const { return bytes_.size() - pos_; }

 private:
  absl::string_view bytes_;
  std::size_t pos_ = 0;
};

absl::Status Malformed(const std::string& what) {
  return absl::DataLossError(absl::StrCat("walk value: ", what));
}

}  // namespace

bool operator==(const StoredWalk& a, const StoredWalk& b) {
  const auto same = [](double x, double y) {
    return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
  };
  if (a.status != b.status || a.method != b.method || !same(a.seconds, b.seconds) ||
      !same(a.yards, b.yards) || a.retried != b.retried || a.from_band_zero != b.from_band_zero ||
      a.from_zone != b.from_zone || a.to_zone != b.to_zone ||
      a.zone_cells.size() != b.zone_cells.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.zone_cells.size(); ++i) {
    const nav::ZoneCell& p = a.zone_cells[i];
    const nav::ZoneCell& q = b.zone_cells[i];
    if (p.cell_x != q.cell_x || p.cell_y != q.cell_y || p.zone != q.zone ||
        !same(p.yards, q.yards)) {
      return false;
    }
  }
  return true;
}

WalkOutcome OutcomeOf(const StoredWalk& stored) {
  return WalkOutcome{stored.status, stored.method, stored.from_band_zero, stored.seconds,
                     stored.yards};
}

StoredWalk FromAnswer(const nav::WalkAnswer& answer) {
  StoredWalk stored;
  stored.status = answer.status;
  stored.method = answer.method;
  stored.seconds = answer.seconds;
  stored.yards = answer.yards;
  stored.retried = answer.retried;
  stored.from_band_zero = answer.from_band_zero;
  stored.zone_cells = answer.zone_cells;
  stored.from_zone = answer.from_zone;
  stored.to_zone = answer.to_zone;
  return stored;
}

nav::WalkAnswer ToAnswer(StoredWalk&& stored) {
  nav::WalkAnswer answer;
  answer.status = stored.status;
  answer.method = stored.method;
  answer.seconds = stored.seconds;
  answer.yards = stored.yards;
  answer.retried = stored.retried;
  answer.from_band_zero = stored.from_band_zero;
  answer.zone_cells = std::move(stored.zone_cells);
  answer.from_zone = stored.from_zone;
  answer.to_zone = stored.to_zone;
  return answer;
}

nav::WalkAnswer ToAnswer(const StoredWalk& stored) { return ToAnswer(StoredWalk(stored)); }

void AppendWalkValue(const StoredWalk& walk, std::string* out) {
  out->push_back(static_cast<char>(kWalkValueVersion));
  out->push_back(static_cast<char>(walk.status));
  out->push_back(static_cast<char>(walk.method));
  out->push_back(static_cast<char>((walk.retried ? kFlagRetried : 0) |
                                   (walk.from_band_zero ? kFlagFromBandZero : 0)));
  PutDouble(walk.seconds, out);
  PutDouble(walk.yards, out);
  PutVarint(walk.zone_cells.size(), out);
  for (const nav::ZoneCell& cell : walk.zone_cells) {
    PutVarint(ZigZag(cell.cell_x), out);
    PutVarint(ZigZag(cell.cell_y), out);
    PutVarint(cell.zone, out);
    PutDouble(cell.yards, out);
  }
  PutVarint(walk.from_zone, out);
  PutVarint(walk.to_zone, out);
}

std::string EncodeWalkValue(const StoredWalk& walk) {
  std::string out;
  out.reserve(kFixedBytes + 1 + walk.zone_cells.size() * 16);
  AppendWalkValue(walk, &out);
  return out;
}

absl::Status DecodeWalkValue(absl::string_view bytes, StoredWalk* out) {
  if (bytes.size() < kFixedBytes + 1) {
    return Malformed(
        absl::StrCat(bytes.size(), " bytes, fewer than the ", kFixedBytes + 1, " every value has"));
  }
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(bytes[i]); };
  const std::uint8_t version = byte(0);
  if (version != 1 && version != kWalkValueVersion) {
    return Malformed(
        absl::StrCat("version ", byte(0), ", this walkd reads version ", kWalkValueVersion));
  }
  if (byte(1) > kMaxStatus) return Malformed(absl::StrCat("unknown status ", byte(1)));
  if (byte(2) > kMaxMethod) return Malformed(absl::StrCat("unknown method ", byte(2)));
  if ((byte(3) & ~kKnownFlags) != 0) {
    return Malformed(absl::StrCat("unknown flag bits 0x", absl::Hex(byte(3) & ~kKnownFlags)));
  }
  out->status = static_cast<nav::WalkStatus>(byte(1));
  out->method = static_cast<nav::Method>(byte(2));
  out->retried = (byte(3) & kFlagRetried) != 0;
  out->from_band_zero = (byte(3) & kFlagFromBandZero) != 0;
  out->from_zone = out->to_zone = 0;
  Reader reader(bytes.substr(4));
  reader.GetDouble(&out->seconds);  // both fit: the size was checked above
  reader.GetDouble(&out->yards);
  std::uint64_t count = 0;
  if (!reader.GetVarint(&count, 5)) return Malformed("the zone cell count is cut off or overlong");
  if (count > reader.left() / kMinCellBytes) {
    return Malformed(
        absl::StrCat(count, " zone cells cannot fit in the ", reader.left(), " bytes left"));
  }
  out->zone_cells.resize(count);
  for (std::uint64_t i = 0; i < count; ++i) {
    nav::ZoneCell& cell = out->zone_cells[i];
    std::uint64_t x = 0, y = 0, zone = 0;
    if (!reader.GetVarint(&x, 5) || !reader.GetVarint(&y, 5) || !reader.GetVarint(&zone, 3) ||
        !reader.GetDouble(&cell.yards)) {
      return Malformed(absl::StrCat("zone cell ", i, " of ", count, " is cut off or overlong"));
    }
    if (x > 0xFFFFFFFFu || y > 0xFFFFFFFFu) {
      return Malformed(absl::StrCat("zone cell ", i, ": a coordinate beyond 32 bits"));
    }
    if (zone > 0xFFFFu) return Malformed(absl::StrCat("zone cell ", i, ": zone ", zone));
    const auto unzig = [](std::uint64_t v) {
      const auto u = static_cast<std::uint32_t>(v);
      return static_cast<std::int32_t>((u >> 1) ^ (~(u & 1) + 1));
    };
    cell.cell_x = unzig(x);
    cell.cell_y = unzig(y);
    cell.zone = static_cast<std::uint16_t>(zone);
  }
  if (version >= 2) {
    std::uint64_t from_zone = 0, to_zone = 0;
    if (!reader.GetVarint(&from_zone, 3) || !reader.GetVarint(&to_zone, 3) || from_zone > 0xFFFFu ||
        to_zone > 0xFFFFu) {
      return Malformed("the ends' zones are cut off, overlong or beyond 16 bits");
    }
    out->from_zone = static_cast<std::uint16_t>(from_zone);
    out->to_zone = static_cast<std::uint16_t>(to_zone);
  }
  if (reader.left() != 0) {
    return Malformed(absl::StrCat(reader.left(), " bytes left over after ", count, " zone cells"));
  }
  return absl::OkStatus();
}

}  // namespace walk::store
