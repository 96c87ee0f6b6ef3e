// walkgrid gridcol: every surface of the columns around a place, to look at one's own world.
//
//   walkgrid gridcol worlds/town -12.5,40 --radius 1 --z 0,10
//   {"column":[-7,20],"grid_column":[3,20],"centre":[-13.0,41.0],"usual_level":1,"surfaces":[
//    {"level":0,"height_yards":0.0,"headroom_yards":3.0,"flags":["terrain"],"slope_degrees":0.0,
//     "zone":{"id":1,"name":"meadow"},"marks":["road"],"lifts":[],"region":0,
//     "region_surfaces":40,"links":{"E":{"kind":"walk","level":0},"NE":null,...}}, ...]}
//
// One JSON line a column (rows from the lowest frame row, columns west to east), or a table with
// --text. Coordinates are the world's frame (nav/grid/world_frame.h).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "client/frame_snap.h"
#include "client/walkgrid_commands.h"
#include "nav/grid/grid_format.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

constexpr int kMaxRadius = 64;
constexpr const char* kDirectionNames[nav::kDirectionCount] = {"E", "NE", "N", "NW",
                                                               "W", "SW", "S", "SE"};

struct GridcolArgs {
  std::string dir;
  std::string at;  // "X,Y"
  int radius = 0;
  std::string z_range;  // "LO,HI", empty for every height
  std::uint32_t continent = 0;
  bool text = false;
};

// What was asked, checked.
struct GridcolQuery {
  double x_yards = 0.0, y_yards = 0.0;
  double z_lo = -std::numeric_limits<double>::infinity();
  double z_hi = std::numeric_limits<double>::infinity();
};

// "A,B" into two finite numbers; false when it is not that.
bool ParsePair(const std::string& text, double* a, double* b) {
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) return false;
  auto number = [](const std::string& s, double* out) {
    if (s.empty()) return false;
    char* end = nullptr;
    *out = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && std::isfinite(*out);
  };
  return number(text.substr(0, comma), a) && number(text.substr(comma + 1), b);
}

// `v` with `decimals` decimals, for the table and messages.
std::string Fixed(double v, int decimals = 2) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, v);
  return buffer;
}

// A height or distance as JSON, to the millimetre (the grid stores floats).
std::vector<std::string> FlagNames(std::uint8_t flags) {
  static constexpr std::pair<std::uint8_t, const char*> kNames[] = {
      {nav::kFlagTerrain, "terrain"}, {nav::kFlagBuilding, "building"},
      {nav::kFlagIndoor, "indoor"},   {nav::kFlagWater, "water"},
      {nav::kFlagSteep, "steep"},     {nav::kFlagBlocked, "blocked"},
      {nav::kFlagForest, "forest"},   {nav::kFlagClimb, "climb"}};
  std::vector<std::string> names;
  for (const auto& [bit, name] : kNames) {
    if (flags & bit) names.emplace_back(name);
  }
  return names;
}

std::vector<std::string> MarkNames(std::uint8_t marks) {
  static constexpr std::pair<std::uint8_t, const char*> kNames[] = {{nav::kMarkRoad, "road"},
                                                                    {nav::kMarkHubA, "hub_a"},
                                                                    {nav::kMarkHubB, "hub_b"},
                                                                    {nav::kMarkLift, "lift"}};
  std::vector<std::string> names;
  for (const auto& [bit, name] : kNames) {
    if (marks & bit) names.emplace_back(name);
  }
  return names;
}

// The surface's slope: its steepest link walked on the ground (walk, steep, climb, indoor,
// swim), as the height difference over the distance between the two column centres, in
// degrees. Jumps and falls are steps off an edge and lifts ride a shaft, so they are not slope.
// nullopt when the surface has none of those links.
std::optional<double> SlopeDegrees(const nav::Continent& c, double column_yards, nav::SurfaceId s) {
  std::optional<double> steepest;
  for (int d = 0; d < nav::kDirectionCount; ++d) {
    const nav::Link link = c.links[s][d];
    if (!nav::HasLink(link)) continue;
    const nav::LinkKind kind = nav::LinkKindOf(link);
    if (kind == nav::LinkKind::kJump || kind == nav::LinkKind::kFall ||
        kind == nav::LinkKind::kLift) {
      continue;
    }
    const double rise = std::abs(c.height_yards[c.LinkTarget(s, d)] - c.height_yards[s]);
    const double run = column_yards * (nav::IsDiagonal(d) ? std::sqrt(2.0) : 1.0);
    const double degrees = std::atan2(rise, run) * 180.0 / std::numbers::pi;
    if (!steepest || degrees > *steepest) steepest = degrees;
  }
  return steepest;
}

nlohmann::ordered_json SurfaceJson(const nav::World& world, const nav::Continent& c,
                                   nav::SurfaceId s) {
  nlohmann::ordered_json j;
  j["level"] = c.level[s];
  j["height_yards"] = RoundedYards(c.height_yards[s]);
  j["headroom_yards"] = std::isfinite(c.headroom_yards[s])
                            ? nlohmann::ordered_json(RoundedYards(c.headroom_yards[s]))
                            : nlohmann::ordered_json(nullptr);
  j["flags"] = FlagNames(c.flags[s]);
  const std::optional<double> slope = SlopeDegrees(c, world.column_yards, s);
  j["slope_degrees"] =
      slope ? nlohmann::ordered_json(std::round(*slope * 10.0) / 10.0) : nlohmann::ordered_json();
  if (c.zone[s] == 0) {
    j["zone"] = nullptr;
  } else {
    const nav::Zone* zone = world.FindZone(c.zone[s]);
    j["zone"] = {{"id", c.zone[s]}, {"name", zone != nullptr ? zone->name : ""}};
  }
  j["marks"] = MarkNames(c.marks[s]);
  j["lifts"] = nlohmann::ordered_json::array();
  if (c.marks[s] & nav::kMarkLift) {
    const nav::LiftRide *first, *end;
    c.LiftsFrom(s, &first, &end);
    for (const nav::LiftRide* ride = first; ride != end; ++ride) {
      j["lifts"].push_back({{"to_level", c.level[ride->to]},
                            {"to_height_yards", RoundedYards(c.height_yards[ride->to])},
                            {"shaft_yards", RoundedYards(ride->shaft_yards)}});
    }
  }
  j["region"] = c.region[s];
  j["region_surfaces"] = c.region_size[c.region[s]];
  nlohmann::ordered_json links = nlohmann::ordered_json::object();
  for (int d = 0; d < nav::kDirectionCount; ++d) {
    const nav::Link link = c.links[s][d];
    links[kDirectionNames[d]] =
        nav::HasLink(link)
            ? nlohmann::ordered_json{{"kind",
                                      std::string(nav::LinkKindName(nav::LinkKindOf(link)))},
                                     {"level", nav::LinkLevel(link)}}
            : nlohmann::ordered_json();
  }
  j["links"] = links;
  return j;
}

// One column: its frame index and centre, the level of its usual floor, its surfaces in range.
nlohmann::ordered_json ColumnJson(const nav::World& world, const nav::Continent& c, std::int64_t x,
                                  std::int64_t y, const GridcolQuery& query) {
  const nav::WorldFrame frame = world.FrameOf(c);
  nlohmann::ordered_json j;
  j["column"] = {frame.FrameColumnX(x), frame.FrameColumnY(y)};
  j["grid_column"] = {x, y};
  j["centre"] = {RoundedYards(frame.CentreX(x)), RoundedYards(frame.CentreY(y))};
  const nav::Snap usual = SnapColumn(world, c, x, y, std::nullopt);
  j["usual_level"] = usual.status == nav::WalkStatus::kOk ? nlohmann::ordered_json(usual.end.level)
                                                          : nlohmann::ordered_json();
  j["surfaces"] = nlohmann::ordered_json::array();
  nav::SurfaceId first, end;
  c.ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first, &end);
  for (nav::SurfaceId s = first; s < end; ++s) {
    if (c.height_yards[s] < query.z_lo || c.height_yards[s] > query.z_hi) continue;
    j["surfaces"].push_back(SurfaceJson(world, c, s));
  }
  return j;
}

std::string JoinNames(const nlohmann::ordered_json& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ",") + name.get<std::string>();
  return out.empty() ? "-" : out;
}

// The readable form of one column's JSON.
void PrintColumnText(const nlohmann::ordered_json& column) {
  std::cout << "column " << column["column"][0] << "," << column["column"][1] << "  centre "
            << column["centre"][0] << "," << column["centre"][1] << " yd  grid "
            << column["grid_column"][0] << "," << column["grid_column"][1] << "  usual level "
            << (column["usual_level"].is_null() ? "-" : column["usual_level"].dump()) << "\n";
  if (column["surfaces"].empty()) {
    std::cout << "  (no surface)\n";
    return;
  }
  std::printf("  %-3s %8s %8s %6s %-18s %-10s %-14s %-12s", "lvl", "height", "headroom", "slope",
              "flags", "marks", "zone", "region(size)");
  for (int d = 0; d < nav::kDirectionCount; ++d) {
    std::printf(d + 1 < nav::kDirectionCount ? " %-8s" : " %s\n", kDirectionNames[d]);
  }
  for (const auto& s : column["surfaces"]) {
    const std::string headroom =
        s["headroom_yards"].is_null() ? "sky" : Fixed(s["headroom_yards"].get<double>());
    const std::string slope =
        s["slope_degrees"].is_null() ? "-" : Fixed(s["slope_degrees"].get<double>(), 1);
    const std::string zone =
        s["zone"].is_null() ? "-"
                            : s["zone"]["id"].dump() + " " + s["zone"]["name"].get<std::string>();
    const std::string region = s["region"].dump() + "(" + s["region_surfaces"].dump() + ")";
    std::printf("  %-3d %8s %8s %6s %-18s %-10s %-14s %-12s", s["level"].get<int>(),
                Fixed(s["height_yards"].get<double>()).c_str(), headroom.c_str(), slope.c_str(),
                JoinNames(s["flags"]).c_str(), JoinNames(s["marks"]).c_str(), zone.c_str(),
                region.c_str());
    for (int d = 0; d < nav::kDirectionCount; ++d) {
      const auto& link = s["links"][kDirectionNames[d]];
      const std::string cell =
          link.is_null() ? "-" : link["kind"].get<std::string>() + link["level"].dump();
      std::printf(d + 1 < nav::kDirectionCount ? " %-8s" : " %s\n", cell.c_str());
    }
    for (const auto& ride : s["lifts"]) {
      std::printf("      lift to level %d at %s (shaft %s yd)\n", ride["to_level"].get<int>(),
                  Fixed(ride["to_height_yards"].get<double>()).c_str(),
                  Fixed(ride["shaft_yards"].get<double>()).c_str());
    }
  }
  std::fflush(stdout);
}

// Checks the arguments against the world; refuses, naming the option, what is not right.
GridcolQuery Validate(const GridcolArgs& args, const nav::World& world,
                      const nav::Continent** continent) {
  GridcolQuery query;
  if (!ParsePair(args.at, &query.x_yards, &query.y_yards)) {
    FailCommand(
        "gridcol",
        "X,Y: '" + args.at + "' is not two numbers (yards in the world's frame, e.g. 12.5,-40)", 2);
  }
  if (args.radius < 0 || args.radius > kMaxRadius) {
    FailCommand("gridcol",
                "--radius: must be 0 to " + std::to_string(kMaxRadius) + " columns (got " +
                    std::to_string(args.radius) + ")",
                2);
  }
  if (!args.z_range.empty()) {
    if (!ParsePair(args.z_range, &query.z_lo, &query.z_hi) || query.z_lo > query.z_hi) {
      FailCommand("gridcol", "--z: '" + args.z_range + "' is not LO,HI with LO <= HI (yards)", 2);
    }
  }
  *continent = world.FindContinent(args.continent);
  if (*continent == nullptr) {
    FailCommand("gridcol",
                "--continent: the world has no continent " + std::to_string(args.continent), 2);
  }
  const nav::WorldFrame frame = world.FrameOf(**continent);
  const std::int64_t x = frame.ColumnX(query.x_yards), y = frame.ColumnY(query.y_yards);
  if (!(*continent)->OnMap(x, y)) {
    const nav::Continent& c = **continent;
    FailCommand("gridcol",
                "X,Y: " + args.at + " is off the map: continent " + std::to_string(c.id) +
                    " spans x " + Fixed(frame.FrameX(0.0)) + " to " +
                    Fixed(frame.FrameX(c.width_columns * world.column_yards)) + ", y " +
                    Fixed(frame.FrameY(0.0)) + " to " +
                    Fixed(frame.FrameY(c.height_columns * world.column_yards)) +
                    " yards in the world's frame",
                2);
  }
  return query;
}

void RunGridcol(const GridcolArgs& args) {
  absl::StatusOr<nav::LoadedWorld> loaded = nav::LoadWorld(args.dir);
  if (!loaded.ok()) FailCommand("gridcol", std::string(loaded.status().message()), 1);
  const nav::World& world = loaded->world;
  const nav::Continent* c = nullptr;
  const GridcolQuery query = Validate(args, world, &c);
  const nav::WorldFrame frame = world.FrameOf(*c);
  const std::int64_t cx = frame.ColumnX(query.x_yards), cy = frame.ColumnY(query.y_yards);
  for (std::int64_t y = cy - args.radius; y <= cy + args.radius; ++y) {
    for (std::int64_t x = cx - args.radius; x <= cx + args.radius; ++x) {
      if (!c->OnMap(x, y)) continue;
      const nlohmann::ordered_json column = ColumnJson(world, *c, x, y, query);
      if (args.text) {
        PrintColumnText(column);
      } else {
        std::cout << column.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
      }
    }
  }
  std::cout << std::flush;
}

}  // namespace

void AddGridcolCommand(CLI::App& app) {
  auto args = std::make_shared<GridcolArgs>();
  CLI::App* cmd = app.add_subcommand(
      "gridcol",
      "Every surface of the columns around a place: height, headroom, flags, slope, zone, marks, "
      "lifts, region and each direction's link; one JSON line a column");
  cmd->add_option("world", args->dir, "the world folder")->required();
  cmd->add_option("at", args->at, "X,Y yards in the world's frame")->required();
  cmd->add_option("--radius", args->radius, "also the columns up to R columns away (0 to 64)")
      ->capture_default_str();
  cmd->add_option("--z", args->z_range, "only surfaces with height in LO,HI yards");
  cmd->add_option("--continent", args->continent, "the continent id")->capture_default_str();
  cmd->add_flag("--text", args->text, "print a readable table instead of JSON lines");
  cmd->callback([args] { RunGridcol(*args); });
}

}  // namespace walk::client
