#include "server/walk_query.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nav/cost/cost_model.h"
#include "nav/cost/danger.h"

namespace walk::server {
namespace {

nav::Place PairPlace(nav::ContinentId continent, double x, double y, std::span<const double> z,
                     std::size_t i) {
  nav::Place place;
  place.continent = continent;
  place.x_yards = x;
  place.y_yards = y;
  if (i < z.size() && !std::isnan(z[i])) place.z_yards = z[i];
  return place;
}

}  // namespace

const char* BackendChoiceName(BackendChoice choice) {
  switch (choice) {
    case BackendChoice::kDefault:
      return "default";
    case BackendChoice::kGrid:
      return "grid";
    case BackendChoice::kNavMesh:
      return "navmesh";
    case BackendChoice::kHybrid:
      return "hybrid";
  }
  return "unknown";
}

const char* HybridChoiceName(HybridChoice choice) {
  switch (choice) {
    case HybridChoice::kNone:
      return "";
    case HybridChoice::kNavMesh:
      return "navmesh";
    case HybridChoice::kNavMeshNone:
      return "navmesh_none";
    case HybridChoice::kNavMeshDetour:
      return "navmesh_detour";
  }
  return "unknown";
}

absl::Status WalkQuery::Validate(absl::string_view field_prefix) const {
  if (world.empty())
    return absl::InvalidArgumentError(absl::StrCat(field_prefix, "world: required"));
  if (!from) return absl::InvalidArgumentError(absl::StrCat(field_prefix, "from: required"));
  if (!to) return absl::InvalidArgumentError(absl::StrCat(field_prefix, "to: required"));
  if (nav::FindProfile(profile) == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(field_prefix, "profile: unknown profile '", profile,
                     "' (known: ", absl::StrJoin(nav::ProfileNames(), ", "), ")"));
  }
  if (absl::Status valid = nav::ValidateBand(band); !valid.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(field_prefix, valid.message()));
  }
  if (unknown_search) {
    return absl::InvalidArgumentError(
        absl::StrCat(field_prefix, "search: unknown value ", *unknown_search,
                     " (known: SEARCH_AUTO, SEARCH_GRID, SEARCH_DIJKSTRA, SEARCH_CCH)"));
  }
  if (unknown_backend) {
    return absl::InvalidArgumentError(absl::StrCat(
        field_prefix, "backend: unknown value ", *unknown_backend,
        " (known: BACKEND_UNSPECIFIED, BACKEND_GRID, BACKEND_NAVMESH, BACKEND_HYBRID)"));
  }
  return absl::OkStatus();
}

absl::Status WalkPairs::CheckColumns() const {
  struct Column {
    const char* name;
    std::size_t size;
    bool optional;
  };
  const Column columns[] = {{"from_x", from_x.size(), false}, {"from_y", from_y.size(), false},
                            {"to_x", to_x.size(), false},     {"to_y", to_y.size(), false},
                            {"from_z", from_z.size(), true},  {"to_z", to_z.size(), true}};
  const std::size_t n = size();
  for (const Column& c : columns) {
    if (c.size == n || (c.optional && c.size == 0)) continue;
    return absl::InvalidArgumentError(absl::StrCat("block.", c.name, ": ", c.size, " values for ",
                                                   n, " pairs (one a pair",
                                                   c.optional ? ", or none" : "", ")"));
  }
  return absl::OkStatus();
}

nav::Place WalkPairs::From(std::size_t i) const {
  return PairPlace(from_continent, from_x[i], from_y[i], from_z, i);
}

nav::Place WalkPairs::To(std::size_t i) const {
  return PairPlace(to_continent, to_x[i], to_y[i], to_z, i);
}

WalkQuery WalkPairs::Query(std::size_t i) const {
  WalkQuery query;
  query.world = world;
  query.from = From(i);
  query.to = To(i);
  query.profile = profile;
  query.band = band;
  query.backend = backend;
  query.unknown_backend = unknown_backend;
  return query;
}

BlockAnswer RefusedBlockAnswer(std::uint64_t index, const absl::Status& why) {
  BlockAnswer answer;
  answer.index = index;
  answer.error = why;
  return answer;
}

}  // namespace walk::server
