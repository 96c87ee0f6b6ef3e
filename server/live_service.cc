#include "server/live_service.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "server/grpc_status.h"
#include "server/live_convert.h"

namespace walk::server {

namespace live = nav::live;

LiveServiceImpl::LiveServiceImpl(const LiveServiceOptions& options, WalkMetrics& metrics,
                                 const CallAuth& auth)
    : options_(options),
      metrics_(metrics),
      auth_(auth),
      wire_(WireRulesFor(options)),
      fallbacks_(options.fallbacks) {}

LiveServiceImpl::WireRulesByRequest LiveServiceImpl::WireRulesFor(
    const LiveServiceOptions& options) {
  WireRulesByRequest rules;
  rules.live_path.type = walk::v1::LivePathRequest::descriptor();
  rules.nearest.type = walk::v1::NearestRequest::descriptor();
  rules.reachable.type = walk::v1::ReachableRequest::descriptor();
  const auto& update = *walk::v1::UpdateBlockersRequest::descriptor();
  rules.update_blockers.type = &update;
  rules.update_blockers.limits.push_back(LimitOn(update, "changes", options.max_blocker_changes,
                                                 "max-blocker-changes", "changes",
                                                 "send the changes in several calls"));
  const auto& group = *walk::v1::PathGroupRequest::descriptor();
  const auto& formation = *walk::v1::Formation::descriptor();
  rules.path_group.type = &group;
  for (const char* field : {"starts", "passabilities"}) {
    rules.path_group.limits.push_back(LimitOn(group, field, options.max_group_starts,
                                              "max-group-starts", field, "split the group"));
  }
  const WireLimit slots = LimitOn(formation, "slots", options.max_group_starts, "max-group-starts",
                                  "formation.slots", "split the formation");
  rules.path_group.limits.push_back(slots);
  rules.formation_targets.type = walk::v1::FormationTargetsRequest::descriptor();
  rules.formation_targets.limits.push_back(slots);
  return rules;
}

template <typename Request, typename Response>
grpc::ServerUnaryReactor* LiveServiceImpl::Serve(
    const char* method, Access access, const WireRules& rules, grpc::CallbackServerContext* context,
    const grpc::ByteBuffer& request, grpc::ByteBuffer* response, Answer<Request, Response> answer) {
  auto* call = new UnaryWireCall<Request, Response>(response);
  absl::Status status = auth_.Check(*context, access);
  if (status.ok()) status = call->Read(request, rules);
  if (status.ok()) status = (this->*answer)(call->request(), call->response());
  Finish(call, method, status);
  return call;
}

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

void LiveServiceImpl::Finish(UnaryWireReply* call, const char* method, const absl::Status& status) {
  const grpc::Status reply = ToGrpcStatus(status);
  metrics_.RecordLiveRequest(method, GrpcCodeName(reply.error_code()));
  ExportCounters();
  call->Reply(reply);
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

absl::Status LiveServiceImpl::AnswerLivePath(const walk::v1::LivePathRequest& request,
                                             walk::v1::LivePathResponse* response) {
  auto world = Find(request.world());
  if (!world.ok()) return world.status();
  auto path_request = ToLivePathRequest(request);
  if (!path_request.ok()) return path_request.status();
  auto path = (*world)->FindPath(*path_request);
  if (path.ok()) ToProto(*path, response);
  return path.status();
}

absl::Status LiveServiceImpl::AnswerUpdateBlockers(const walk::v1::UpdateBlockersRequest& request,
                                                   walk::v1::UpdateBlockersResponse* response) {
  auto world = Find(request.world());
  if (!world.ok()) return world.status();
  auto changes = ToBlockerChanges(request);
  if (!changes.ok()) return changes.status();
  auto result = (*world)->UpdateBlockers(*changes);
  if (result.ok()) ToProto(*result, response);
  return result.status();
}

absl::Status LiveServiceImpl::AnswerNearest(const walk::v1::NearestRequest& request,
                                            walk::v1::NearestResponse* response) {
  auto world = Find(request.world());
  if (!world.ok()) return world.status();
  auto passability = ToPassability(request.passability(), "passability");
  if (!passability.ok()) return passability.status();
  auto cell = (*world)->Nearest(ToCell(request.cell()), *passability);
  if (cell.ok()) ToProto(*cell, response->mutable_cell());
  return cell.status();
}

absl::Status LiveServiceImpl::AnswerReachable(const walk::v1::ReachableRequest& request,
                                              walk::v1::ReachableResponse* response) {
  auto world = Find(request.world());
  if (!world.ok()) return world.status();
  auto passability = ToPassability(request.passability(), "passability");
  if (!passability.ok()) return passability.status();
  auto reachable = (*world)->Reachable(ToCell(request.a()), ToCell(request.b()), *passability);
  if (reachable.ok()) {
    response->set_reachable(*reachable);
    response->set_revision((*world)->revision());
  }
  return reachable.status();
}

absl::Status LiveServiceImpl::PlanGroup(const walk::v1::PathGroupRequest& request,
                                        walk::v1::PathGroupResponse* response) {
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

absl::Status LiveServiceImpl::AnswerFormationTargets(
    const walk::v1::FormationTargetsRequest& request,
    walk::v1::FormationTargetsResponse* response) {
  auto world = Find(request.world());
  if (!world.ok()) return world.status();
  auto passability = ToPassability(request.passability(), "passability");
  if (!passability.ok()) return passability.status();
  std::optional<live::Cell> from;
  if (request.has_from()) from = ToCell(request.from());
  auto plan = (*world)->FormationTargets(ToCell(request.center()), ToFormation(request.formation()),
                                         *passability, from);
  if (!plan.ok()) return plan.status();
  ToProto(*plan, response);
  response->set_revision(plan->revision);
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* LiveServiceImpl::LivePath(grpc::CallbackServerContext* context,
                                                    const grpc::ByteBuffer* request,
                                                    grpc::ByteBuffer* response) {
  return Serve<walk::v1::LivePathRequest, walk::v1::LivePathResponse>(
      "LivePath", Access::kRead, wire_.live_path, context, *request, response,
      &LiveServiceImpl::AnswerLivePath);
}

grpc::ServerUnaryReactor* LiveServiceImpl::UpdateBlockers(grpc::CallbackServerContext* context,
                                                          const grpc::ByteBuffer* request,
                                                          grpc::ByteBuffer* response) {
  return Serve<walk::v1::UpdateBlockersRequest, walk::v1::UpdateBlockersResponse>(
      "UpdateBlockers", Access::kWrite, wire_.update_blockers, context, *request, response,
      &LiveServiceImpl::AnswerUpdateBlockers);
}

grpc::ServerUnaryReactor* LiveServiceImpl::Nearest(grpc::CallbackServerContext* context,
                                                   const grpc::ByteBuffer* request,
                                                   grpc::ByteBuffer* response) {
  return Serve<walk::v1::NearestRequest, walk::v1::NearestResponse>(
      "Nearest", Access::kRead, wire_.nearest, context, *request, response,
      &LiveServiceImpl::AnswerNearest);
}

grpc::ServerUnaryReactor* LiveServiceImpl::Reachable(grpc::CallbackServerContext* context,
                                                     const grpc::ByteBuffer* request,
                                                     grpc::ByteBuffer* response) {
  return Serve<walk::v1::ReachableRequest, walk::v1::ReachableResponse>(
      "Reachable", Access::kRead, wire_.reachable, context, *request, response,
      &LiveServiceImpl::AnswerReachable);
}

grpc::ServerUnaryReactor* LiveServiceImpl::PathGroup(grpc::CallbackServerContext* context,
                                                     const grpc::ByteBuffer* request,
                                                     grpc::ByteBuffer* response) {
  return Serve<walk::v1::PathGroupRequest, walk::v1::PathGroupResponse>(
      "PathGroup", Access::kRead, wire_.path_group, context, *request, response,
      &LiveServiceImpl::PlanGroup);
}

grpc::ServerUnaryReactor* LiveServiceImpl::FormationTargets(grpc::CallbackServerContext* context,
                                                            const grpc::ByteBuffer* request,
                                                            grpc::ByteBuffer* response) {
  return Serve<walk::v1::FormationTargetsRequest, walk::v1::FormationTargetsResponse>(
      "FormationTargets", Access::kRead, wire_.formation_targets, context, *request, response,
      &LiveServiceImpl::AnswerFormationTargets);
}

}  // namespace walk::server
