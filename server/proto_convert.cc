#include "server/proto_convert.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nav/cost/cost_model.h"
#include "nav/cost/danger.h"

namespace walk::server {

walk::v1::WalkStatus StatusToProto(nav::WalkStatus status) {
  switch (status) {
    case nav::WalkStatus::kOk:
      return walk::v1::WALK_STATUS_OK;
    case nav::WalkStatus::kNoWalk:
      return walk::v1::WALK_STATUS_NO_WALK;
    case nav::WalkStatus::kOffMap:
      return walk::v1::WALK_STATUS_OFF_MAP;
    case nav::WalkStatus::kNoSurface:
      return walk::v1::WALK_STATUS_NO_SURFACE;
  }
  return walk::v1::WALK_STATUS_UNSPECIFIED;
}

walk::v1::Method MethodToProto(nav::Method method) {
  switch (method) {
    case nav::Method::kTrivial:
      return walk::v1::METHOD_TRIVIAL;
    case nav::Method::kRegions:
      return walk::v1::METHOD_REGIONS;
    case nav::Method::kStraightLine:
      return walk::v1::METHOD_STRAIGHT_LINE;
    case nav::Method::kFineGrid:
      return walk::v1::METHOD_FINE_GRID;
    case nav::Method::kTile:
      return walk::v1::METHOD_TILE;
    case nav::Method::kCch:
      return walk::v1::METHOD_CCH;
    case nav::Method::kDijkstra:
      return walk::v1::METHOD_DIJKSTRA;
    case nav::Method::kReach:
      return walk::v1::METHOD_REACH;
  }
  return walk::v1::METHOD_UNSPECIFIED;
}

namespace {

void EndToProto(const nav::End& end, walk::v1::End* out) {
  out->set_column_x(end.column_x);
  out->set_column_y(end.column_y);
  out->set_level(end.level);
  out->set_surface_z_yards(end.surface_z_yards);
  out->set_region(end.region);
  out->set_zone(end.zone);
  out->set_settled(end.settled);
  out->set_settle_yards(end.settle_yards);
}

void PointToProto(const nav::PathPoint& point, walk::v1::PathPoint* out) {
  out->set_x_yards(point.x_yards);
  out->set_y_yards(point.y_yards);
  out->set_z_yards(point.z_yards);
}

constexpr const char* kDirectionNames[nav::kDirectionCount] = {"E", "NE", "N", "NW",
                                                               "W", "SW", "S", "SE"};

}  // namespace

nav::Place ToPlace(const walk::v1::Place& place) {
  nav::Place p;
  p.continent = place.continent();
  p.x_yards = place.x_yards();
  p.y_yards = place.y_yards();
  if (place.has_z_yards()) p.z_yards = place.z_yards();
  return p;
}

absl::Status ValidateWalkRequest(const walk::v1::WalkRequest& request, const std::string& prefix) {
  if (request.world().empty()) return absl::InvalidArgumentError(prefix + "world: required");
  if (!request.has_from()) return absl::InvalidArgumentError(prefix + "from: required");
  if (!request.has_to()) return absl::InvalidArgumentError(prefix + "to: required");
  if (nav::FindProfile(request.profile()) == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, "profile: unknown profile '", request.profile(),
                     "' (known: ", absl::StrJoin(nav::ProfileNames(), ", "), ")"));
  }
  if (absl::Status band = nav::ValidateBand(request.band()); !band.ok()) {
    return absl::InvalidArgumentError(prefix + std::string(band.message()));
  }
  if (!walk::v1::Search_IsValid(request.search())) {
    return absl::InvalidArgumentError(
        absl::StrCat(prefix, "search: unknown value ", request.search(),
                     " (known: SEARCH_AUTO, SEARCH_GRID, SEARCH_DIJKSTRA, SEARCH_CCH)"));
  }
  return absl::OkStatus();
}

nav::SearchMode ToSearchMode(walk::v1::Search search) {
  switch (search) {
    case walk::v1::SEARCH_GRID:
      return nav::SearchMode::kGrid;
    case walk::v1::SEARCH_DIJKSTRA:
      return nav::SearchMode::kDijkstra;
    case walk::v1::SEARCH_CCH:
      return nav::SearchMode::kCch;
    default:
      return nav::SearchMode::kAuto;
  }
}

void ToProto(const nav::WalkAnswer& answer, walk::v1::WalkResponse* out) {
  out->set_status(StatusToProto(answer.status));
  out->set_method(MethodToProto(answer.method));
  if (answer.status == nav::WalkStatus::kOk) {
    out->set_seconds(answer.seconds);
    out->set_yards(answer.yards);
  }
  if (answer.from_end) EndToProto(*answer.from_end, out->mutable_from_end());
  if (answer.to_end) EndToProto(*answer.to_end, out->mutable_to_end());
  out->set_nodes_expanded(answer.stats.nodes_expanded);
  out->set_retried(answer.retried);
  for (const nav::ZoneCell& cell : answer.zone_cells) {
    walk::v1::ZoneCell* z = out->add_zone_cells();
    z->set_cell_x(cell.cell_x);
    z->set_cell_y(cell.cell_y);
    z->set_zone(cell.zone);
    z->set_yards(cell.yards);
  }
}

void ToProto(const nav::PathDetail& path, walk::v1::PathResponse* out) {
  for (const nav::PathPoint& point : path.points) PointToProto(point, out->add_points());
  for (const auto& [kind, seconds] : path.seconds_by_kind) {
    walk::v1::KindSeconds* k = out->add_seconds_by_kind();
    k->set_kind(kind);
    k->set_seconds(seconds);
  }
  for (const nav::Fall& fall : path.falls) {
    walk::v1::Fall* f = out->add_falls();
    PointToProto(fall.from, f->mutable_from());
    f->set_drop_yards(fall.drop_yards);
  }
  out->set_steps(static_cast<std::uint32_t>(path.steps));
}

void ColumnToProto(const nav::Continent& c, std::uint32_t x, std::uint32_t y,
                   walk::v1::Column* out) {
  out->set_column_x(x);
  out->set_column_y(y);
  nav::SurfaceId first, end;
  c.ColumnSurfaces(x, y, &first, &end);
  for (nav::SurfaceId s = first; s < end; ++s) {
    walk::v1::Floor* floor = out->add_floors();
    floor->set_level(c.level[s]);
    floor->set_z_yards(c.height_yards[s]);
    if (std::isfinite(c.headroom_yards[s])) floor->set_headroom_yards(c.headroom_yards[s]);
    const std::pair<std::uint8_t, const char*> flags[] = {
        {nav::kFlagTerrain, "terrain"}, {nav::kFlagBuilding, "building"},
        {nav::kFlagIndoor, "indoor"},   {nav::kFlagWater, "water"},
        {nav::kFlagSteep, "steep"},     {nav::kFlagBlocked, "blocked"},
        {nav::kFlagForest, "forest"},   {nav::kFlagClimb, "climb"}};
    for (const auto& [bit, name] : flags) {
      if (c.flags[s] & bit) floor->add_flags(name);
    }
    const std::pair<std::uint8_t, const char*> marks[] = {{nav::kMarkRoad, "road"},
                                                          {nav::kMarkHubA, "hub_a"},
                                                          {nav::kMarkHubB, "hub_b"},
                                                          {nav::kMarkLift, "lift"}};
    for (const auto& [bit, name] : marks) {
      if (c.marks[s] & bit) floor->add_marks(name);
    }
    floor->set_zone(c.zone[s]);
    floor->set_region(c.region[s]);
    floor->set_region_surfaces(c.region_size[c.region[s]]);
    for (int d = 0; d < nav::kDirectionCount; ++d) {
      const nav::Link link = c.links[s][d];
      if (nav::HasLink(link)) {
        floor->add_links(absl::StrCat(kDirectionNames[d], " ",
                                      std::string(nav::LinkKindName(nav::LinkKindOf(link))),
                                      " to level ", nav::LinkLevel(link)));
      }
    }
  }
}

}  // namespace walk::server
