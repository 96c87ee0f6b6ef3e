// Request validation: a walk (server::WalkQuery::Validate) and a block of pairs
// (server::WalkPairs::CheckColumns), their fields taken from the input, then the places of what
// passes checked against the fuzz world (nav::ValidateEnds, as AnswerWalk checks them), keyed as
// the store keys them (store::MakeWalkKey, which snaps both ends) and walked on the fine grid
// (nav::AnswerWalk). Refusals are INVALID_ARGUMENT (NOT_FOUND for an unknown continent) naming
// the field; a place that passes stays inside a store key's range and gets an answer. Then a few
// live blocker changes (nav::live::LiveWorld::UpdateBlockers, as UpdateBlockers calls it), their
// numbers any double: refused naming the change, or applied.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "nav/cost/cost_model.h"
#include "nav/cost/metric.h"
#include "nav/live/live_world.h"
#include "nav/query/place_check.h"
#include "nav/query/walk_pipeline.h"
#include "server/walk_query.h"
#include "store/walk_key.h"
#include "tests/fuzz/fuzz_support.h"

namespace walk::fuzz {
namespace {

// A coordinate: raw bits for any double (NaN, infinities, huge), or a small one on the fuzz
// world, or one just beyond the limits, as the input's first byte says.
double TakeCoordinate(Bytes& in) {
  const std::uint8_t how = in.Take<std::uint8_t>();
  switch (how % 4) {
    case 0:
      return in.Take<double>();
    case 1:
      return in.Take<std::uint8_t>() + in.Take<std::uint8_t>() / 256.0;
    case 2:
      return (how & 0x80 ? -1.0 : 1.0) * (nav::kMaxAbsCoordinateYards + in.Take<std::int8_t>());
    default:
      return static_cast<double>(in.Take<std::int32_t>()) / 16.0;
  }
}

std::optional<nav::Place> TakePlace(Bytes& in) {
  const std::uint8_t flags = in.Take<std::uint8_t>();
  if (flags & 1) return std::nullopt;
  nav::Place place;
  place.continent = flags & 2 ? in.Take<std::uint32_t>() : 0;
  place.x_yards = TakeCoordinate(in);
  place.y_yards = TakeCoordinate(in);
  if (flags & 4) place.z_yards = TakeCoordinate(in);
  return place;
}

server::WalkQuery TakeQuery(Bytes& in) {
  server::WalkQuery query;
  const std::uint8_t flags = in.Take<std::uint8_t>();
  query.world = flags & 1 ? "" : in.TakeString(16);
  query.from = TakePlace(in);
  query.to = TakePlace(in);
  const std::vector<std::string>& names = nav::ProfileNames();
  const std::uint8_t profile = in.Take<std::uint8_t>();
  query.profile = profile < names.size() ? names[profile] : profile == 255 ? in.TakeString(16) : "";
  query.band = flags & 2 ? in.Take<std::uint32_t>() : in.Take<std::uint8_t>() % 7 * 10u;
  query.search = static_cast<nav::SearchMode>(in.Take<std::uint8_t>() % 4);
  if (flags & 4) query.unknown_search = in.Take<std::int32_t>();
  if (flags & 8) query.unknown_backend = in.Take<std::int32_t>();
  query.want_path = flags & 16;
  return query;
}

// The metric of a profile and band on the fuzz world, made once.
const nav::Metric& MetricFor(const std::string& profile, std::uint32_t band) {
  static auto* metrics =
      new std::map<std::pair<std::string, std::uint32_t>, std::unique_ptr<nav::Metric>>();
  std::unique_ptr<nav::Metric>& metric = (*metrics)[{profile, band}];
  if (!metric) {
    metric = std::make_unique<nav::Metric>(FuzzWorld(), *nav::FindProfile(profile), band);
  }
  return *metric;
}

// A query that passed Validate: its ends checked on the fuzz world, keyed, walked.
void Walk(const server::WalkQuery& query) {
  WALK_FUZZ_CHECK(query.from && query.to && nav::FindProfile(query.profile) != nullptr);
  const nav::World& world = FuzzWorld();
  absl::StatusOr<const nav::Continent*> ends = nav::ValidateEnds(world, *query.from, *query.to);
  if (!ends.ok()) {
    const absl::StatusCode code = ends.status().code();
    WALK_FUZZ_CHECK(code == absl::StatusCode::kInvalidArgument ||
                    code == absl::StatusCode::kNotFound);
    return;
  }
  const store::WalkKey key = store::MakeWalkKey(1, world, *query.from, *query.to);
  for (const store::EndKey& end : {key.from, key.to}) {
    WALK_FUZZ_CHECK(end.x_decis != std::numeric_limits<std::int32_t>::max() &&
                    end.x_decis != std::numeric_limits<std::int32_t>::min());
  }
  absl::StatusOr<store::WalkKey> decoded = store::DecodeWalkKey(store::EncodeWalkKey(key));
  WALK_FUZZ_CHECK(decoded.ok() && *decoded == key);
  static auto* astar = new nav::FineGridAStar();
  nav::WalkOptions options;
  options.want_path = query.want_path;
  absl::StatusOr<nav::WalkAnswer> answer = nav::AnswerWalk(
      world, MetricFor(query.profile, query.band), *query.from, *query.to, *astar, options);
  WALK_FUZZ_CHECK(answer.ok());
  if (answer->status == nav::WalkStatus::kOk) {
    WALK_FUZZ_CHECK(answer->seconds >= 0.0 && answer->yards >= 0.0);
  }
}

// A block of up to 8 pairs, columns of lengths the input picks.
void CheckPairs(Bytes& in) {
  server::WalkPairs pairs;
  pairs.world = "fuzz";
  pairs.band = in.Take<std::uint8_t>() % 7 * 10u;  // 60 is no band
  std::vector<double> columns[6];
  std::vector<std::uint64_t> index(in.Take<std::uint8_t>() % 9);
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = i;
  for (std::vector<double>& column : columns) {
    column.resize(in.Take<std::uint8_t>() % 10);
    for (double& value : column) value = TakeCoordinate(in);
  }
  pairs.index = index;
  pairs.from_x = columns[0];
  pairs.from_y = columns[1];
  pairs.to_x = columns[2];
  pairs.to_y = columns[3];
  pairs.from_z = columns[4];
  pairs.to_z = columns[5];
  const absl::Status checked = pairs.CheckColumns();
  WALK_FUZZ_CHECK(OkOr(checked, absl::StatusCode::kInvalidArgument));
  if (!checked.ok()) return;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const server::WalkQuery query = pairs.Query(i);
    const absl::Status valid = query.Validate("block.");
    WALK_FUZZ_CHECK(OkOr(valid, absl::StatusCode::kInvalidArgument));
    if (valid.ok()) Walk(query);
  }
}

// A small live world with one building and one gate, made once; changes that land stay.
nav::live::LiveWorld& FuzzLiveWorld() {
  static nav::live::LiveWorld* world = nav::live::LiveWorld::FromText(
                                           "type octile\nheight 4\nwidth 8\nmap\n........\n"
                                           "........\n..@@....\n........\n",
                                           "building 1 0 0 2 1\ngate 2 1 4 0 5 1 shut\n")
                                           ->release();
  return *world;
}

nav::live::WorldRect TakeRect(Bytes& in) {
  return nav::live::WorldRect{TakeCoordinate(in), TakeCoordinate(in), TakeCoordinate(in),
                              TakeCoordinate(in)};
}

// Up to 4 blocker changes of any kind, ids 0..3, places and rectangles any double.
void UpdateBlockers(Bytes& in) {
  using nav::live::BlockerChange;
  std::vector<BlockerChange> changes(in.Take<std::uint8_t>() % 5);
  for (BlockerChange& change : changes) {
    const std::uint8_t kind = in.Take<std::uint8_t>();
    const nav::live::EntityId id = in.Take<std::uint8_t>() % 4;
    switch (kind % 6) {
      case 0:
        change = BlockerChange::AddBuilding(id, TakeRect(in));
        break;
      case 1:
        change = BlockerChange::MoveBuilding(id, TakeRect(in));
        break;
      case 2:
        change = BlockerChange::RemoveBuilding(id);
        break;
      case 3:
        change = BlockerChange::Harvest({TakeCoordinate(in), TakeCoordinate(in)});
        break;
      case 4:
        change = BlockerChange::PlaceResource({TakeCoordinate(in), TakeCoordinate(in)},
                                              nav::live::CellValue::kTree);
        break;
      default:
        change = kind & 0x80 ? BlockerChange::OpenGate(id) : BlockerChange::ShutGate(id);
    }
  }
  const absl::Status updated = FuzzLiveWorld().UpdateBlockers(changes).status();
  WALK_FUZZ_CHECK(updated.ok() || absl::StartsWith(updated.message(), "changes["));
}

}  // namespace
}  // namespace walk::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace walk;
  fuzz::Bytes in(data, size);
  const server::WalkQuery query = fuzz::TakeQuery(in);
  const absl::Status valid = query.Validate("");
  WALK_FUZZ_CHECK(fuzz::OkOr(valid, absl::StatusCode::kInvalidArgument));
  if (valid.ok()) fuzz::Walk(query);
  fuzz::CheckPairs(in);
  fuzz::UpdateBlockers(in);
  return 0;
}
