// walkctl: asks walkd. Every call has a deadline (--timeout-s).
//
// Exit codes (docs/api.md): 0 the call succeeded (for `walk` and `path`, whatever the walk's own
// status; for `health`, SERVING); 2 bad usage or input; 3 walkd unreachable or the deadline
// passed; 4 walkd refused the request (INVALID_ARGUMENT, NOT_FOUND, UNAVAILABLE world, ...);
// 5 `health`: walkd answered NOT_SERVING; 1 a local failure (cannot write --out). `admin reload`
// exits 4 when a world failed to reload too.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "client/walk_client.h"
#include "client/walk_svg.h"
#include "client/walkctl_batch.h"
#include "client/walkctl_live.h"
#include "client/walkctl_routes.h"
#include "client/walkctl_store.h"
#include "client/walkctl_trip.h"
#include "google/protobuf/util/json_util.h"
#include "nav/cost/cost_model.h"
#include "nav/cost/danger.h"
#include "nav/grid/checked_floor.h"
#include "nav/grid/number_text.h"

namespace {

constexpr int kExitLocal = 1;
constexpr int kExitUsage = 2;
constexpr int kExitUnreachable = 3;
constexpr int kExitRefused = 4;
constexpr int kExitNotServing = 5;

int ReportRpcError(const grpc::Status& status) {
  std::cerr << "walkctl: "
            << absl::StatusCodeToString(static_cast<absl::StatusCode>(status.error_code())) << ": "
            << status.error_message() << "\n";
  const bool unreachable = status.error_code() == grpc::StatusCode::UNAVAILABLE &&
                           status.error_message().find("world") == std::string::npos;
  return unreachable || status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED
             ? kExitUnreachable
             : kExitRefused;
}

std::string ToJson(const google::protobuf::Message& message) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(message, &json,
                                                    options);  // cannot fail for our messages
  return json;
}

// What a walk request is made of, as flags.
struct WalkArgs {
  std::string world = "default";
  std::string from, to, profile;
  std::uint32_t continent = 0;
  std::uint32_t band = 0;
  std::string search = "auto";
  std::string backend;  // "": the world's default

  void AddTo(CLI::App* command) {
    command->add_option("--world", world, "World name")->capture_default_str();
    command->add_option("--from", from, "Start: x,y or x,y,z yards")->required();
    command->add_option("--to", to, "End: x,y or x,y,z yards")->required();
    command->add_option("--continent", continent, "Continent id of both places")
        ->capture_default_str();
    command->add_option("--profile", profile, "Profile (default: shortest; see `walkctl info`)");
    command->add_option("--band", band, "Danger band: 0, 10, 20, 30, 40 or 50")
        ->capture_default_str();
    command
        ->add_option("--search", search,
                     "Force a search (diagnostics): auto, grid, dijkstra or cch")
        ->capture_default_str()
        ->check(CLI::IsMember({"auto", "grid", "dijkstra", "cch"}));
    command
        ->add_option("--backend", backend,
                     "grid, navmesh or hybrid (default: the world's, see `walkctl info`)")
        ->check(CLI::IsMember({"grid", "navmesh", "hybrid", "default"}));
  }

  // Fills `request`, or prints what is wrong and returns false.
  bool Fill(walk::v1::WalkRequest* request) const {
    request->set_world(world);
    request->set_profile(profile);
    request->set_band(band);
    request->set_search(search == "grid"       ? walk::v1::SEARCH_GRID
                        : search == "dijkstra" ? walk::v1::SEARCH_DIJKSTRA
                        : search == "cch"      ? walk::v1::SEARCH_CCH
                                               : walk::v1::SEARCH_AUTO);
    request->set_backend(*walk::client::ParseBackend(backend));  // checked by CLI11
    auto from_place = walk::client::ParsePlace(from, continent, "--from");
    auto to_place = walk::client::ParsePlace(to, continent, "--to");
    for (const auto* parsed : {&from_place, &to_place}) {
      if (!parsed->ok()) {
        std::cerr << "walkctl: " << parsed->status().message() << "\n";
        return false;
      }
    }
    *request->mutable_from() = *from_place;
    *request->mutable_to() = *to_place;
    return true;
  }
};

void PrintWalk(const walk::v1::WalkResponse& response) {
  const std::string name = walk::v1::WalkStatus_Name(response.status());
  const std::string method = walk::v1::Method_Name(response.method());
  if (response.status() == walk::v1::WALK_STATUS_OK) {
    std::printf("%s: %.3f yards, %.3f seconds (%s, %llu %s expanded, model %s)\n", name.c_str(),
                response.yards(), response.seconds(), method.c_str(),
                static_cast<unsigned long long>(response.nodes_expanded()),
                response.method() == walk::v1::METHOD_NAVMESH ? "polygons" : "surfaces",
                response.model_id().c_str());
  } else {
    std::printf("%s (%s)\n", name.c_str(), method.c_str());
  }
  if (response.hybrid() != walk::v1::HYBRID_CHOICE_UNSPECIFIED) {
    std::printf("  hybrid: %s\n", walk::v1::HybridChoice_Name(response.hybrid()).c_str());
  }
  for (const auto& [label, end, present] :
       {std::tuple{"from", &response.from_end(), response.has_from_end()},
        std::tuple{"to", &response.to_end(), response.has_to_end()}}) {
    if (!present) continue;
    std::printf("  %-4s column %d,%d level %u at z %.2f yards, zone %u, region %u%s\n", label,
                end->column_x(), end->column_y(), end->level(), end->surface_z_yards(), end->zone(),
                end->region(),
                end->settled()
                    ? (" (settled " + std::to_string(end->settle_yards()) + " yards)").c_str()
                    : "");
  }
  if (response.retried())
    std::printf("  found on the second asking, at the columns' usual floors\n");
  for (const auto& cell : response.zone_cells()) {
    std::printf("  zone cell %d,%d zone %u: %.1f yards\n", cell.cell_x(), cell.cell_y(),
                cell.zone(), cell.yards());
  }
}

int Walk(walk::client::WalkClient& client, const WalkArgs& args, bool json) {
  walk::v1::WalkRequest request;
  if (!args.Fill(&request)) return kExitUsage;
  walk::v1::WalkResponse response;
  const grpc::Status status = client.Walk(request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (json) {
    std::cout << ToJson(response) << "\n";
  } else {
    PrintWalk(response);
  }
  return 0;
}

int Path(walk::client::WalkClient& client, const WalkArgs& args, bool json,
         walk::v1::PathResponse* out = nullptr) {
  walk::v1::PathRequest request;
  if (!args.Fill(request.mutable_walk())) return kExitUsage;
  walk::v1::PathResponse response;
  const grpc::Status status = client.Path(request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (out != nullptr) {
    *out = response;
    return 0;
  }
  if (json) {
    std::cout << ToJson(response) << "\n";
    return 0;
  }
  PrintWalk(response.walk());
  std::printf("  %u steps pulled taut to %d points:\n", response.steps(), response.points_size());
  for (const auto& p : response.points()) {
    std::printf("    %.2f, %.2f, %.2f\n", p.x_yards(), p.y_yards(), p.z_yards());
  }
  for (const auto& k : response.seconds_by_kind()) {
    std::printf("  %-7s %.2f seconds\n", k.kind().c_str(), k.seconds());
  }
  for (const auto& f : response.falls()) {
    std::printf("  fall of %.2f yards at %.2f, %.2f\n", f.drop_yards(), f.from().x_yards(),
                f.from().y_yards());
  }
  return 0;
}

// What `floors` asks about.
struct FloorsArgs {
  std::string world = "default";
  std::string at;  // x,y yards
  std::uint32_t continent = 0;
};

int Floors(walk::client::WalkClient& client, const FloorsArgs& args, bool json) {
  auto place = walk::client::ParsePlace(args.at, args.continent, "--at");
  if (!place.ok()) {
    std::cerr << "walkctl: " << place.status().message() << "\n";
    return kExitUsage;
  }
  walk::v1::FloorsRequest request;
  request.set_world(args.world);
  *request.mutable_place() = *place;
  walk::v1::FloorsResponse response;
  const grpc::Status status = client.Floors(request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (json) {
    std::cout << ToJson(response) << "\n";
    return 0;
  }
  for (const auto& column : response.columns()) {
    std::printf("column %d,%d: %d floors\n", column.column_x(), column.column_y(),
                column.floors_size());
    for (const auto& f : column.floors()) {
      std::string flags, marks, links;
      for (const auto& x : f.flags()) flags += " " + x;
      for (const auto& x : f.marks()) marks += " " + x;
      for (const auto& x : f.links()) links += (links.empty() ? "" : ", ") + x;
      std::printf(
          "  level %u at z %.2f, headroom %s, flags%s, marks%s, zone %u, region %u (%u surfaces)\n "
          "   links: %s\n",
          f.level(), f.z_yards(),
          f.has_headroom_yards() ? std::to_string(f.headroom_yards()).c_str() : "open sky",
          flags.c_str(), marks.empty() ? " none" : marks.c_str(), f.zone(), f.region(),
          f.region_surfaces(), links.c_str());
    }
  }
  return 0;
}

// What `draw` draws, and where.
struct DrawArgs {
  WalkArgs walk;
  std::string out = "walk.svg";  // the SVG file
  double margin_yards = 20.0;    // ground shown around the path
};

// The world's zones and what the asked band charges in each, by nav's own danger rule and
// profiles (walkctl links walk::nav through walk::store), so the drawing hatches exactly the
// zones walkd prices.
walk::client::DrawOptions DrawOptionsFor(const walk::v1::InfoResponse& info, const WalkArgs& args) {
  walk::client::DrawOptions options;
  options.band = args.band;
  // Every profile but "shortest" prices danger (walk.proto), one this walkctl does not know too.
  const walk::nav::Profile* profile = walk::nav::FindProfile(args.profile);
  const bool shortest = profile != nullptr && profile->pricing == walk::nav::Pricing::kShortest;
  options.prices_danger = args.band > 0 && !shortest;
  for (const auto& world : info.worlds()) {
    if (world.name() != args.world) continue;
    for (const auto& z : world.zones()) {
      options.zones.push_back(
          {z.id(), z.name(), z.min_level(), z.max_level(),
           options.prices_danger ? walk::nav::DangerMultiplier(args.band, z.min_level()) : 1.0});
    }
  }
  return options;
}

// Asks the ground around `path` (its box plus `margin_yards`) at the finest stride that fits one
// Floors call within walkd's limits (`limits`, from Info: columns a call, bytes a reply); sets
// `stride`. An RPC error's exit code, or 0.
int AskGround(walk::client::WalkClient& client, const WalkArgs& args,
              const walk::v1::PathResponse& path, double margin_yards,
              const walk::v1::Limits& limits, walk::v1::FloorsResponse* ground,
              std::uint32_t* stride) {
  double min_x = 1e300, min_y = 1e300, max_x = -1e300, max_y = -1e300;
  for (const auto& p : path.points()) {
    min_x = std::min(min_x, p.x_yards());
    min_y = std::min(min_y, p.y_yards());
    max_x = std::max(max_x, p.x_yards());
    max_y = std::max(max_y, p.y_yards());
  }
  // Ask the ground once to learn the column width, then the box at a stride that fits one call.
  walk::v1::FloorsRequest probe;
  probe.set_world(args.world);
  probe.mutable_place()->set_continent(args.continent);
  probe.mutable_place()->set_x_yards(min_x);
  probe.mutable_place()->set_y_yards(min_y);
  walk::v1::FloorsResponse one;
  if (grpc::Status s = client.Floors(probe, &one); !s.ok()) return ReportRpcError(s);
  const double column = one.column_yards();
  const double x0 = min_x - margin_yards, y0 = min_y - margin_yards;
  // Places are within +-1e8 yards and the margin within 1e5, but a column width comes from the
  // server: a span that does not fit the request's counts is refused rather than cast.
  const std::optional<std::uint32_t> span_x =
      walk::nav::FloorWithin<std::uint32_t>(std::ceil((max_x + margin_yards - x0) / column));
  const std::optional<std::uint32_t> span_y =
      walk::nav::FloorWithin<std::uint32_t>(std::ceil((max_y + margin_yards - y0) / column));
  if (!span_x || !span_y || *span_x == 0xFFFFFFFFu || *span_y == 0xFFFFFFFFu) {
    std::fprintf(stderr,
                 "walkctl draw: the ground around the walk spans too many %s-yard columns\n",
                 walk::nav::NumberText(column).c_str());
    return 2;
  }
  const std::uint32_t columns_x = *span_x + 1, columns_y = *span_y + 1;
  // A walkd that does not list its limits took 16,384 columns a call.
  const std::uint64_t max_columns =
      limits.max_floor_columns() > 0 ? limits.max_floor_columns() : 16384;
  *stride = 1;
  while (static_cast<std::uint64_t>((columns_x + *stride - 1) / *stride) *
             ((columns_y + *stride - 1) / *stride) >
         max_columns)
    ++*stride;
  walk::v1::FloorsRequest request = probe;
  request.mutable_place()->set_x_yards(x0);
  request.mutable_place()->set_y_yards(y0);
  request.set_columns_x(columns_x);
  request.set_columns_y(columns_y);
  // Many floors a column can pass the reply's bytes: a coarser stride then, a few times at most.
  for (int attempt = 0;; ++attempt) {
    request.set_stride(*stride);
    const grpc::Status s = client.Floors(request, ground);
    if (s.ok()) return 0;
    if (s.error_code() != grpc::StatusCode::RESOURCE_EXHAUSTED ||
        s.error_message().find("max-reply-bytes") == std::string::npos || attempt == 8) {
      return ReportRpcError(s);
    }
    *stride *= 2;
  }
}

// Draws the walk over the ground around it (the path's box plus a margin), its zones priced for
// the asked band, into an SVG file.
int Draw(walk::client::WalkClient& client, const DrawArgs& draw) {
  const WalkArgs& args = draw.walk;
  const std::string& out = draw.out;
  walk::v1::PathResponse path;
  if (int code = Path(client, args, false, &path); code != 0) return code;
  if (path.walk().status() != walk::v1::WALK_STATUS_OK) {
    std::cerr << "walkctl: no walk to draw: " << walk::v1::WalkStatus_Name(path.walk().status())
              << "\n";
    return kExitRefused;
  }
  walk::v1::InfoResponse info;  // walkd's limits, the zones' levels
  if (grpc::Status s = client.Info(&info); !s.ok()) return ReportRpcError(s);
  walk::v1::FloorsResponse ground;
  std::uint32_t stride = 1;
  if (int code = AskGround(client, args, path, draw.margin_yards, info.limits(), &ground, &stride);
      code != 0)
    return code;
  walk::client::DrawOptions options = DrawOptionsFor(info, args);
  options.stride = stride;
  char caption[256];
  std::snprintf(caption, sizeof caption, "%s %s -> %s: %.1f yards, %.1f s (%s, band %u)",
                args.world.c_str(), args.from.c_str(), args.to.c_str(), path.walk().yards(),
                path.walk().seconds(), args.profile.empty() ? "shortest" : args.profile.c_str(),
                args.band);
  options.caption = caption;
  std::ofstream file(out);
  file << walk::client::DrawWalkSvg(path, ground, options);
  if (!file) {
    std::cerr << "walkctl: cannot write " << out << "\n";
    return kExitLocal;
  }
  std::cout << "walkctl: drew " << path.points_size() << " points over " << ground.columns_size()
            << " columns (stride " << stride << ") to " << out << "\n";
  return 0;
}

// What `table` asks: every source against every target.
struct TableArgs {
  std::string world = "default";
  std::string sources, targets;  // places: x,y[,z];x,y[,z];...
  std::string profile;
  std::uint32_t band = 0;
  std::uint32_t continent = 0;
  std::string backend;  // "": the world's default
  bool walks = false;   // every cell's whole walk too (TableRequest.want_walks)
};

// Sources x targets in one call: a matrix of seconds ("-" where there is no walk).
int Table(walk::client::WalkClient& client, const TableArgs& args, bool json) {
  walk::v1::TableRequest request;
  request.set_world(args.world);
  request.set_profile(args.profile);
  request.set_band(args.band);
  request.set_backend(*walk::client::ParseBackend(args.backend));  // checked by CLI11
  request.set_want_walks(args.walks);
  const std::uint32_t continent = args.continent;
  for (const auto& [list, field, add] :
       {std::tuple{&args.sources, "--sources", &walk::v1::TableRequest::add_sources},
        std::tuple{&args.targets, "--targets", &walk::v1::TableRequest::add_targets}}) {
    std::size_t start = 0;
    while (start <= list->size()) {
      const std::size_t end = std::min(list->find(';', start), list->size());
      auto place = walk::client::ParsePlace(list->substr(start, end - start), continent, field);
      if (!place.ok()) {
        std::cerr << "walkctl: " << place.status().message() << "\n";
        return kExitUsage;
      }
      *(request.*add)() = *place;
      start = end + 1;
    }
  }
  walk::v1::TableResponse response;
  const grpc::Status status = client.Table(request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (json) {
    std::cout << ToJson(response) << "\n";
    return 0;
  }
  std::printf("seconds, %u sources x %u targets (%llu from the store)\n", response.sources(),
              response.targets(), static_cast<unsigned long long>(response.stored()));
  for (std::uint32_t s = 0; s < response.sources(); ++s) {
    for (std::uint32_t t = 0; t < response.targets(); ++t) {
      const int cell = static_cast<int>(s * response.targets() + t);
      if (response.status(cell) == walk::v1::WALK_STATUS_OK) {
        std::printf("%10.2f", response.seconds(cell));
      } else {
        std::printf("%10s", "-");
      }
    }
    std::printf("\n");
  }
  return 0;
}

// What reloads did to a world, when any has (walkctl admin reload, SIGHUP).
void PrintReloads(const walk::v1::ReloadInfo& reload) {
  if (!reload.has_last()) return;
  const walk::v1::WorldReloadResult& last = reload.last();
  std::cout << "  generation " << reload.generation() << ": " << reload.reloads() << " reloads, "
            << reload.failed_reloads() << " failed; the last "
            << (last.result() == walk::v1::RELOAD_RESULT_FAILED ? "failed: " + last.error()
                                                                : "reloaded")
            << " (" << last.changed_files() << " changed)\n";
}

int Info(walk::client::WalkClient& client, bool json) {
  walk::v1::InfoResponse response;
  const grpc::Status status = client.Info(&response);
  if (!status.ok()) return ReportRpcError(status);
  if (json) {
    std::cout << ToJson(response) << "\n";
    return 0;
  }
  std::cout << "walkd " << response.version() << ", profiles:";
  for (const auto& p : response.profiles()) std::cout << " " << p;
  std::cout << ", bands:";
  for (const auto& b : response.bands()) std::cout << " " << b;
  std::cout << "\n";
  for (const auto& w : response.worlds()) {
    std::cout << "world " << w.name() << ": " << walk::v1::WorldState_Name(w.state())
              << (w.error().empty() ? "" : " (" + w.error() + ")") << ", content id "
              << w.content_id() << ", column " << w.column_yards() << " yd, "
              << w.memory_bytes() / 1024 << " KiB, from " << w.source() << "\n";
    for (const auto& c : w.continents()) {
      std::cout << "  continent " << c.id() << " (" << c.source() << "), content id "
                << c.content_id() << ": " << c.tiles() << " tiles of " << c.tiles_x() << " x "
                << c.tiles_y() << ", " << c.columns() << " columns, " << c.surfaces()
                << " surfaces, at most " << c.max_floors() << " floors, " << c.regions()
                << " regions, " << c.lift_rides() << " lift rides; x " << c.min_x_yards() << " to "
                << c.max_x_yards() << ", y " << c.min_y_yards() << " to " << c.max_y_yards()
                << " yd\n";
    }
    std::cout << "  default backend: " << walk::v1::Backend_Name(w.default_backend()) << "\n";
    PrintReloads(w.reload());
    for (const auto& n : w.navmeshes()) {
      if (n.saved_only()) {
        std::cout << "  navmesh " << n.content_hash() << " (map " << n.map() << "), continent "
                  << n.continent() << ": saved answers only (no files)\n";
      } else {
        std::cout << "  navmesh " << n.content_hash() << " (" << n.format() << " map " << n.map()
                  << "), continent " << n.continent() << ": " << n.tiles() << " tiles ("
                  << n.resident_tiles() << " resident), " << n.polygons() << " polygons, "
                  << n.off_mesh_connections() << " off-mesh connections (" << n.lift_rides()
                  << " lift rides, " << n.lift_rides_added() << " added at load), " << n.classes()
                  << " pricing classes" << (n.exact() ? "" : " (shared: not exact)") << ", "
                  << n.polygons_off_grid() << " polygons off the grid\n";
      }
    }
    if (w.has_graph()) {
      const auto& g = w.graph();
      std::cout << "  abstract graph: cells of " << g.cell_columns() << " columns, entrances every "
                << g.entrance_spacing() << ", " << g.nodes() << " nodes, " << g.arcs() << " arcs, "
                << g.cch_arcs() << " CCH arcs, " << g.profiles_size() << " profiles; CCH built in "
                << g.cch_build_seconds() << " s, customized in " << g.customize_seconds() << " s, "
                << g.memory_bytes() / 1024 << " KiB\n";
      for (const std::string& why : g.unprepared()) {
        std::cout << "    " << why << " (it walks the fine grid)\n";
      }
    } else {
      std::cout << "  no abstract graph: walks search the fine grid (walkgrid prepare)\n";
    }
    for (const auto& z : w.zones()) {
      std::cout << "  zone " << z.id() << " " << z.name() << ": levels " << z.min_level() << "-"
                << z.max_level() << "\n";
    }
    for (const auto& layer : w.layers()) {
      std::cout << "  layer " << layer.name() << " from " << layer.file() << " ("
                << layer.file_hash() << "): " << layer.summary() << "\n";
    }
  }
  for (const auto& l : response.live_worlds()) {
    std::cout << "live world " << l.name() << ": " << l.width() << " x " << l.height()
              << " cells of " << l.cell_size() << ", revision " << l.revision() << ", "
              << l.footprints() << " footprints, " << l.path_cache_entries() << " paths cached, "
              << l.unit_routes() << " unit routes, " << l.fallbacks_waiting()
              << " fallbacks waiting\n";
  }
  return 0;
}

int Trip(walk::client::WalkClient& client, const walk::client::TripArgs& args, bool json) {
  walk::v1::TripRequest request;
  if (!args.Fill(&request)) return kExitUsage;
  walk::v1::TripResponse response;
  const grpc::Status status = client.Trip(request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (json) {
    std::cout << ToJson(response) << "\n";
  } else {
    walk::client::PrintTrip(response);
  }
  return 0;
}

// admin reload: reloads the worlds whose files changed; exit 4 when one failed to.
int Reload(walk::client::WalkClient& client, const std::string& world, bool json) {
  walk::v1::ReloadRequest request;
  request.set_world(world);
  walk::v1::ReloadResponse response;
  const grpc::Status status = client.Reload(request, &response);
  if (!status.ok()) return ReportRpcError(status);
  if (json) std::cout << ToJson(response) << "\n";
  bool failed = false;
  for (const walk::v1::WorldReloadResult& w : response.worlds()) {
    failed = failed || w.result() == walk::v1::RELOAD_RESULT_FAILED;
    if (json) continue;
    const std::string serving =
        w.content_id().empty()
            ? "no world serves"
            : "content id " + w.content_id() + ", generation " + std::to_string(w.generation());
    switch (w.result()) {
      case walk::v1::RELOAD_RESULT_RELOADED:
        std::printf("world %s: reloaded in %.2f s (%s changed), %s\n", w.world().c_str(),
                    w.seconds(), w.changed_files().c_str(), serving.c_str());
        break;
      case walk::v1::RELOAD_RESULT_UNCHANGED:
        std::printf("world %s: unchanged, %s\n", w.world().c_str(), serving.c_str());
        break;
      default: {
        const std::string kept =
            w.content_id().empty() ? serving : "the old world still serves, " + serving;
        std::printf("world %s: failed (%s): %s\n", w.world().c_str(), kept.c_str(),
                    w.error().c_str());
      }
    }
  }
  return failed ? kExitRefused : 0;
}

int Health(walk::client::WalkClient& client, const std::string& service) {
  grpc::health::v1::HealthCheckResponse::ServingStatus serving;
  const grpc::Status status = client.Health(service, &serving);
  if (!status.ok()) return ReportRpcError(status);
  std::cout << grpc::health::v1::HealthCheckResponse::ServingStatus_Name(serving) << "\n";
  return serving == grpc::health::v1::HealthCheckResponse::SERVING ? 0 : kExitNotServing;
}

// Every subcommand's arguments, and the subcommands (set when chosen).
struct Commands {
  walk::client::ConnectionFiles connection;
  double timeout_s = 10.0;
  bool json = false;
  WalkArgs walk_args, path_args;
  DrawArgs draw_args;
  FloorsArgs floors_args;
  TableArgs table_args;
  walk::client::BatchArgs batch_args;
  walk::client::RoutesArgs routes_args;
  walk::client::TripArgs trip_args;
  walk::client::StoreArgs store_args;
  walk::client::LiveArgs live_args;
  std::string service;
  std::string reload_world;        // admin reload's; empty: every world
  CLI::Option* timeout = nullptr;  // --timeout-s, to tell whether it was given
  CLI::App *walk = nullptr, *path = nullptr, *draw = nullptr, *floors = nullptr, *table = nullptr;
  CLI::App *batch = nullptr, *routes = nullptr, *trip = nullptr;
  CLI::App *store_export = nullptr, *store_ingest = nullptr, *store_models = nullptr;
  CLI::App *info = nullptr, *health = nullptr, *reload = nullptr;
};

// walk, path, draw, floors and table: single calls about places.
void AddPlaceCommands(CLI::App& app, Commands& c) {
  c.walk = app.add_subcommand("walk", "The walk between two places");
  c.walk_args.AddTo(c.walk);
  c.walk->add_flag("--json", c.json, "Print the reply as JSON");

  c.path = app.add_subcommand("path", "The walk and its way: points, seconds by kind, falls");
  c.path_args.AddTo(c.path);
  c.path->add_flag("--json", c.json, "Print the reply as JSON");

  c.draw = app.add_subcommand("draw", "Draw a walk over the ground around it as SVG");
  c.draw_args.walk.AddTo(c.draw);
  c.draw->add_option("--out", c.draw_args.out, "The SVG file to write")->capture_default_str();
  c.draw
      ->add_option("--margin-yards", c.draw_args.margin_yards,
                   "Ground shown around the path, yards")
      ->check(CLI::Range(0.0, 100000.0))
      ->capture_default_str();

  FloorsArgs& floors = c.floors_args;
  c.floors = app.add_subcommand("floors", "Every surface of the column under a place");
  c.floors->add_option("--world", floors.world, "World name")->capture_default_str();
  c.floors->add_option("--at", floors.at, "The place: x,y yards")->required();
  c.floors->add_option("--continent", floors.continent, "Continent id")->capture_default_str();
  c.floors->add_flag("--json", c.json, "Print the reply as JSON");

  TableArgs& table = c.table_args;
  c.table = app.add_subcommand("table", "Every source against every target in one call");
  c.table->add_option("--world", table.world, "World name")->capture_default_str();
  c.table->add_option("--sources", table.sources, "Places: x,y[,z];x,y[,z];...")->required();
  c.table->add_option("--targets", table.targets, "Places: x,y[,z];x,y[,z];...")->required();
  c.table->add_option("--profile", table.profile, "Profile (default: shortest)");
  c.table->add_option("--band", table.band, "Danger band")->capture_default_str();
  c.table->add_option("--continent", table.continent, "Continent id")->capture_default_str();
  c.table->add_option("--backend", table.backend, "grid, navmesh or hybrid (default: the world's)")
      ->check(CLI::IsMember({"grid", "navmesh", "hybrid", "default"}));
  c.table->add_flag("--walks", table.walks,
                    "Every cell's whole walk too (ends, zone cells), kept in the store");
  c.table->add_flag("--json", c.json, "Print the reply as JSON");

  c.trip = app.add_subcommand("trip", "The cheapest trip: walking, or walks joined with rides");
  c.trip_args.AddTo(c.trip);
  c.trip->add_flag("--json", c.json, "Print the reply as JSON");
}

// batch and routes: many pairs through one WalkBatch stream.
void AddStreamCommands(CLI::App& app, Commands& c) {
  walk::client::BatchArgs& batch = c.batch_args;
  c.batch = app.add_subcommand("batch", "Stream pairs from a file through WalkBatch");
  c.batch->add_option("pairs", batch.pairs_path, "JSON lines (or .csv with a header)")->required();
  c.batch
      ->add_option("--out", batch.out_path,
                   "Answers, JSON lines (re-running asks only what is missing)")
      ->required();
  c.batch->add_option("--world", batch.defaults.world, "World of pairs that name none")
      ->capture_default_str();
  c.batch->add_option("--profile", batch.defaults.profile, "Profile of pairs that name none");
  c.batch->add_option("--band", batch.defaults.band, "Band of pairs that name none")
      ->capture_default_str();
  c.batch
      ->add_option("--backend", batch.defaults.backend,
                   "Backend of pairs that name none: grid, navmesh or hybrid (default: the "
                   "world's)")
      ->check(CLI::IsMember({"grid", "navmesh", "hybrid", "default"}));
  c.batch
      ->add_option("--stream-timeout-s", batch.timeout_s, "Deadline of the whole stream, seconds")
      ->capture_default_str();
  c.batch->add_flag("--trips", batch.trips,
                    "Ask each pair as a trip (walks joined with the travel network)");
  c.batch
      ->add_option("--streams", batch.streams,
                   "WalkBatch calls open at once on one channel, pulling pieces of the pairs "
                   "(default 1; with --lb round_robin, the target's addresses, so each replica "
                   "answers a share)")
      ->check(CLI::Range(1, 1024));

  c.routes =
      app.add_subcommand("routes", "Price candidate routes and improve the order of free stops");
  c.routes->add_option("routes", c.routes_args.routes_path, "The routes file (docs/routes.md)")
      ->required();
  c.routes->add_option("--out", c.routes_args.out_path,
                       "Write the priced routes here (default: stdout)");
  c.routes
      ->add_option("--trips", c.routes_args.trips,
                   "Price legs as trips through the travel network: on, off, or auto (when the "
                   "world has one)")
      ->capture_default_str()
      ->check(CLI::IsMember({"auto", "on", "off"}));
}

// store export, ingest and models: store packs, offline.
void AddStoreCommands(CLI::App& app, Commands& c) {
  walk::client::StoreArgs& args = c.store_args;
  auto* store =
      app.add_subcommand("store", "Store packs, offline (walkd not running on the store)");
  store->require_subcommand(1);
  c.store_export = store->add_subcommand("export", "Write one model's answers as sorted SST files");
  c.store_export->add_option("--store", args.store_dir, "The store folder (walkd's <data>/store)")
      ->required();
  c.store_export
      ->add_option("--model", args.model,
                   "The model id (16 hex digits), or several, comma-separated (`walkctl info` "
                   "lists each world's models)")
      ->required();
  c.store_export
      ->add_option("--out", args.pack_dir,
                   "The pack folder to write (several models: a pack each inside it)")
      ->required();
  c.store_ingest = store->add_subcommand("ingest", "Load a store pack into a store");
  c.store_ingest->add_option("pack", args.pack_dir, "The pack folder, or a folder of packs")
      ->required();
  c.store_ingest->add_option("--store", args.store_dir, "The store folder")->required();
  c.store_models = store->add_subcommand("models", "The models a store holds, with their answers");
  c.store_models->add_option("--store", args.store_dir, "The store folder")->required();
}

// info and health: what walkd holds, and whether it serves.
void AddStatusCommands(CLI::App& app, Commands& c) {
  c.info = app.add_subcommand("info", "The worlds walkd holds");
  c.info->add_flag("--json", c.json, "Print the reply as JSON");
  c.health = app.add_subcommand("health", "Exit 0 only when walkd is SERVING");
  c.health->add_option("--service", c.service, "Service to ask about (empty: walkd as a whole)");
  auto* admin = app.add_subcommand("admin", "Operate walkd (needs its token when it has one)");
  admin->require_subcommand(1);
  c.reload = admin->add_subcommand(
      "reload",
      "Reload the worlds whose files changed, and wait for them (--timeout-s: default 600 here)");
  c.reload->add_option("world", c.reload_world, "The world (default: every world)");
  c.reload->add_flag("--json", c.json, "Print the reply as JSON");
}

// Where walkd is and how to reach it (docs/operations.md, "Security"); before or after the
// subcommand.
void AddConnectionOptions(CLI::App& app, walk::client::ConnectionFiles& files) {
  app.add_option("--addr", files.address,
                 "walkd's gRPC target: HOST:PORT, dns:///NAME:PORT (every address the name has), "
                 "ipv4:HOST:PORT,HOST:PORT")
      ->capture_default_str();
  app.add_option("--lb", files.lb_policy,
                 "Spread calls over the target's addresses: round_robin (default: pick_first, "
                 "one address)")
      ->check(CLI::IsMember({"pick_first", "round_robin"}));
  app.add_option("--tls-ca", files.tls_ca, "Speak TLS; walkd's certificate is signed by this CA")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-cert", files.tls_cert, "Our certificate, for mutual TLS (with --tls-key)")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-key", files.tls_key, "Our certificate's private key")
      ->check(CLI::ExistingFile);
  app.add_option("--tls-server-name", files.tls_server_name,
                 "The name walkd's certificate holds, when not --addr's host");
  app.add_option("--token-file", files.token_file,
                 "Send the token in this file's first line (walkd's --auth-token-file)")
      ->check(CLI::ExistingFile);
}

// Runs the chosen subcommand; its exit code.
int Run(Commands& c) {
  if (*c.store_export) return walk::client::RunStoreExport(c.store_args);
  if (*c.store_ingest) return walk::client::RunStoreIngest(c.store_args);
  if (*c.store_models) return walk::client::RunStoreModels(c.store_args);
  absl::StatusOr<walk::client::Connection> connection = walk::client::Connect(c.connection);
  if (!connection.ok()) {
    std::cerr << "walkctl: " << connection.status().message() << "\n";
    return kExitUsage;
  }
  // A reload waits for worlds to load: longer than a walk, unless --timeout-s says otherwise.
  const bool long_wait = *c.reload && c.timeout->count() == 0;
  walk::client::WalkClient client(*connection, long_wait ? 600.0 : c.timeout_s);
  if (*c.walk) return Walk(client, c.walk_args, c.json);
  if (*c.path) return Path(client, c.path_args, c.json);
  if (*c.draw) return Draw(client, c.draw_args);
  if (*c.floors) return Floors(client, c.floors_args, c.json);
  if (*c.info) return Info(client, c.json);
  if (*c.table) return Table(client, c.table_args, c.json);
  if (*c.trip) return Trip(client, c.trip_args, c.json);
  if (*c.routes) {
    c.routes_args.connection = *connection;
    return walk::client::RunRoutes(c.routes_args);
  }
  if (*c.batch) {
    c.batch_args.connection = *connection;
    if (c.batch_args.streams == 0) {
      c.batch_args.streams = walk::client::DefaultStreams(c.connection);
    }
    return walk::client::RunBatch(c.batch_args);
  }
  if (*c.health) return Health(client, c.service);
  if (*c.reload) return Reload(client, c.reload_world, c.json);
  if (walk::client::LiveChosen(c.live_args)) {
    return walk::client::RunLive(*connection, c.timeout_s, c.live_args);
  }
  return kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"walkctl: ask walkd for walks"};
  app.require_subcommand(1);
  app.fallthrough();  // --addr and --timeout-s may come before or after the subcommand
  Commands commands;
  AddConnectionOptions(app, commands.connection);
  commands.timeout =
      app.add_option("--timeout-s", commands.timeout_s, "Deadline of each call, seconds")
          ->capture_default_str()
          ->check(CLI::PositiveNumber);
  AddPlaceCommands(app, commands);
  AddStreamCommands(app, commands);
  AddStoreCommands(app, commands);
  AddStatusCommands(app, commands);
  walk::client::AddLiveCommands(app, commands.live_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  return Run(commands);
}
