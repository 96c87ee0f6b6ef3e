// walkgrid snapcheck: how often a place without a height is put on another floor than a
// recorded walk was on. For every position of the trail, the usual floor (SnapPlace without a
// height) against the walked floor: the surface nearest the line's "z" when it has one, else the
// floor the walk was followed at (`walkgrid trailfollow`'s output given with --follow, or
// followed here).
//
//   walkgrid snapcheck worlds/town --trail trail.jsonl
//   {"index":4,"walk":"a","x":-3.0,"y":-4.0,"column":[-2,-2],"usual":{"level":1,
//    "height_yards":3.0},"walked":{"level":0,"height_yards":0.0,"by":"follow"}}
//   {"summary":{"positions":9,"same_floor":6,"other_floor":3,"no_surface":0,"off_map":0,
//    "by_z":0,"by_follow":9,"other_floor_share":0.333}}
//
// The first --mismatches lines (default 20) are the positions on another floor; the summary is
// last. Exits 0, 1 when a file cannot be read, 2 on a line that is not what it should be.
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "CLI/CLI.hpp"
#include "client/frame_snap.h"
#include "client/progress_counter.h"
#include "client/trail_follow.h"
#include "client/trail_input.h"
#include "client/walkgrid_commands.h"
#include "nav/grid/grid_format.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

struct SnapcheckArgs {
  std::string dir;
  std::string trail;
  std::string follow;
  std::uint32_t continent = 0;
  std::uint32_t mismatches = 20;
};

// Reads `walkgrid trailfollow`'s lines in step with the trail: the floor each position was
// followed at.
class FollowFile {
 public:
  explicit FollowFile(const std::string& path) : path_(path), in_(path) {
    if (!in_) FailCommand("snapcheck", "--follow: cannot read " + path, 1);
  }

  // The surface the follow file puts `position` (at grid column x, y) on, or kInvalidId.
  nav::SurfaceId Next(const nav::World& world, const nav::Continent& c, const TrailPosition& p,
                      std::int64_t x, std::int64_t y) {
    nlohmann::json line = ReadLine();
    const std::string where = "--follow " + path_ + " line " + std::to_string(line_number_);
    if (!line.contains("index") || line["index"] != p.index) {
      FailCommand("snapcheck",
                  where + ": index: expected position " + std::to_string(p.index) + " of the trail",
                  2);
    }
    const nav::WorldFrame frame = world.FrameOf(c);
    const nlohmann::json column = {frame.FrameColumnX(x), frame.FrameColumnY(y)};
    if (line.value("column", nlohmann::json()) != column) {
      FailCommand("snapcheck",
                  where + ": column: " + line.value("column", nlohmann::json()).dump() +
                      " is not the trail's " + column.dump() + " (another trail or world?)",
                  2);
    }
    const nlohmann::json level = line.value("level", nlohmann::json());
    if (level.is_null()) return nav::kInvalidId;
    nav::SurfaceId first = 0, end = 0;
    if (c.OnMap(x, y)) {
      c.ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first, &end);
    }
    if (!level.is_number_unsigned() || level.get<std::uint64_t>() >= end - first) {
      FailCommand("snapcheck",
                  where + ": level: " + level.dump() + " is not a floor of that column", 2);
    }
    return first + level.get<nav::SurfaceId>();
  }

 private:
  // The next line that is a position (the summary and blank lines skipped).
  nlohmann::json ReadLine() {
    std::string text;
    while (std::getline(in_, text)) {
      ++line_number_;
      if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
      nlohmann::json line = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (!line.is_object()) {
        FailCommand("snapcheck",
                    "--follow " + path_ + " line " + std::to_string(line_number_) + ": not JSON",
                    2);
      }
      if (line.contains("summary")) continue;
      return line;
    }
    FailCommand("snapcheck", "--follow " + path_ + ": ends before the trail does", 2);
  }

  std::string path_;
  std::ifstream in_;
  std::uint64_t line_number_ = 0;
};

struct Counts {
  std::uint64_t positions = 0, same_floor = 0, other_floor = 0, no_surface = 0, off_map = 0;
  std::uint64_t by_z = 0, by_follow = 0;
};

nlohmann::ordered_json FloorJson(const nav::Continent& c, nav::SurfaceId s) {
  return {{"level", c.level[s]}, {"height_yards", RoundedYards(c.height_yards[s])}};
}

nlohmann::ordered_json MismatchJson(const nav::World& world, const nav::Continent& c,
                                    const TrailPosition& p, std::int64_t x, std::int64_t y,
                                    nav::SurfaceId usual, nav::SurfaceId walked) {
  const nav::WorldFrame frame = world.FrameOf(c);
  nlohmann::ordered_json j;
  j["index"] = p.index;
  j["walk"] = nlohmann::ordered_json::parse(p.walk);
  j["x"] = p.x_yards;
  j["y"] = p.y_yards;
  if (p.z_yards) j["z"] = *p.z_yards;
  j["column"] = {frame.FrameColumnX(x), frame.FrameColumnY(y)};
  j["usual"] = FloorJson(c, usual);
  j["walked"] = FloorJson(c, walked);
  j["walked"]["by"] = p.z_yards ? "z" : "follow";
  return j;
}

void RunSnapcheck(const SnapcheckArgs& args) {
  absl::StatusOr<nav::LoadedWorld> loaded = nav::LoadWorld(args.dir);
  if (!loaded.ok()) FailCommand("snapcheck", std::string(loaded.status().message()), 1);
  const nav::World& world = loaded->world;
  const nav::Continent* c = world.FindContinent(args.continent);
  if (c == nullptr) {
    FailCommand("snapcheck",
                "--continent: the world has no continent " + std::to_string(args.continent), 2);
  }
  std::ifstream trail_in(args.trail);
  if (!trail_in) FailCommand("snapcheck", "--trail: cannot read " + args.trail, 1);
  TrailReader reader(trail_in, "--trail " + args.trail);
  std::unique_ptr<FollowFile> follow_file;
  if (!args.follow.empty()) follow_file = std::make_unique<FollowFile>(args.follow);
  TrailFollower follower(world, *c);
  ProgressCounter progress("walkgrid snapcheck", "positions");
  const nav::WorldFrame frame = world.FrameOf(*c);
  Counts n;
  while (true) {
    absl::StatusOr<std::optional<TrailPosition>> next = reader.Next();
    if (!next.ok()) FailCommand("snapcheck", std::string(next.status().message()), 2);
    if (!next->has_value()) break;
    const TrailPosition& p = **next;
    const std::int64_t x = frame.ColumnX(p.x_yards), y = frame.ColumnY(p.y_yards);
    // The floor the walk was on: followed in step with the trail, so a line with "z" between
    // lines without it leaves the following where it was.
    nav::SurfaceId walked =
        follow_file ? follow_file->Next(world, *c, p, x, y) : follower.Follow(p).surface;
    if (p.z_yards) {
      const nav::Snap at_z = SnapColumn(world, *c, x, y, p.z_yards);
      walked = at_z.status == nav::WalkStatus::kOk ? at_z.end.surface : nav::kInvalidId;
    }
    ++n.positions;
    ++(p.z_yards ? n.by_z : n.by_follow);
    progress.Tick();
    const nav::Snap usual = SnapColumn(world, *c, x, y, std::nullopt);
    if (usual.status != nav::WalkStatus::kOk || walked == nav::kInvalidId) {
      ++n.no_surface;
      n.off_map += usual.status == nav::WalkStatus::kOffMap ? 1 : 0;
    } else if (usual.end.surface == walked) {
      ++n.same_floor;
    } else if (++n.other_floor <= args.mismatches) {
      progress.Finish();
      std::cout << MismatchJson(world, *c, p, x, y, usual.end.surface, walked).dump() << "\n";
    }
  }
  progress.Finish();
  nlohmann::ordered_json summary;
  summary["positions"] = n.positions;
  summary["same_floor"] = n.same_floor;
  summary["other_floor"] = n.other_floor;
  summary["no_surface"] = n.no_surface;
  summary["off_map"] = n.off_map;
  summary["by_z"] = n.by_z;
  summary["by_follow"] = n.by_follow;
  const std::uint64_t compared = n.same_floor + n.other_floor;
  summary["other_floor_share"] =
      compared == 0 ? 0.0 : RoundedYards(static_cast<double>(n.other_floor) / compared);
  std::cout << nlohmann::ordered_json{{"summary", summary}}.dump() << std::endl;
}

}  // namespace

void AddSnapcheckCommand(CLI::App& app) {
  auto args = std::make_shared<SnapcheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "snapcheck",
      "How often a place without a height is put on another floor than a recorded walk was on: "
      "the usual floor against the followed floor (or the floor nearest the trail's z)");
  cmd->add_option("world", args->dir, "the world folder")->required();
  cmd->add_option("--trail", args->trail, "the recorded walks, JSON lines {\"x\",\"y\"[,\"z\"]}")
      ->required();
  cmd->add_option("--follow", args->follow,
                  "walkgrid trailfollow's output for that trail (else followed here)");
  cmd->add_option("--continent", args->continent, "the continent id")->capture_default_str();
  cmd->add_option("--mismatches", args->mismatches, "print the first N positions on another floor")
      ->capture_default_str();
  cmd->callback([args] { RunSnapcheck(*args); });
}

}  // namespace walk::client
