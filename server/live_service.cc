#include "server/live_service.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "server/grpc_status.h"
#include "server/live_convert.h"

namespace walk::server {

namespace live = nav::live;

LiveServiceImpl::LiveServiceImpl(const LiveServiceOptions& options, WalkMetrics& metrics,
                                 const CallAuth& auth)
    : options_(options), metrics_(metrics), auth_(auth), fallbacks_(options.fallbacks) {}

absl::StatusOr<std::unique_ptr<LiveServiceImpl>> LiveServiceImpl::Create(
    const LiveServiceOptions& options, WalkMetrics& metrics, const CallAuth& auth) {
  std::unique_ptr<LiveServiceImpl> service(new LiveServiceImpl(options, metrics, auth));
  const std::string& dir = options.dir;
  if (dir.empty()) return service;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return absl::InvalidArgumentError(absl::StrCat("--live-worlds: ", dir, " is not a folder"));
  }
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const auto map = entry.path() / "map.map";
    if (!entry.is_directory() || !std::filesystem::exists(map)) continue;
    const auto layers = entry.path() / "layers.txt";
    auto world = live::LiveWorld::Create(
        map.string(), std::filesystem::exists(layers) ? layers.string() : "", options.world);
    if (!world.ok()) {
      return absl::Status(world.status().code(),
                          absl::StrCat("--live-worlds: ", world.status().message()));
    }
    service->worlds_[entry.path().filename().string()] = *std::move(world);
  }
  service->fallbacks_.Start();
  service->ExportCounters();  // live worlds show in the metrics before their first call
  return service;
}

std::vector<std::string> LiveServiceImpl::world_names() const {
  std::vector<std::string> names;
  for (const auto& [name, world] : worlds_) names.push_back(name);
  return names;
}

void LiveServiceImpl::Describe(walk::v1::InfoResponse* out) const {
  for (const auto& [name, world] : worlds_) {
    const live::LiveCounters c = world->Counters();
    walk::v1::LiveWorldInfo* info = out->add_live_worlds();
    info->set_name(name);
    info->set_width(world->width());
    info->set_height(world->height());
    info->set_cell_size(world->cell_size());
    info->set_revision(c.revision);
    info->set_footprints(world->footprint_count());
    info->set_path_cache_entries(c.cache_entries);
    info->set_unit_routes(c.unit_routes);
    info->set_fallbacks_waiting(fallbacks_.Waiting(world.get()));
  }
}

absl::StatusOr<live::LiveWorld*> LiveServiceImpl::Find(const std::string& name) const {
  if (name.empty()) return absl::InvalidArgumentError("world: required");
  auto it = worlds_.find(name);
  if (it == worlds_.end())
    return absl::NotFoundError(absl::StrCat("world: no live world named '", name, "'"));
  return it->second.get();
}

bool LiveServiceImpl::Refused(grpc::CallbackServerContext* context,
                              grpc::ServerUnaryReactor* reactor, const char* method,
                              Access access) {
  absl::Status allowed = auth_.Check(*context, access);
  if (allowed.ok()) return false;
  Finish(reactor, method, allowed);
  return true;
}

void LiveServiceImpl::Finish(grpc::ServerUnaryReactor* reactor, const char* method,
                             const absl::Status& status) {
  const grpc::Status reply = ToGrpcStatus(status);
  metrics_.RecordLiveRequest(method, GrpcCodeName(reply.error_code()));
  ExportCounters();
  reactor->Finish(reply);
}

void LiveServiceImpl::ExportCounters() {
  // The worlds' cumulative counters as deltas, so the metrics are real counters.
  std::lock_guard<std::mutex> lock(counters_mu_);
  for (const auto& [name, world] : worlds_) {
    const live::LiveCounters c = world->Counters();
    for (const auto& [event, value] : {std::pair{"path", c.paths},
                                       std::pair{"cache_hit", c.cache_hits},
                                       std::pair{"cache_miss", c.cache_misses},
                                       std::pair{"cache_eviction", c.cache_evictions},
                                       std::pair{"search", c.searches},
                                       std::pair{"cell_expanded", c.cells_expanded},
                                       std::pair{"heap_operation", c.heap_operations},
                                       std::pair{"update", c.updates},
                                       std::pair{"dirty_cell_rebuilt", c.dirty_cells_rebuilt},
                                       std::pair{"ring_cell_scanned", c.ring_cells_scanned},
                                       std::pair{"region_answer", c.region_answers},
                                       std::pair{"direct_line", c.direct_lines},
                                       std::pair{"kept_route", c.kept_routes},
                                       std::pair{"step_out", c.step_outs},
                                       std::pair{"group", c.group_routes},
                                       std::pair{"group_shared", c.group_shared_members},
                                       std::pair{"group_individual", c.group_individual_members},
                                       std::pair{"fallback_deferred", c.group_deferred_members},
                                       std::pair{"fallback_served", c.fallbacks_served},
                                       std::pair{"formation", c.formations},
                                       std::pair{"slot_collapsed", c.slots_collapsed}}) {
      std::uint64_t& before = exported_[{name, event}];
      if (value > before) metrics_.RecordLiveEvents(name, event, value - before);
      before = value;
    }
    metrics_.SetLiveWorld(name, c.revision, c.cache_entries, c.unit_routes);
  }
  metrics_.SetLiveFallbacksWaiting(fallbacks_.Counters().waiting);
}

grpc::ServerUnaryReactor* LiveServiceImpl::LivePath(grpc::CallbackServerContext* context,
                                                    const walk::v1::LivePathRequest* request,
                                                    walk::v1::LivePathResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (Refused(context, reactor, "LivePath", Access::kRead)) return reactor;
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "LivePath", world.status());
    return reactor;
  }
  auto path_request = ToLivePathRequest(*request);
  if (!path_request.ok()) {
    Finish(reactor, "LivePath", path_request.status());
    return reactor;
  }
  auto path = (*world)->FindPath(*path_request);
  if (path.ok()) ToProto(*path, response);
  Finish(reactor, "LivePath", path.status());
  return reactor;
}

grpc::ServerUnaryReactor* LiveServiceImpl::UpdateBlockers(
    grpc::CallbackServerContext* context, const walk::v1::UpdateBlockersRequest* request,
    walk::v1::UpdateBlockersResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (Refused(context, reactor, "UpdateBlockers", Access::kWrite)) return reactor;
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "UpdateBlockers", world.status());
    return reactor;
  }
  auto changes = ToBlockerChanges(*request);
  if (!changes.ok()) {
    Finish(reactor, "UpdateBlockers", changes.status());
    return reactor;
  }
  auto result = (*world)->UpdateBlockers(*changes);
  if (result.ok()) ToProto(*result, response);
  Finish(reactor, "UpdateBlockers", result.status());
  return reactor;
}

grpc::ServerUnaryReactor* LiveServiceImpl::Nearest(grpc::CallbackServerContext* context,
                                                   const walk::v1::NearestRequest* request,
                                                   walk::v1::NearestResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (Refused(context, reactor, "Nearest", Access::kRead)) return reactor;
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "Nearest", world.status());
    return reactor;
  }
  auto passability = ToPassability(request->passability(), "passability");
  if (!passability.ok()) {
    Finish(reactor, "Nearest", passability.status());
    return reactor;
  }
  auto cell = (*world)->Nearest(ToCell(request->cell()), *passability);
  if (cell.ok()) ToProto(*cell, response->mutable_cell());
  Finish(reactor, "Nearest", cell.status());
  return reactor;
}

grpc::ServerUnaryReactor* LiveServiceImpl::Reachable(grpc::CallbackServerContext* context,
                                                     const walk::v1::ReachableRequest* request,
                                                     walk::v1::ReachableResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (Refused(context, reactor, "Reachable", Access::kRead)) return reactor;
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "Reachable", world.status());
    return reactor;
  }
  auto passability = ToPassability(request->passability(), "passability");
  if (!passability.ok()) {
    Finish(reactor, "Reachable", passability.status());
    return reactor;
  }
  auto reachable = (*world)->Reachable(ToCell(request->a()), ToCell(request->b()), *passability);
  if (reachable.ok()) {
    response->set_reachable(*reachable);
    response->set_revision((*world)->revision());
  }
  Finish(reactor, "Reachable", reachable.status());
  return reactor;
}

absl::Status LiveServiceImpl::PlanGroup(const walk::v1::PathGroupRequest& request,
                                        walk::v1::PathGroupResponse* response) {
  if (static_cast<std::uint64_t>(request.starts_size()) > options_.max_group_starts) {
    return absl::ResourceExhaustedError(absl::StrCat("max-group-starts: a group has at most ",
                                                     options_.max_group_starts, " starts (",
                                                     request.starts_size(), " here); split it"));
  }
  auto world = Find(request.world());
  if (!world.ok()) return world.status();
  auto members = ToGroupMembers(request);
  if (!members.ok()) return members.status();
  std::optional<live::GroupFormation> formation;
  if (request.has_formation()) formation = ToFormation(request.formation());
  live::LiveWorld* const where = *world;
  auto plan = where->PathGroup(
      *members, ToCell(request.goal()), formation ? &*formation : nullptr,
      [&](const live::DeferredSearch& search) { return fallbacks_.IsWaiting(where, search); });
  if (!plan.ok()) return plan.status();
  for (const live::DeferredSearch& search : plan->deferred_requests) {
    fallbacks_.Push(*world, search);
  }
  ToProto(*plan, response);
  response->set_revision(plan->revision);
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* LiveServiceImpl::PathGroup(grpc::CallbackServerContext* context,
                                                     const walk::v1::PathGroupRequest* request,
                                                     walk::v1::PathGroupResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (Refused(context, reactor, "PathGroup", Access::kRead)) return reactor;
  Finish(reactor, "PathGroup", PlanGroup(*request, response));
  return reactor;
}

grpc::ServerUnaryReactor* LiveServiceImpl::FormationTargets(
    grpc::CallbackServerContext* context, const walk::v1::FormationTargetsRequest* request,
    walk::v1::FormationTargetsResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  if (Refused(context, reactor, "FormationTargets", Access::kRead)) return reactor;
  const absl::Status status = [&]() -> absl::Status {
    if (static_cast<std::uint64_t>(request->formation().slots_size()) > options_.max_group_starts) {
      return absl::ResourceExhaustedError(
          absl::StrCat("max-group-starts: a formation has at most ", options_.max_group_starts,
                       " slots (", request->formation().slots_size(), " here)"));
    }
    auto world = Find(request->world());
    if (!world.ok()) return world.status();
    auto passability = ToPassability(request->passability(), "passability");
    if (!passability.ok()) return passability.status();
    std::optional<live::Cell> from;
    if (request->has_from()) from = ToCell(request->from());
    auto plan = (*world)->FormationTargets(ToCell(request->center()),
                                           ToFormation(request->formation()), *passability, from);
    if (!plan.ok()) return plan.status();
    ToProto(*plan, response);
    response->set_revision(plan->revision);
    return absl::OkStatus();
  }();
  Finish(reactor, "FormationTargets", status);
  return reactor;
}

}  // namespace walk::server
