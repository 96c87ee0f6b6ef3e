#include "server/walk_service.h"

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "nav/cost/danger.h"
#include "nav/query/place_check.h"
#include "nav/query/snap.h"
#include "server/grpc_status.h"
#include "server/proto_convert.h"
#include "server/walk_batch.h"

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
  const StoreFirstAnswerer& answerer = answerer_;
  pool_.Submit([context, &request, field_prefix, response, path, &answerer,
                finish = std::move(finish)](nav::Searchers& searchers) {
    if (context->IsCancelled()) {
      finish(absl::CancelledError("the call was cancelled before its search ran"));
      return;
    }
    bool stored = false;
    finish(answerer.Answer(request, field_prefix, searchers, response, &stored, path));
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

grpc::ServerBidiReactor<walk::v1::WalkBatchRequest, walk::v1::WalkBatchResponse>*
WalkServiceImpl::WalkBatch(grpc::CallbackServerContext* context) {
  return new WalkBatchReactor(answerer_, pool_, metrics_);
}

grpc::ServerUnaryReactor* WalkServiceImpl::Table(grpc::CallbackServerContext* context,
                                                 const walk::v1::TableRequest* request,
                                                 walk::v1::TableResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  auto finish = Finisher(reactor, metrics_, "Table");
  const std::uint64_t sources = request->sources_size(), targets = request->targets_size();
  if (sources == 0 || targets == 0) {
    finish(absl::InvalidArgumentError(sources == 0 ? "sources: required" : "targets: required"));
    return reactor;
  }
  if (sources * targets > max_table_cells_) {
    finish(absl::ResourceExhaustedError(
        absl::StrCat("max-table-cells: a table holds at most ", max_table_cells_,
                     " walks (sources x targets); split it, or raise walkd's --max-table-cells")));
    return reactor;
  }
  response->set_sources(static_cast<std::uint32_t>(sources));
  response->set_targets(static_cast<std::uint32_t>(targets));
  for (std::uint64_t i = 0; i < sources * targets; ++i) response->add_walks();
  // One task per source row; the last row to finish replies. The first error wins.
  struct Shared {
    std::atomic<std::uint64_t> rows_left;
    std::atomic<std::uint64_t> stored{0};
    std::mutex mu;
    absl::Status error;
  };
  auto shared = std::make_shared<Shared>();
  shared->rows_left = sources;
  const StoreFirstAnswerer& answerer = answerer_;
  for (std::uint64_t s = 0; s < sources; ++s) {
    pool_.Submit([s, targets, request, response, shared, finish, context,
                  &answerer](nav::Searchers& searchers) {
      for (std::uint64_t t = 0; t < targets && !context->IsCancelled(); ++t) {
        walk::v1::WalkRequest walk;
        walk.set_world(request->world());
        *walk.mutable_from() = request->sources(static_cast<int>(s));
        *walk.mutable_to() = request->targets(static_cast<int>(t));
        walk.set_profile(request->profile());
        walk.set_band(request->band());
        bool stored = false;
        const absl::Status status =
            answerer.Answer(walk, "", searchers,
                            response->mutable_walks(static_cast<int>(s * targets + t)), &stored);
        if (stored) ++shared->stored;
        if (!status.ok()) {
          std::lock_guard<std::mutex> lock(shared->mu);
          if (shared->error.ok()) {
            shared->error = absl::Status(status.code(), absl::StrCat("sources[", s, "] to targets[",
                                                                     t, "]: ", status.message()));
          }
          break;
        }
      }
      if (--shared->rows_left == 0) {
        response->set_stored(shared->stored);
        absl::Status error;
        {
          std::lock_guard<std::mutex> lock(shared->mu);
          error = shared->error;
        }
        if (error.ok() && context->IsCancelled())
          error = absl::CancelledError("the call was cancelled");
        finish(error);
      }
    });
  }
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
    finish(absl::InvalidArgumentError(
        absl::StrCat("columns_x: a Floors call returns at most ", kMaxFloorColumns,
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
    finish(absl::NotFoundError(
        absl::StrCat("place.continent: the world has no continent ", place.continent)));
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
      case WorldState::kLoading:
        info->set_state(walk::v1::WORLD_STATE_LOADING);
        break;
      case WorldState::kReady:
        info->set_state(walk::v1::WORLD_STATE_READY);
        break;
      case WorldState::kFailed:
        info->set_state(walk::v1::WORLD_STATE_FAILED);
        break;
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
    if (const nav::AbstractRouter* router = w.served->router.get()) {
      const nav::AbstractGraph& graph = router->graph();
      walk::v1::GraphInfo* gi = info->mutable_graph();
      gi->set_cell_columns(graph.cell_columns);
      gi->set_entrance_spacing(graph.entrance_spacing);
      for (const nav::ContinentGraph& g : graph.continents) {
        gi->set_nodes(gi->nodes() + g.node_count());
        gi->set_arcs(gi->arcs() + g.arc_count());
      }
      gi->set_cch_arcs(router->timings().cch_arcs);
      for (const std::string& profile : graph.profiles) gi->add_profiles(profile);
      gi->set_cch_build_seconds(router->timings().cch_build_seconds);
      gi->set_customize_seconds(router->timings().customize_seconds);
      gi->set_memory_bytes(router->timings().memory_bytes);
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
