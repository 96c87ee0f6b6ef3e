// walkgrid trailfollow: follows recorded walks (positions without heights, JSON lines on stdin)
// through the grid's links (client/trail_follow.h) and says where the grid has no way on.
//
//   walkgrid trailfollow worlds/town < trail.jsonl
//   {"index":0,"walk":"a","x":-19.0,"y":-4.0,"column":[-10,-2],"status":"start","level":0,
//    "height_yards":0.0,"break":false}
//   {"index":1,"walk":"a","x":-7.0,"y":-4.0,"column":[-4,-2],"status":"resumed","level":0,
//    "height_yards":0.0,"break":true,"break_at":{"from_column":[-5,-2],"from_level":0,
//    "from_height_yards":0.0,"to_column":[-4,-2],"to_holds":[{"level":0,"height_yards":5.0}]}}
//   {"summary":{"positions":2,"walks":1,"breaks":1,"columns_stepped":5,"off_map":0,
//    "no_surface":0}}
//
// One line a position, then the summary. Exits 0 (breaks are findings, not failures), 2 on a
// line that is not a position.
#include <iostream>
#include <memory>
#include <string>

#include "CLI/CLI.hpp"
#include "client/progress_counter.h"
#include "client/trail_follow.h"
#include "client/trail_input.h"
#include "client/walkgrid_commands.h"
#include "nav/grid/grid_format.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

struct TrailfollowArgs {
  std::string dir;
  std::uint32_t continent = 0;
};

// What the column a break could not enter holds: its surfaces' levels and heights.
nlohmann::ordered_json ColumnHolds(const nav::Continent& c, std::int64_t x, std::int64_t y) {
  nlohmann::ordered_json holds = nlohmann::ordered_json::array();
  if (!c.OnMap(x, y)) return holds;
  nav::SurfaceId first, end;
  c.ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first, &end);
  for (nav::SurfaceId s = first; s < end; ++s) {
    holds.push_back({{"level", c.level[s]}, {"height_yards", RoundedYards(c.height_yards[s])}});
  }
  return holds;
}

nlohmann::ordered_json PositionJson(const nav::World& world, const nav::Continent& c,
                                    const TrailPosition& p, const FollowedPosition& f) {
  const nav::WorldFrame frame = world.FrameOf(c);
  nlohmann::ordered_json j;
  j["index"] = p.index;
  j["walk"] = nlohmann::ordered_json::parse(p.walk);
  j["x"] = p.x_yards;
  j["y"] = p.y_yards;
  j["column"] = {frame.FrameColumnX(f.column_x), frame.FrameColumnY(f.column_y)};
  j["status"] = FollowStatusName(f.status);
  if (f.surface != nav::kInvalidId) {
    j["level"] = c.level[f.surface];
    j["height_yards"] = RoundedYards(c.height_yards[f.surface]);
  } else {
    j["level"] = nullptr;
    j["height_yards"] = nullptr;
  }
  j["break"] = f.broke.has_value();
  if (f.broke) {
    const FollowBreak& b = *f.broke;
    nlohmann::ordered_json at;
    at["from_column"] = {frame.FrameColumnX(b.from_column_x), frame.FrameColumnY(b.from_column_y)};
    at["from_level"] = c.level[b.from];
    at["from_height_yards"] = RoundedYards(c.height_yards[b.from]);
    at["to_column"] = {frame.FrameColumnX(b.to_column_x), frame.FrameColumnY(b.to_column_y)};
    at["to_off_map"] = !c.OnMap(b.to_column_x, b.to_column_y);
    at["to_holds"] = ColumnHolds(c, b.to_column_x, b.to_column_y);
    j["break_at"] = at;
  }
  return j;
}

void RunTrailfollow(const TrailfollowArgs& args) {
  absl::StatusOr<nav::LoadedWorld> loaded = nav::LoadWorld(args.dir);
  if (!loaded.ok()) FailCommand("trailfollow", std::string(loaded.status().message()), 1);
  const nav::World& world = loaded->world;
  const nav::Continent* c = world.FindContinent(args.continent);
  if (c == nullptr) {
    FailCommand("trailfollow",
                "--continent: the world has no continent " + std::to_string(args.continent), 2);
  }
  TrailReader reader(std::cin, "trail");
  TrailFollower follower(world, *c);
  ProgressCounter progress("walkgrid trailfollow", "positions");
  std::uint64_t positions = 0, walks = 0, breaks = 0, stepped = 0, off_map = 0, no_surface = 0;
  std::string last_walk;
  while (true) {
    absl::StatusOr<std::optional<TrailPosition>> next = reader.Next();
    if (!next.ok()) {
      progress.Finish();
      FailCommand("trailfollow", std::string(next.status().message()), 2);
    }
    if (!next->has_value()) break;
    const TrailPosition& p = **next;
    const FollowedPosition f = follower.Follow(p);
    if (positions == 0 || p.walk != last_walk) ++walks;
    last_walk = p.walk;
    ++positions;
    breaks += f.broke ? 1 : 0;
    stepped += f.columns_stepped;
    off_map += f.status == FollowStatus::kOffMap ? 1 : 0;
    no_surface += f.status == FollowStatus::kNoSurface ? 1 : 0;
    std::cout << PositionJson(world, *c, p, f).dump() << "\n";
    progress.Tick();
  }
  progress.Finish();
  nlohmann::ordered_json summary;
  summary["positions"] = positions;
  summary["walks"] = walks;
  summary["breaks"] = breaks;
  summary["columns_stepped"] = stepped;
  summary["off_map"] = off_map;
  summary["no_surface"] = no_surface;
  std::cout << nlohmann::ordered_json{{"summary", summary}}.dump() << std::endl;
}

}  // namespace

void AddTrailfollowCommand(CLI::App& app) {
  auto args = std::make_shared<TrailfollowArgs>();
  CLI::App* cmd = app.add_subcommand(
      "trailfollow",
      "Follow recorded walks (JSON lines {\"x\",\"y\"[,\"walk\"]} on stdin, frame yards) through "
      "the grid's links; one JSON line a position, breaks where no link goes on, then a summary");
  cmd->add_option("world", args->dir, "the world folder")->required();
  cmd->add_option("--continent", args->continent, "the continent id")->capture_default_str();
  cmd->callback([args] { RunTrailfollow(*args); });
}

}  // namespace walk::client
