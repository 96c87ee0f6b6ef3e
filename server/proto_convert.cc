#include "server/proto_convert.h"

#include <chrono>
#include <cmath>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nav/abstract/abstract_router.h"
#include "nav/navmesh/tile_cache.h"
#include "server/trip_convert.h"

namespace walk::server {
namespace {

// The backend named, or nullopt for a number this walkd does not know.
std::optional<BackendChoice> ToBackendChoice(int backend) {
  switch (backend) {
    case walk::v1::BACKEND_UNSPECIFIED:
      return BackendChoice::kDefault;
    case walk::v1::BACKEND_GRID:
      return BackendChoice::kGrid;
    case walk::v1::BACKEND_NAVMESH:
      return BackendChoice::kNavMesh;
    case walk::v1::BACKEND_HYBRID:
      return BackendChoice::kHybrid;
    default:
      return std::nullopt;
  }
}

// Sets `choice` from the request's backend, or `unknown` when walkd does not know it.
void SetBackend(int backend, BackendChoice* choice, std::optional<std::int32_t>* unknown) {
  if (const std::optional<BackendChoice> known = ToBackendChoice(backend)) {
    *choice = *known;
  } else {
    *unknown = backend;
  }
}

walk::v1::HybridChoice HybridToProto(HybridChoice choice) {
  switch (choice) {
    case HybridChoice::kNone:
      return walk::v1::HYBRID_CHOICE_UNSPECIFIED;
    case HybridChoice::kNavMesh:
      return walk::v1::HYBRID_CHOICE_NAVMESH;
    case HybridChoice::kNavMeshNone:
      return walk::v1::HYBRID_CHOICE_NAVMESH_NONE;
    case HybridChoice::kNavMeshDetour:
      return walk::v1::HYBRID_CHOICE_NAVMESH_DETOUR;
  }
  return walk::v1::HYBRID_CHOICE_UNSPECIFIED;
}

walk::v1::Backend AnsweredBackend(nav::Method method) {
  return method == nav::Method::kNavMesh ? walk::v1::BACKEND_NAVMESH : walk::v1::BACKEND_GRID;
}

walk::v1::Backend BackendToProto(BackendChoice choice) {
  switch (choice) {
    case BackendChoice::kDefault:
      return walk::v1::BACKEND_UNSPECIFIED;
    case BackendChoice::kGrid:
      return walk::v1::BACKEND_GRID;
    case BackendChoice::kNavMesh:
      return walk::v1::BACKEND_NAVMESH;
    case BackendChoice::kHybrid:
      return walk::v1::BACKEND_HYBRID;
  }
  return walk::v1::BACKEND_UNSPECIFIED;
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

void EndToProto(const nav::End& end, const nav::WorldFrame& frame, walk::v1::End* out) {
  out->set_column_x(static_cast<std::int32_t>(frame.FrameColumnX(end.column_x)));
  out->set_column_y(static_cast<std::int32_t>(frame.FrameColumnY(end.column_y)));
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

void AnswerToProto(const nav::WalkAnswer& answer, const nav::WorldFrame& frame,
                   walk::v1::WalkResponse* out) {
  out->set_status(StatusToProto(answer.status));
  out->set_method(MethodToProto(answer.method));
  if (answer.status == nav::WalkStatus::kOk) {
    out->set_seconds(answer.seconds);
    out->set_yards(answer.yards);
  }
  if (answer.from_end) EndToProto(*answer.from_end, frame, out->mutable_from_end());
  if (answer.to_end) EndToProto(*answer.to_end, frame, out->mutable_to_end());
  out->set_nodes_expanded(answer.stats.nodes_expanded);
  out->set_backend(AnsweredBackend(answer.method));
  out->set_retried(answer.retried);
  out->set_from_band_zero(answer.from_band_zero);
  for (const nav::ZoneCell& cell : answer.zone_cells) {
    walk::v1::ZoneCell* z = out->add_zone_cells();
    z->set_cell_x(cell.cell_x);
    z->set_cell_y(cell.cell_y);
    z->set_zone(cell.zone);
    z->set_yards(cell.yards);
  }
}

void PathToProto(const nav::PathDetail& path, walk::v1::PathResponse* out) {
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

void NavMeshToProto(const ServedNavMesh& served, walk::v1::NavMeshInfo* out) {
  out->set_format(served.format);
  out->set_content_hash(nav::FormatId(served.content_hash));
  out->set_continent(served.continent);
  out->set_saved_only(served.saved_only());
  out->set_note(served.note);
  if (served.saved_only()) return;
  out->set_tiles(served.navmesh->tile_count());
  out->set_polygons(served.navmesh->polygon_count());
  out->set_off_mesh_connections(served.navmesh->off_mesh_count());
  out->set_classes(static_cast<std::uint32_t>(served.ground->classes().size()));
  out->set_exact(served.ground->exact());
  out->set_polygons_off_grid(served.ground->stats().off_grid);
  out->set_lift_rides(served.ground->stats().lift_rides);
  out->set_map(served.map);
  out->set_lift_rides_added(served.lifts.added);
  if (const nav::NavMeshTileCache* cache = served.navmesh->tile_cache()) {
    out->set_cache_budget_bytes(cache->budget_bytes());
    out->set_resident_tiles(cache->resident_tiles());
  } else {
    out->set_resident_tiles(served.navmesh->tile_count());
  }
}

walk::v1::ReloadResult ReloadResultToProto(ReloadResult result) {
  switch (result) {
    case ReloadResult::kNone:
      return walk::v1::RELOAD_RESULT_UNSPECIFIED;
    case ReloadResult::kReloaded:
      return walk::v1::RELOAD_RESULT_RELOADED;
    case ReloadResult::kUnchanged:
      return walk::v1::RELOAD_RESULT_UNCHANGED;
    case ReloadResult::kFailed:
      return walk::v1::RELOAD_RESULT_FAILED;
  }
  return walk::v1::RELOAD_RESULT_UNSPECIFIED;
}

walk::v1::WorldState WorldStateToProto(WorldState state) {
  switch (state) {
    case WorldState::kLoading:
      return walk::v1::WORLD_STATE_LOADING;
    case WorldState::kReady:
      return walk::v1::WORLD_STATE_READY;
    case WorldState::kFailed:
      return walk::v1::WORLD_STATE_FAILED;
  }
  return walk::v1::WORLD_STATE_UNSPECIFIED;
}

void GraphToProto(const nav::AbstractRouter& router, walk::v1::GraphInfo* out) {
  const nav::AbstractGraph& graph = router.graph();
  out->set_cell_columns(graph.cell_columns);
  out->set_entrance_spacing(graph.entrance_spacing);
  for (const nav::ContinentGraph& g : graph.continents) {
    out->set_nodes(out->nodes() + g.node_count());
    out->set_arcs(out->arcs() + g.arc_count());
    out->add_continents(g.continent);
  }
  for (const std::string& why : graph.unprepared) out->add_unprepared(why);
  out->set_cch_arcs(router.timings().cch_arcs);
  for (const std::string& profile : graph.profiles) out->add_profiles(profile);
  out->set_cch_build_seconds(router.timings().cch_build_seconds);
  out->set_customize_seconds(router.timings().customize_seconds);
  out->set_memory_bytes(router.timings().memory_bytes);
}

}  // namespace

// --- WalkService requests.

nav::Place ToPlace(const walk::v1::Place& place) {
  nav::Place p;
  p.continent = place.continent();
  p.x_yards = place.x_yards();
  p.y_yards = place.y_yards();
  if (place.has_z_yards()) p.z_yards = place.z_yards();
  return p;
}

WalkQuery ToWalkQuery(const walk::v1::WalkRequest& request) {
  WalkQuery query;
  query.world = request.world();
  if (request.has_from()) query.from = ToPlace(request.from());
  if (request.has_to()) query.to = ToPlace(request.to());
  query.profile = request.profile();
  query.band = request.band();
  if (walk::v1::Search_IsValid(request.search())) {
    query.search = ToSearchMode(request.search());
  } else {
    query.unknown_search = request.search();
  }
  SetBackend(request.backend(), &query.backend, &query.unknown_backend);
  return query;
}

WalkQuery ToWalkQuery(const walk::v1::PathRequest& request) {
  WalkQuery query = ToWalkQuery(request.walk());
  query.want_path = true;
  return query;
}

WalkQuery ToTableQuery(const walk::v1::TableRequest& request, int source, int target) {
  WalkQuery query;
  query.world = request.world();
  query.from = ToPlace(request.sources(source));
  query.to = ToPlace(request.targets(target));
  query.profile = request.profile();
  query.band = request.band();
  SetBackend(request.backend(), &query.backend, &query.unknown_backend);
  return query;
}

WalkPairs ToWalkPairs(const walk::v1::PairBlock& block) {
  auto column = [](const auto& field) {
    return std::span(field.data(), static_cast<std::size_t>(field.size()));
  };
  WalkPairs pairs;
  pairs.world = block.world();
  pairs.profile = block.profile();
  pairs.band = block.band();
  SetBackend(block.backend(), &pairs.backend, &pairs.unknown_backend);
  pairs.from_continent = block.from_continent();
  pairs.to_continent = block.to_continent();
  pairs.index = column(block.index());
  pairs.from_x = column(block.from_x());
  pairs.from_y = column(block.from_y());
  pairs.to_x = column(block.to_x());
  pairs.to_y = column(block.to_y());
  pairs.from_z = column(block.from_z());
  pairs.to_z = column(block.to_z());
  return pairs;
}

// --- WalkService replies.

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
    case nav::Method::kNavMesh:
      return walk::v1::METHOD_NAVMESH;
    case nav::Method::kCchAStar:
      return walk::v1::METHOD_CCH_ASTAR;
    case nav::Method::kJumpPoints:
      return walk::v1::METHOD_JUMP_POINTS;
    case nav::Method::kSubgoalHierarchy:
      return walk::v1::METHOD_SUBGOAL_HIERARCHY;
  }
  return walk::v1::METHOD_UNSPECIFIED;
}

void ToProto(const WalkResult& result, walk::v1::WalkResponse* out) {
  out->set_band(result.band);
  out->set_model_id(nav::FormatId(result.model));
  AnswerToProto(result.answer, result.frame, out);
  out->set_hybrid(HybridToProto(result.hybrid));
}

void ToProto(const WalkResult& result, walk::v1::PathResponse* out) {
  ToProto(result, out->mutable_walk());
  if (result.answer.path) PathToProto(*result.answer.path, out);
}

void ToProto(std::uint64_t index, const absl::StatusOr<WalkResult>& result,
             walk::v1::WalkBatchResponse* out) {
  out->set_index(index);
  if (!result.ok()) {
    out->set_code(static_cast<int>(result.status().code()));
    out->set_message(std::string(result.status().message()));
    return;
  }
  out->set_stored(result->stored);
  ToProto(*result, out->mutable_walk());
}

void ReserveRows(int rows, walk::v1::AnswerBlock* out) {
  out->mutable_index()->Reserve(rows);
  out->mutable_code()->Reserve(rows);
  out->mutable_status()->Reserve(rows);
  out->mutable_method()->Reserve(rows);
  out->mutable_seconds()->Reserve(rows);
  out->mutable_yards()->Reserve(rows);
  out->mutable_stored()->Reserve(rows);
  out->mutable_model()->Reserve(rows);
  out->mutable_from_band_zero()->Reserve(rows);
  out->mutable_backend()->Reserve(rows);
  out->mutable_hybrid()->Reserve(rows);
}

void AppendRow(BlockAnswer row, walk::v1::AnswerBlock* out) {
  const bool refused = !row.error.ok();
  out->add_index(row.index);
  out->add_code(static_cast<int>(row.error.code()));
  if (refused) (*out->mutable_message())[row.index] = std::string(row.error.message());
  out->add_status(refused ? walk::v1::WALK_STATUS_UNSPECIFIED : StatusToProto(row.status));
  out->add_method(refused ? walk::v1::METHOD_UNSPECIFIED : MethodToProto(row.method));
  out->add_seconds(row.seconds);
  out->add_yards(row.yards);
  out->add_stored(row.stored);
  out->add_model(row.model);
  out->add_from_band_zero(row.from_band_zero);
  out->add_backend(refused ? walk::v1::BACKEND_UNSPECIFIED : AnsweredBackend(row.method));
  out->add_hybrid(HybridToProto(row.hybrid));
}

void ColumnToProto(const nav::Continent& c, const nav::WorldFrame& frame, std::uint32_t x,
                   std::uint32_t y, walk::v1::Column* out) {
  out->set_column_x(static_cast<std::int32_t>(frame.FrameColumnX(x)));
  out->set_column_y(static_cast<std::int32_t>(frame.FrameColumnY(y)));
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

void ToProto(const WorldStatus& w, walk::v1::WorldInfo* out) {
  out->set_name(w.name);
  out->set_state(WorldStateToProto(w.state));
  out->set_error(w.error);
  out->set_source(w.served ? w.served->source : w.dir);
  walk::v1::ReloadInfo* reload = out->mutable_reload();
  reload->set_generation(w.generation);
  reload->set_reloads(w.reloads);
  reload->set_failed_reloads(w.failed_reloads);
  if (w.last_reload.result != ReloadResult::kNone) ToProto(w.last_reload, reload->mutable_last());
  if (!w.served) return;
  out->set_default_backend(BackendToProto(w.served->DefaultBackend()));
  for (const ServedWorld::MetricEntry& entry : w.served->metrics) {
    for (const ServedWorld::ContinentModels& models : entry.continents) {
      walk::v1::ModelInfo* m = out->add_models();
      m->set_profile(entry.metric->profile().name);
      m->set_band(entry.metric->band());
      m->set_continent(models.continent);
      if (models.grid != 0) {
        m->set_grid_model(nav::FormatId(models.grid));
        m->set_trip_model(nav::FormatId(entry.trip_model));
      }
      if (models.navmesh != 0) m->set_navmesh_model(nav::FormatId(models.navmesh));
    }
  }
  for (const auto& navmesh : w.served->navmeshes) {
    if (!out->has_navmesh()) NavMeshToProto(*navmesh, out->mutable_navmesh());
    NavMeshToProto(*navmesh, out->add_navmeshes());
  }
  TravelToProto(*w.served, out);
  const nav::World& world = w.served->world;
  out->set_content_id(nav::FormatId(world.content_id));
  out->set_column_yards(world.column_yards);
  out->set_memory_bytes(world.MemoryBytes());
  for (std::size_t k = 0; k < world.continents.size(); ++k) {
    const nav::Continent& c = world.continents[k];
    walk::v1::ContinentInfo* ci = out->add_continents();
    ci->set_id(c.id);
    ci->set_tiles_x(c.tiles_x);
    ci->set_tiles_y(c.tiles_y);
    ci->set_tiles(static_cast<std::uint32_t>(c.tiles.size()));
    ci->set_columns(w.served->columns[k]);
    ci->set_surfaces(c.surface_count());
    ci->set_regions(c.region_count());
    ci->set_max_floors(w.served->max_floors[k]);
    ci->set_lift_rides(static_cast<std::uint32_t>(c.lifts.size()));
    const nav::WorldFrame frame = world.FrameOf(c);
    ci->set_min_x_yards(frame.FrameX(0.0));
    ci->set_min_y_yards(frame.FrameY(0.0));
    ci->set_max_x_yards(frame.FrameX(c.width_columns * world.column_yards));
    ci->set_max_y_yards(frame.FrameY(c.height_columns * world.column_yards));
    ci->set_content_id(nav::FormatId(c.content_id));
    ci->set_origin_column_x(c.origin_column_x);
    ci->set_origin_column_y(c.origin_column_y);
    ci->set_source(c.source);
  }
  if (const nav::AbstractRouter* router = w.served->router.get()) {
    GraphToProto(*router, out->mutable_graph());
  }
  if (!world.continents.empty()) {
    out->set_origin_column_x(world.continents.front().origin_column_x);
    out->set_origin_column_y(world.continents.front().origin_column_y);
  }
  for (const nav::WorldLayer& layer : world.layers) {
    walk::v1::LayerInfo* li = out->add_layers();
    li->set_name(layer.name);
    li->set_file(layer.file);
    li->set_file_hash(nav::FormatId(layer.hash));
    li->set_summary(layer.summary);
  }
  for (const nav::Zone& zone : world.zones) {
    walk::v1::ZoneInfo* zi = out->add_zones();
    zi->set_id(zone.id);
    zi->set_name(zone.name);
    zi->set_min_level(zone.min_level);
    zi->set_max_level(zone.max_level);
  }
}

void ToProto(const WorldReload& reload, walk::v1::WorldReloadResult* out) {
  out->set_world(reload.name);
  out->set_result(ReloadResultToProto(reload.result));
  out->set_error(reload.error);
  out->set_changed_files(reload.changed);
  out->set_seconds(reload.seconds);
  if (reload.result != ReloadResult::kUnchanged) {
    out->set_finished_unix_seconds(
        std::chrono::duration_cast<std::chrono::seconds>(reload.finished.time_since_epoch())
            .count());
  }
  if (reload.content_id != 0) out->set_content_id(nav::FormatId(reload.content_id));
  out->set_generation(reload.generation);
}

}  // namespace walk::server
