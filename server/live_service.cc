#include "server/live_service.h"

#include <malloc.h>

#include <filesystem>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "server/grpc_status.h"
#include "server/live_convert.h"
#include "server/live_world_convert.h"
#include "server/live_world_folder.h"

namespace walk::server {

namespace live = nav::live;

LiveServiceImpl::LiveServiceImpl(const LiveServiceOptions& options, WalkMetrics& metrics,
                                 const CallAuth& auth)
    : options_(options),
      metrics_(metrics),
      auth_(auth),
      wire_(WireRulesFor(options)),
      worlds_(options.limits, options.world),
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
  rules.create_world.type = walk::v1::CreateWorldRequest::descriptor();
  rules.reset_world.type = walk::v1::ResetWorldRequest::descriptor();
  rules.drop_world.type = walk::v1::DropWorldRequest::descriptor();
  rules.list_worlds.type = walk::v1::ListWorldsRequest::descriptor();
  rules.cell_at.type = walk::v1::CellAtRequest::descriptor();
  rules.work_cell.type = walk::v1::WorkCellRequest::descriptor();
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
  if (!options.dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(options.dir, ec)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--live-worlds: ", options.dir, " is not a folder"));
    }
    auto folders = ReadLiveWorlds(options.dir, /*clean_leftovers=*/false);
    if (!folders.ok()) {
      return absl::Status(folders.status().code(),
                          absl::StrCat("--live-worlds: ", folders.status().message()));
    }
    for (auto& [name, source] : *folders) {
      auto added = service->worlds_.Add(name, std::move(source), live::WorldKind::kFolder);
      if (!added.ok()) {
        return absl::Status(added.status().code(),
                            absl::StrCat("--live-worlds: ", options.dir, "/", name, ": ",
                                         added.status().message()));
      }
    }
  }
  service->LoadCreatedWorlds();
  service->fallbacks_.Start();
  service->ExportCounters();  // live worlds show in the metrics before their first call
  return service;
}

void LiveServiceImpl::LoadCreatedWorlds() {
  if (options_.created_dir.empty()) return;
  auto created = ReadLiveWorlds(options_.created_dir, /*clean_leftovers=*/true);
  if (!created.ok()) {
    std::cerr << absl::StrCat("walkd: created live worlds not loaded: ", created.status().message(),
                              "\n");
    return;
  }
  for (auto& [name, source] : *created) {
    auto added = worlds_.Add(name, std::move(source), live::WorldKind::kCreated);
    if (!added.ok()) {
      std::cerr << absl::StrCat("walkd: created live world ", options_.created_dir, "/", name,
                                " not loaded (left on disk): ", added.status().message(), "\n");
    }
  }
}

std::vector<std::string> LiveServiceImpl::world_names() const { return worlds_.Names(); }

void LiveServiceImpl::Describe(walk::v1::InfoResponse* out) const {
  for (const live::LiveWorldEntry& entry : worlds_.List()) {
    ToProto(entry, fallbacks_.Waiting(entry.world.get()), out->add_live_worlds());
  }
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
  const std::vector<live::LiveWorldEntry> entries = worlds_.List();
  for (const live::LiveWorldEntry& entry : entries) {
    const std::string& name = entry.name;
    const live::LiveCounters c = entry.world->Counters();
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
                                       std::pair{"recovered_start", c.recovered_starts},
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
    metrics_.SetLiveWorldBytes(name, entry.world->MemoryBytes());
  }
  metrics_.SetLiveWorlds(entries.size());
  metrics_.SetLiveFallbacksWaiting(fallbacks_.Counters().waiting);
}

void LiveServiceImpl::ReleaseWorld(std::shared_ptr<live::LiveWorld> world) {
  std::weak_ptr<live::LiveWorld> watch = world;
  world.reset();
  // A world's per-cell arrays sit among the small blocks other worlds' calls allocate meanwhile,
  // so the heap keeps their pages after they are freed; trimming hands the free pages back.
  // A call still holding the world frees it later, untrimmed (the next drop trims it).
  if (watch.expired()) malloc_trim(0);
}

void LiveServiceImpl::RestartCounters(const std::string& name, bool forget) {
  std::lock_guard<std::mutex> lock(counters_mu_);
  for (auto it = exported_.lower_bound({name, ""});
       it != exported_.end() && it->first.first == name;) {
    if (forget) {
      it = exported_.erase(it);
    } else {
      (it++)->second = 0;
    }
  }
  if (forget) metrics_.ForgetLiveWorld(name);
}

namespace {

// A place of a request: its cell field or its point twin (see ToPlace).
absl::StatusOr<live::Cell> Place(const live::LiveWorld& world, bool has_cell,
                                 const walk::v1::Cell& cell, bool has_point,
                                 const walk::v1::LivePoint& point, const char* name) {
  return ToPlace(world, has_cell ? &cell : nullptr, has_point ? &point : nullptr, name,
                 absl::StrCat(name, "_point"));
}

}  // namespace

absl::Status LiveServiceImpl::AnswerLivePath(const walk::v1::LivePathRequest& request,
                                             walk::v1::LivePathResponse* response) {
  auto world = worlds_.Find(request.world());
  if (!world.ok()) return world.status();
  auto path_request = ToLivePathRequest(request, **world);
  if (!path_request.ok()) return path_request.status();
  auto path = (*world)->FindPath(*path_request);
  if (path.ok()) ToProto(*path, (*world)->frame(), response);
  return path.status();
}

absl::Status LiveServiceImpl::AnswerUpdateBlockers(const walk::v1::UpdateBlockersRequest& request,
                                                   walk::v1::UpdateBlockersResponse* response) {
  auto world = worlds_.Find(request.world());
  if (!world.ok()) return world.status();
  auto changes = ToBlockerChanges(request, (*world)->frame());
  if (!changes.ok()) return changes.status();
  auto result = (*world)->UpdateBlockers(*changes);
  if (result.ok()) ToProto(*result, response);
  return result.status();
}

absl::Status LiveServiceImpl::AnswerNearest(const walk::v1::NearestRequest& request,
                                            walk::v1::NearestResponse* response) {
  auto world = worlds_.Find(request.world());
  if (!world.ok()) return world.status();
  auto passability = ToPassability(request.passability(), "passability");
  if (!passability.ok()) return passability.status();
  auto at = Place(**world, request.has_cell(), request.cell(), request.has_point(), request.point(),
                  "cell");
  if (!at.ok()) return at.status();
  auto radius = ToCellLength(request.radius(), request.units(), (*world)->frame(), "radius");
  if (!radius.ok()) return radius.status();
  auto cell = (*world)->Nearest(*at, *passability, *radius);
  if (!cell.ok()) return cell.status();
  ToProto(*cell, response->mutable_cell());
  ToProto((*world)->frame().Centre(*cell), response->mutable_point());
  return absl::OkStatus();
}

absl::Status LiveServiceImpl::AnswerReachable(const walk::v1::ReachableRequest& request,
                                              walk::v1::ReachableResponse* response) {
  auto world = worlds_.Find(request.world());
  if (!world.ok()) return world.status();
  auto passability = ToPassability(request.passability(), "passability");
  if (!passability.ok()) return passability.status();
  auto a =
      Place(**world, request.has_a(), request.a(), request.has_a_point(), request.a_point(), "a");
  if (!a.ok()) return a.status();
  auto b =
      Place(**world, request.has_b(), request.b(), request.has_b_point(), request.b_point(), "b");
  if (!b.ok()) return b.status();
  auto radius = ToCellLength(request.radius(), request.units(), (*world)->frame(), "radius");
  if (!radius.ok()) return radius.status();
  auto reachable = (*world)->Reachable(*a, *b, *passability, *radius);
  if (reachable.ok()) {
    response->set_reachable(*reachable);
    response->set_revision((*world)->revision());
  }
  return reachable.status();
}

absl::Status LiveServiceImpl::PlanGroup(const walk::v1::PathGroupRequest& request,
                                        walk::v1::PathGroupResponse* response) {
  auto world = worlds_.Find(request.world());
  if (!world.ok()) return world.status();
  std::shared_ptr<live::LiveWorld> where = *world;
  auto members = ToGroupMembers(request, *where);
  if (!members.ok()) return members.status();
  auto goal = Place(*where, request.has_goal(), request.goal(), request.has_goal_point(),
                    request.goal_point(), "goal");
  if (!goal.ok()) return goal.status();
  std::optional<live::GroupFormation> formation;
  if (request.has_formation()) {
    auto f = ToFormation(request.formation(), request.units(), where->frame());
    if (!f.ok()) return f.status();
    formation = *std::move(f);
  }
  auto radius = ToCellLength(request.radius(), request.units(), where->frame(), "radius");
  if (!radius.ok()) return radius.status();
  auto half_width = ToCellLength(request.formation_half_width(), request.units(), where->frame(),
                                 "formation_half_width");
  if (!half_width.ok()) return half_width.status();
  auto plan = where->PathGroup(
      *members, *goal, formation ? &*formation : nullptr,
      [&](const live::DeferredSearch& search) { return fallbacks_.IsWaiting(where.get(), search); },
      *radius, *half_width);
  if (!plan.ok()) return plan.status();
  for (const live::DeferredSearch& search : plan->deferred_requests) fallbacks_.Push(where, search);
  ToProto(*plan, where->frame(), response);
  response->set_revision(plan->revision);
  return absl::OkStatus();
}

absl::Status LiveServiceImpl::AnswerFormationTargets(
    const walk::v1::FormationTargetsRequest& request,
    walk::v1::FormationTargetsResponse* response) {
  auto world = worlds_.Find(request.world());
  if (!world.ok()) return world.status();
  auto passability = ToPassability(request.passability(), "passability");
  if (!passability.ok()) return passability.status();
  auto center = Place(**world, request.has_center(), request.center(), request.has_center_point(),
                      request.center_point(), "center");
  if (!center.ok()) return center.status();
  std::optional<live::Cell> from;
  if (request.has_from() || request.has_from_point()) {
    auto f = Place(**world, request.has_from(), request.from(), request.has_from_point(),
                   request.from_point(), "from");
    if (!f.ok()) return f.status();
    from = *f;
  }
  auto formation = ToFormation(request.formation(), request.units(), (*world)->frame());
  if (!formation.ok()) return formation.status();
  auto radius = ToCellLength(request.radius(), request.units(), (*world)->frame(), "radius");
  if (!radius.ok()) return radius.status();
  auto plan = (*world)->FormationTargets(*center, *formation, *passability, from, *radius);
  if (!plan.ok()) return plan.status();
  ToProto(*plan, (*world)->frame(), response);
  response->set_revision(plan->revision);
  return absl::OkStatus();
}

absl::Status LiveServiceImpl::AnswerCreateWorld(const walk::v1::CreateWorldRequest& request,
                                                walk::v1::CreateWorldResponse* response) {
  if (absl::Status s = worlds_.CheckName(request.name()); !s.ok()) return s;
  auto source = ToLiveWorldSource(request);
  if (!source.ok()) return source.status();
  std::function<absl::Status(const live::LiveWorldSource&)> keep;
  if (!options_.created_dir.empty()) {
    keep = [&](const live::LiveWorldSource& made) {
      return WriteCreatedWorld(options_.created_dir, request.name(), made);
    };
  }
  auto entry = worlds_.Add(request.name(), *std::move(source), live::WorldKind::kCreated, keep);
  if (!entry.ok()) return entry.status();
  ToProto(*entry, 0, response->mutable_world());
  response->set_note(options_.created_dir.empty()
                         ? "not kept: walkd has no data folder; a restart loses this world"
                         : "kept in its created state: a restart brings back the map and layers "
                           "it was created with, not blocker updates made since");
  if (options_.on_worlds_changed) options_.on_worlds_changed(worlds_.Names());
  return absl::OkStatus();
}

absl::Status LiveServiceImpl::AnswerResetWorld(const walk::v1::ResetWorldRequest& request,
                                               walk::v1::ResetWorldResponse* response) {
  auto before = worlds_.Find(request.world());
  if (!before.ok()) return before.status();
  auto entry = worlds_.Reset(request.world());
  if (!entry.ok()) return entry.status();
  fallbacks_.Forget(before->get());
  ReleaseWorld(*std::move(before));
  RestartCounters(request.world(), /*forget=*/false);
  ToProto(*entry, 0, response->mutable_world());
  return absl::OkStatus();
}

absl::Status LiveServiceImpl::AnswerDropWorld(const walk::v1::DropWorldRequest& request,
                                              walk::v1::DropWorldResponse* response) {
  if (request.world().empty()) return absl::InvalidArgumentError("world: required");
  auto entry = worlds_.Drop(request.world());
  if (!entry.ok()) return entry.status();
  response->set_memory_bytes(entry->world->MemoryBytes());
  fallbacks_.Forget(entry->world.get());
  ReleaseWorld(std::move(entry->world));
  RestartCounters(request.world(), /*forget=*/true);
  if (options_.on_worlds_changed) options_.on_worlds_changed(worlds_.Names());
  if (entry->kind == live::WorldKind::kCreated && !options_.created_dir.empty()) {
    return RemoveCreatedWorld(options_.created_dir, request.world());
  }
  return absl::OkStatus();
}

absl::Status LiveServiceImpl::AnswerListWorlds(const walk::v1::ListWorldsRequest& /*request*/,
                                               walk::v1::ListWorldsResponse* response) {
  for (const live::LiveWorldEntry& entry : worlds_.List()) {
    ToProto(entry, fallbacks_.Waiting(entry.world.get()), response->add_worlds());
  }
  return absl::OkStatus();
}

absl::Status LiveServiceImpl::AnswerCellAt(const walk::v1::CellAtRequest& request,
                                           walk::v1::CellAtResponse* response) {
  auto world = worlds_.Find(request.world());
  if (!world.ok()) return world.status();
  auto cell = Place(**world, request.has_cell(), request.cell(), request.has_point(),
                    request.point(), "cell");
  if (!cell.ok()) return cell.status();
  auto report = (*world)->Describe(*cell);
  if (report.ok()) ToProto(*report, (*world)->frame(), response);
  return report.status();
}

absl::Status LiveServiceImpl::AnswerWorkCell(const walk::v1::WorkCellRequest& request,
                                             walk::v1::WorkCellResponse* response) {
  auto world = worlds_.Find(request.world());
  if (!world.ok()) return world.status();
  auto passability = ToPassability(request.passability(), "passability");
  if (!passability.ok()) return passability.status();
  auto target = Place(**world, request.has_target(), request.target(), request.has_target_point(),
                      request.target_point(), "target");
  if (!target.ok()) return target.status();
  auto unit = Place(**world, request.has_unit(), request.unit(), request.has_unit_point(),
                    request.unit_point(), "unit");
  if (!unit.ok()) return unit.status();
  auto radius = ToCellLength(request.radius(), request.units(), (*world)->frame(), "radius");
  if (!radius.ok()) return radius.status();
  auto answer = (*world)->WorkCell(*target, *unit, *passability, nullptr, *radius);
  if (answer.ok()) ToProto(*answer, (*world)->frame(), response);
  return answer.status();
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

grpc::ServerUnaryReactor* LiveServiceImpl::CreateWorld(grpc::CallbackServerContext* context,
                                                       const grpc::ByteBuffer* request,
                                                       grpc::ByteBuffer* response) {
  return Serve<walk::v1::CreateWorldRequest, walk::v1::CreateWorldResponse>(
      "CreateWorld", Access::kWrite, wire_.create_world, context, *request, response,
      &LiveServiceImpl::AnswerCreateWorld);
}

grpc::ServerUnaryReactor* LiveServiceImpl::ResetWorld(grpc::CallbackServerContext* context,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  return Serve<walk::v1::ResetWorldRequest, walk::v1::ResetWorldResponse>(
      "ResetWorld", Access::kWrite, wire_.reset_world, context, *request, response,
      &LiveServiceImpl::AnswerResetWorld);
}

grpc::ServerUnaryReactor* LiveServiceImpl::DropWorld(grpc::CallbackServerContext* context,
                                                     const grpc::ByteBuffer* request,
                                                     grpc::ByteBuffer* response) {
  return Serve<walk::v1::DropWorldRequest, walk::v1::DropWorldResponse>(
      "DropWorld", Access::kWrite, wire_.drop_world, context, *request, response,
      &LiveServiceImpl::AnswerDropWorld);
}

grpc::ServerUnaryReactor* LiveServiceImpl::ListWorlds(grpc::CallbackServerContext* context,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  return Serve<walk::v1::ListWorldsRequest, walk::v1::ListWorldsResponse>(
      "ListWorlds", Access::kRead, wire_.list_worlds, context, *request, response,
      &LiveServiceImpl::AnswerListWorlds);
}

grpc::ServerUnaryReactor* LiveServiceImpl::CellAt(grpc::CallbackServerContext* context,
                                                  const grpc::ByteBuffer* request,
                                                  grpc::ByteBuffer* response) {
  return Serve<walk::v1::CellAtRequest, walk::v1::CellAtResponse>(
      "CellAt", Access::kRead, wire_.cell_at, context, *request, response,
      &LiveServiceImpl::AnswerCellAt);
}

grpc::ServerUnaryReactor* LiveServiceImpl::WorkCell(grpc::CallbackServerContext* context,
                                                    const grpc::ByteBuffer* request,
                                                    grpc::ByteBuffer* response) {
  return Serve<walk::v1::WorkCellRequest, walk::v1::WorkCellResponse>(
      "WorkCell", Access::kRead, wire_.work_cell, context, *request, response,
      &LiveServiceImpl::AnswerWorkCell);
}

}  // namespace walk::server
