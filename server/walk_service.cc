#include "server/walk_service.h"

#include <chrono>
#include <memory>

#include "absl/strings/str_cat.h"
#include "nav/answer_walk.h"
#include "nav/danger.h"
#include "nav/snap.h"
#include "server/grpc_status.h"
#include "server/proto_convert.h"
#include "store/model_hash.h"

namespace walk::server {
namespace {

using Clock = std::chrono::steady_clock;

// Most columns one Floors call may ask about.
constexpr std::uint64_t kMaxFloorColumns = 65536;

// A finisher for a unary call: records the request's metrics, then finishes the reactor.
std::function<void(const absl::Status&)> Finisher(grpc::ServerUnaryReactor* reactor,
                                                  WalkMetrics& metrics, const char* method) {
  const Clock::time_point start = Clock::now();
  return [reactor, start, &metrics, method](const absl::Status& status) {
    const grpc::Status reply = ToGrpcStatus(status);
    metrics.RecordRequest(method, GrpcCodeName(reply.error_code()),
                          std::chrono::duration<double>(Clock::now() - start).count());
    reactor->Finish(reply);
  };
}

}  // namespace

void WalkServiceImpl::AnswerOnPool(grpc::CallbackServerContext* context,
                                   const walk::v1::WalkRequest& request,
                                   const std::string& field_prefix,
                                   walk::v1::WalkResponse* response, walk::v1::PathResponse* path,
                                   std::function<void(const absl::Status&)> finish) {
  if (absl::Status valid = ValidateWalkRequest(request, field_prefix); !valid.ok()) {
    finish(valid);
    return;
  }
  absl::StatusOr<std::shared_ptr<const ServedWorld>> world = worlds_.Find(request.world());
  if (!world.ok()) {
    finish(absl::Status(world.status().code(), field_prefix + std::string(world.status().message())));
    return;
  }
  const nav::Metric* metric = (*world)->MetricFor(request.profile(), request.band());
  WalkMetrics& metrics = metrics_;
  pool_.Submit([context, &request, response, path, metric, world = *std::move(world),
                finish = std::move(finish), &metrics](nav::Walker& walker) {
    if (context->IsCancelled()) {
      finish(absl::CancelledError("the call was cancelled before its search ran"));
      return;
    }
    nav::WalkOptions options;
    options.want_path = path != nullptr;
    absl::StatusOr<nav::WalkAnswer> answer = nav::AnswerWalk(
        world->world, *metric, ToPlace(request.from()), ToPlace(request.to()), walker, options);
    if (!answer.ok()) {
      finish(answer.status());
      return;
    }
    metrics.RecordWalk(*answer);
    ToProto(*answer, response);
    response->set_band(request.band());
    response->set_model_id(nav::FormatId(store::ModelHash({world->world.content_id, metric})));
    if (path != nullptr && answer->path) ToProto(*answer->path, path);
    finish(absl::OkStatus());
  });
}

grpc::ServerUnaryReactor* WalkServiceImpl::Walk(grpc::CallbackServerContext* context,
                                                const walk::v1::WalkRequest* request,
                                                walk::v1::WalkResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  AnswerOnPool(context, *request, "", response, nullptr, Finisher(reactor, metrics_, "Walk"));
  return reactor;
}

grpc::ServerUnaryReactor* WalkServiceImpl::Path(grpc::CallbackServerContext* context,
                                                const walk::v1::PathRequest* request,
                                                walk::v1::PathResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  AnswerOnPool(context, request->walk(), "walk.", response->mutable_walk(), response,
               Finisher(reactor, metrics_, "Path"));
  return reactor;
}

grpc::ServerUnaryReactor* WalkServiceImpl::Floors(grpc::CallbackServerContext* context,
                                                  const walk::v1::FloorsRequest* request,
                                                  walk::v1::FloorsResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto finish = Finisher(reactor, metrics_, "Floors");
  if (request->world().empty()) {
    finish(absl::InvalidArgumentError("world: required"));
    return reactor;
  }
  if (!request->has_place()) {
    finish(absl::InvalidArgumentError("place: required"));
    return reactor;
  }
  const std::uint64_t wide = std::max<std::uint32_t>(1, request->columns_x());
  const std::uint64_t high = std::max<std::uint32_t>(1, request->columns_y());
  const std::uint64_t stride = std::max<std::uint32_t>(1, request->stride());
  if (((wide + stride - 1) / stride) * ((high + stride - 1) / stride) > kMaxFloorColumns) {
    finish(absl::InvalidArgumentError(absl::StrCat(
        "columns_x: a Floors call returns at most ", kMaxFloorColumns,
        " columns (columns_x / stride x columns_y / stride); raise stride")));
    return reactor;
  }
  absl::StatusOr<std::shared_ptr<const ServedWorld>> world = worlds_.Find(request->world());
  if (!world.ok()) {
    finish(world.status());
    return reactor;
  }
  const nav::World& w = (*world)->world;
  const nav::Place place = ToPlace(request->place());
  if (absl::Status valid = nav::ValidatePlace(place, w.column_yards, "place"); !valid.ok()) {
    finish(valid);
    return reactor;
  }
  const nav::Continent* c = w.FindContinent(place.continent);
  if (c == nullptr) {
    finish(absl::NotFoundError(absl::StrCat("place.continent: the world has no continent ", place.continent)));
    return reactor;
  }
  const auto x0 = static_cast<std::int64_t>(place.x_yards / w.column_yards);
  const auto y0 = static_cast<std::int64_t>(place.y_yards / w.column_yards);
  const auto step = static_cast<std::int64_t>(stride);
  for (std::int64_t y = y0; y < y0 + static_cast<std::int64_t>(high); y += step) {
    for (std::int64_t x = x0; x < x0 + static_cast<std::int64_t>(wide); x += step) {
      if (!c->OnMap(x, y)) continue;
      ColumnToProto(*c, static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
                    response->add_columns());
    }
  }
  response->set_column_yards(w.column_yards);
  finish(absl::OkStatus());
  return reactor;
}

grpc::ServerUnaryReactor* WalkServiceImpl::Info(grpc::CallbackServerContext* context,
                                                const walk::v1::InfoRequest* request,
                                                walk::v1::InfoResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto finish = Finisher(reactor, metrics_, "Info");
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
      ci->set_lift_rides(static_cast<std::uint32_t>(c.lifts.size()));
    }
    for (const nav::Zone& zone : world.zones) {
      walk::v1::ZoneInfo* zi = info->add_zones();
      zi->set_id(zone.id);
      zi->set_name(zone.name);
      zi->set_min_level(zone.min_level);
      zi->set_max_level(zone.max_level);
    }
  }
  for (const std::string& name : nav::ProfileNames()) response->add_profiles(name);
  for (std::uint32_t band : nav::kDangerBands) response->add_bands(band);
  response->set_version(WALKD_VERSION);
  finish(absl::OkStatus());
  return reactor;
}

}  // namespace walk::server
