#include "server/live_service.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "server/grpc_status.h"

namespace walk::server {
namespace {

namespace live = nav::live;

live::Passability ToPassability(walk::v1::Passability p) {
  return p == walk::v1::PASSABILITY_HEAVY ? live::Passability::kHeavy : live::Passability::kLight;
}

live::Cell ToCell(const walk::v1::Cell& cell) { return {cell.x(), cell.y()}; }

void ToProto(const live::Cell& cell, walk::v1::Cell* out) {
  out->set_x(cell.x);
  out->set_y(cell.y);
}

walk::v1::LivePathStatus ToProto(live::PathStatus status) {
  switch (status) {
    case live::PathStatus::kFound:
      return walk::v1::LIVE_PATH_STATUS_FOUND;
    case live::PathStatus::kUnreachable:
      return walk::v1::LIVE_PATH_STATUS_UNREACHABLE;
    case live::PathStatus::kStartBlocked:
      return walk::v1::LIVE_PATH_STATUS_START_BLOCKED;
    case live::PathStatus::kGoalBlocked:
      return walk::v1::LIVE_PATH_STATUS_GOAL_BLOCKED;
  }
  return walk::v1::LIVE_PATH_STATUS_UNSPECIFIED;
}

absl::StatusOr<live::BlockerChange> ToChange(const walk::v1::BlockerChange& c, int index) {
  const live::WorldRect rect{c.x0(), c.y0(), c.x1(), c.y1()};
  const live::WorldPoint point{c.x(), c.y()};
  switch (c.kind()) {
    case walk::v1::BlockerChange::KIND_ADD_BUILDING:
      return live::BlockerChange::AddBuilding(c.id(), rect);
    case walk::v1::BlockerChange::KIND_REMOVE_BUILDING:
      return live::BlockerChange::RemoveBuilding(c.id());
    case walk::v1::BlockerChange::KIND_MOVE_BUILDING:
      return live::BlockerChange::MoveBuilding(c.id(), rect);
    case walk::v1::BlockerChange::KIND_ADD_GATE:
      return live::BlockerChange::AddGate(c.id(), c.owner(), rect, c.open());
    case walk::v1::BlockerChange::KIND_REMOVE_GATE:
      return live::BlockerChange::RemoveGate(c.id());
    case walk::v1::BlockerChange::KIND_OPEN_GATE:
      return live::BlockerChange::OpenGate(c.id());
    case walk::v1::BlockerChange::KIND_SHUT_GATE:
      return live::BlockerChange::ShutGate(c.id());
    case walk::v1::BlockerChange::KIND_HARVEST:
      return live::BlockerChange::Harvest(point);
    case walk::v1::BlockerChange::KIND_PLACE_TREE:
      return live::BlockerChange::PlaceResource(point, live::CellValue::kTree);
    default:
      return absl::InvalidArgumentError(absl::StrCat("changes[", index, "].kind: required"));
  }
}

}  // namespace

LiveServiceImpl::LiveServiceImpl(WalkMetrics& metrics) : metrics_(metrics) {}

absl::StatusOr<std::unique_ptr<LiveServiceImpl>> LiveServiceImpl::Create(const std::string& dir,
                                                                         WalkMetrics& metrics) {
  std::unique_ptr<LiveServiceImpl> service(new LiveServiceImpl(metrics));
  if (dir.empty()) return service;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return absl::InvalidArgumentError(absl::StrCat("--live-worlds: ", dir, " is not a folder"));
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const auto map = entry.path() / "map.map";
    if (!entry.is_directory() || !std::filesystem::exists(map)) continue;
    const auto layers = entry.path() / "layers.txt";
    auto world = live::LiveWorld::Create(map.string(),
                                         std::filesystem::exists(layers) ? layers.string() : "");
    if (!world.ok()) {
      return absl::Status(world.status().code(),
                          absl::StrCat("--live-worlds: ", world.status().message()));
    }
    service->worlds_[entry.path().filename().string()] = *std::move(world);
  }
  return service;
}

absl::StatusOr<live::LiveWorld*> LiveServiceImpl::Find(const std::string& name) const {
  if (name.empty()) return absl::InvalidArgumentError("world: required");
  auto it = worlds_.find(name);
  if (it == worlds_.end())
    return absl::NotFoundError(absl::StrCat("world: no live world named '", name, "'"));
  return it->second.get();
}

void LiveServiceImpl::Finish(grpc::ServerUnaryReactor* reactor, const char* method,
                             const absl::Status& status) {
  const grpc::Status reply = ToGrpcStatus(status);
  metrics_.RecordLiveRequest(method, GrpcCodeName(reply.error_code()));
  {
    // Export the worlds' cumulative counters as deltas, so the metrics are real counters.
    std::lock_guard<std::mutex> lock(counters_mu_);
    std::map<std::string, std::uint64_t> now;
    for (const auto& [name, world] : worlds_) {
      const live::LiveCounters c = world->Counters();
      for (const auto& [event, value] :
           {std::pair{"path", c.paths}, std::pair{"cache_hit", c.cache_hits},
            std::pair{"cache_miss", c.cache_misses}, std::pair{"cache_eviction", c.cache_evictions},
            std::pair{"search", c.searches}, std::pair{"cell_expanded", c.cells_expanded},
            std::pair{"heap_operation", c.heap_operations}, std::pair{"update", c.updates},
            std::pair{"dirty_cell_rebuilt", c.dirty_cells_rebuilt},
            std::pair{"ring_cell_scanned", c.ring_cells_scanned},
            std::pair{"region_answer", c.region_answers}}) {
        now[event] += value;
      }
    }
    for (const auto& [event, value] : now) {
      std::uint64_t& before = exported_[event];
      if (value > before) metrics_.RecordLiveEvents(event, value - before);
      before = value;
    }
  }
  reactor->Finish(reply);
}

grpc::ServerUnaryReactor* LiveServiceImpl::LivePath(grpc::CallbackServerContext* context,
                                                    const walk::v1::LivePathRequest* request,
                                                    walk::v1::LivePathResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "LivePath", world.status());
    return reactor;
  }
  live::PathRequest path_request;
  path_request.start = ToCell(request->start());
  path_request.goal = ToCell(request->goal());
  path_request.passability = ToPassability(request->passability());
  path_request.resolve_blocked_goal = !request->keep_goal();
  auto path = (*world)->FindPath(path_request);
  if (path.ok()) {
    response->set_status(ToProto(path->status));
    ToProto(path->goal, response->mutable_goal());
    response->set_cost(path->cost);
    for (const live::Cell& c : path->cells) ToProto(c, response->add_cells());
    for (const live::Cell& c : path->waypoints) ToProto(c, response->add_waypoints());
    response->set_revision(path->revision);
    response->set_from_cache(path->from_cache);
  }
  Finish(reactor, "LivePath", path.status());
  return reactor;
}

grpc::ServerUnaryReactor* LiveServiceImpl::UpdateBlockers(
    grpc::CallbackServerContext* context, const walk::v1::UpdateBlockersRequest* request,
    walk::v1::UpdateBlockersResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "UpdateBlockers", world.status());
    return reactor;
  }
  std::vector<live::BlockerChange> changes;
  for (int i = 0; i < request->changes_size(); ++i) {
    auto change = ToChange(request->changes(i), i);
    if (!change.ok()) {
      Finish(reactor, "UpdateBlockers", change.status());
      return reactor;
    }
    changes.push_back(*change);
  }
  auto result = (*world)->UpdateBlockers(changes);
  if (result.ok()) {
    response->set_revision(result->revision);
    response->set_dirty_cells(result->dirty_cells);
    response->set_dirty_rects(result->dirty_rects);
    response->set_full_rebuild(result->full_rebuild);
  }
  Finish(reactor, "UpdateBlockers", result.status());
  return reactor;
}

grpc::ServerUnaryReactor* LiveServiceImpl::Nearest(grpc::CallbackServerContext* context,
                                                   const walk::v1::NearestRequest* request,
                                                   walk::v1::NearestResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "Nearest", world.status());
    return reactor;
  }
  auto cell = (*world)->Nearest(ToCell(request->cell()), ToPassability(request->passability()));
  if (cell.ok()) ToProto(*cell, response->mutable_cell());
  Finish(reactor, "Nearest", cell.status());
  return reactor;
}

grpc::ServerUnaryReactor* LiveServiceImpl::Reachable(grpc::CallbackServerContext* context,
                                                     const walk::v1::ReachableRequest* request,
                                                     walk::v1::ReachableResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "Reachable", world.status());
    return reactor;
  }
  auto reachable = (*world)->Reachable(ToCell(request->a()), ToCell(request->b()),
                                       ToPassability(request->passability()));
  if (reachable.ok()) {
    response->set_reachable(*reachable);
    response->set_revision((*world)->revision());
  }
  Finish(reactor, "Reachable", reachable.status());
  return reactor;
}

grpc::ServerUnaryReactor* LiveServiceImpl::PathGroup(grpc::CallbackServerContext* context,
                                                     const walk::v1::PathGroupRequest* request,
                                                     walk::v1::PathGroupResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "PathGroup", world.status());
    return reactor;
  }
  if (request->passabilities_size() != 0 &&
      request->passabilities_size() != request->starts_size()) {
    Finish(reactor, "PathGroup",
           absl::InvalidArgumentError("passabilities: one per start, or none"));
    return reactor;
  }
  std::vector<live::GroupMember> members;
  for (int i = 0; i < request->starts_size(); ++i) {
    live::GroupMember member;
    member.start = ToCell(request->starts(i));
    if (request->passabilities_size() != 0) {
      member.passability =
          ToPassability(static_cast<walk::v1::Passability>(request->passabilities(i)));
    }
    members.push_back(member);
  }
  auto plan = (*world)->PathGroup(members, ToCell(request->goal()));
  if (plan.ok()) {
    ToProto(plan->goal, response->mutable_goal());
    for (const live::Cell& c : plan->corridor) ToProto(c, response->add_corridor());
    for (const live::MemberPath& m : plan->members) {
      walk::v1::MemberPath* out = response->add_members();
      out->set_route(live::GroupRouteName(m.route));
      out->set_cost(m.cost);
      for (const live::Cell& c : m.waypoints) ToProto(c, out->add_waypoints());
    }
    response->set_shared(plan->shared);
    response->set_individual(plan->individual);
  }
  Finish(reactor, "PathGroup", plan.status());
  return reactor;
}

}  // namespace walk::server
