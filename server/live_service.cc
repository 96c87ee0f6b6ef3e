#include "server/live_service.h"

#include <filesystem>

#include "absl/strings/str_cat.h"
#include "server/grpc_status.h"
#include "server/proto_convert.h"

namespace walk::server {

namespace live = nav::live;

LiveServiceImpl::LiveServiceImpl(WalkMetrics& metrics, const CallAuth& auth)
    : metrics_(metrics), auth_(auth) {}

absl::StatusOr<std::unique_ptr<LiveServiceImpl>> LiveServiceImpl::Create(
    const std::string& dir, WalkMetrics& metrics, const CallAuth& auth,
    std::uint64_t max_group_starts) {
  std::unique_ptr<LiveServiceImpl> service(new LiveServiceImpl(metrics, auth));
  service->max_group_starts_ = max_group_starts;
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
  if (Refused(context, reactor, "LivePath", Access::kRead)) return reactor;
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "LivePath", world.status());
    return reactor;
  }
  auto path = (*world)->FindPath(ToLivePathRequest(*request));
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
  auto cell = (*world)->Nearest(ToCell(request->cell()), ToPassability(request->passability()));
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
  if (Refused(context, reactor, "PathGroup", Access::kRead)) return reactor;
  if (static_cast<std::uint64_t>(request->starts_size()) > max_group_starts_) {
    Finish(reactor, "PathGroup",
           absl::ResourceExhaustedError(absl::StrCat("max-group-starts: a group has at most ",
                                                     max_group_starts_, " starts (",
                                                     request->starts_size(), " here); split it")));
    return reactor;
  }
  auto world = Find(request->world());
  if (!world.ok()) {
    Finish(reactor, "PathGroup", world.status());
    return reactor;
  }
  auto members = ToGroupMembers(*request);
  if (!members.ok()) {
    Finish(reactor, "PathGroup", members.status());
    return reactor;
  }
  auto plan = (*world)->PathGroup(*members, ToCell(request->goal()));
  if (plan.ok()) ToProto(*plan, response);
  Finish(reactor, "PathGroup", plan.status());
  return reactor;
}

}  // namespace walk::server
