#include "server/walk_service.h"

#include <chrono>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "nav/answer_walk.h"
#include "nav/profile.h"
#include "server/grpc_status.h"
#include "store/model_hash.h"

namespace walk::server {
namespace {

using Clock = std::chrono::steady_clock;

nav::Place ToPlace(const walk::v1::Place& place) {
  nav::Place p;
  p.continent = place.continent();
  p.x_yards = place.x_yards();
  p.y_yards = place.y_yards();
  if (place.has_z_yards()) p.z_yards = place.z_yards();
  return p;
}

walk::v1::WalkStatus ToProto(nav::WalkStatus status) {
  switch (status) {
    case nav::WalkStatus::kOk: return walk::v1::WALK_STATUS_OK;
    case nav::WalkStatus::kNoWalk: return walk::v1::WALK_STATUS_NO_WALK;
    case nav::WalkStatus::kOffMap: return walk::v1::WALK_STATUS_OFF_MAP;
    case nav::WalkStatus::kNoSurface: return walk::v1::WALK_STATUS_NO_SURFACE;
  }
  return walk::v1::WALK_STATUS_UNSPECIFIED;
}

walk::v1::Method ToProto(nav::Method method) {
  switch (method) {
    case nav::Method::kTrivial: return walk::v1::METHOD_TRIVIAL;
    case nav::Method::kRegions: return walk::v1::METHOD_REGIONS;
    case nav::Method::kFineGrid: return walk::v1::METHOD_FINE_GRID;
  }
  return walk::v1::METHOD_UNSPECIFIED;
}

void ToProto(const nav::End& end, walk::v1::End* out) {
  out->set_column_x(end.column_x);
  out->set_column_y(end.column_y);
  out->set_level(end.level);
  out->set_surface_z_yards(end.surface_z_yards);
  out->set_region(end.region);
}

void ToProto(const nav::WalkAnswer& answer, walk::v1::WalkResponse* out) {
  out->set_status(ToProto(answer.status));
  out->set_method(ToProto(answer.method));
  if (answer.status == nav::WalkStatus::kOk) {
    out->set_seconds(answer.seconds);
    out->set_yards(answer.yards);
  }
  if (answer.from_end) ToProto(*answer.from_end, out->mutable_from_end());
  if (answer.to_end) ToProto(*answer.to_end, out->mutable_to_end());
  out->set_nodes_expanded(answer.stats.nodes_expanded);
}

// The request's fields that need no world: present ends, a known profile.
absl::Status ValidateWalkRequest(const walk::v1::WalkRequest& request) {
  if (request.world().empty()) return absl::InvalidArgumentError("world: required");
  if (!request.has_from()) return absl::InvalidArgumentError("from: required");
  if (!request.has_to()) return absl::InvalidArgumentError("to: required");
  if (nav::FindProfile(request.profile()) == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("profile: unknown profile '", request.profile(),
                                                   "' (known: ",
                                                   absl::StrJoin(nav::ProfileNames(), ", "), ")"));
  }
  return absl::OkStatus();
}

}  // namespace

grpc::ServerUnaryReactor* WalkServiceImpl::Walk(grpc::CallbackServerContext* context,
                                                const walk::v1::WalkRequest* request,
                                                walk::v1::WalkResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const Clock::time_point start = Clock::now();
  WalkMetrics& metrics = metrics_;
  auto finish = [reactor, start, &metrics](const absl::Status& status) {
    const grpc::Status reply = ToGrpcStatus(status);
    metrics.RecordRequest("Walk", GrpcCodeName(reply.error_code()),
                          std::chrono::duration<double>(Clock::now() - start).count());
    reactor->Finish(reply);
  };

  if (absl::Status valid = ValidateWalkRequest(*request); !valid.ok()) {
    finish(valid);
    return reactor;
  }
  absl::StatusOr<std::shared_ptr<const ServedWorld>> world = worlds_.Find(request->world());
  if (!world.ok()) {
    finish(world.status());
    return reactor;
  }
  const nav::Profile* profile = nav::FindProfile(request->profile());
  pool_.Submit([context, request, response, profile, world = *std::move(world), finish,
                &metrics](nav::Walker& walker) {
    if (context->IsCancelled()) {
      finish(absl::CancelledError("the call was cancelled before its search ran"));
      return;
    }
    absl::StatusOr<nav::WalkAnswer> answer = nav::AnswerWalk(
        world->world, *profile, ToPlace(request->from()), ToPlace(request->to()), walker);
    if (!answer.ok()) {
      finish(answer.status());
      return;
    }
    metrics.RecordWalk(*answer);
    ToProto(*answer, response);
    response->set_model_id(nav::FormatId(store::ModelHash({world->world.content_id, profile})));
    finish(absl::OkStatus());
  });
  return reactor;
}

grpc::ServerUnaryReactor* WalkServiceImpl::Info(grpc::CallbackServerContext* context,
                                                const walk::v1::InfoRequest* request,
                                                walk::v1::InfoResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  const Clock::time_point start = Clock::now();
  for (const WorldStatus& w : worlds_.Snapshot()) {
    walk::v1::WorldInfo* info = response->add_worlds();
    info->set_name(w.name);
    switch (w.state) {
      case WorldState::kLoading: info->set_state(walk::v1::WORLD_STATE_LOADING); break;
      case WorldState::kReady: info->set_state(walk::v1::WORLD_STATE_READY); break;
      case WorldState::kFailed: info->set_state(walk::v1::WORLD_STATE_FAILED); break;
    }
    info->set_error(w.error);
    info->set_source(w.served ? w.served->source : w.dir);
    if (!w.served) continue;
    const nav::World& world = w.served->world;
    info->set_content_id(nav::FormatId(world.content_id));
    info->set_column_yards(world.column_yards);
    info->set_memory_bytes(world.MemoryBytes());
    for (std::size_t k = 0; k < world.continents.size(); ++k) {
      const nav::Continent& c = world.continents[k];
      walk::v1::ContinentInfo* ci = info->add_continents();
      ci->set_id(c.id);
      ci->set_tiles_x(c.tiles_x);
      ci->set_tiles_y(c.tiles_y);
      ci->set_tiles(static_cast<std::uint32_t>(c.tiles.size()));
      ci->set_columns(w.served->columns[k]);
      ci->set_surfaces(c.surface_count());
      ci->set_regions(c.region_count());
      ci->set_max_floors(w.served->max_floors[k]);
    }
  }
  for (const std::string& name : nav::ProfileNames()) response->add_profiles(name);
  response->set_version(WALKD_VERSION);
  metrics_.RecordRequest("Info", "OK", std::chrono::duration<double>(Clock::now() - start).count());
  reactor->Finish(grpc::Status::OK);
  return reactor;
}

}  // namespace walk::server
