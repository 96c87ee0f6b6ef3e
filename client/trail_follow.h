// Following a recorded walk through a grid's links, without the walk's heights: which floor of
// each column the walker was on, and where the grid has no way on from one column to the next
// (a break). `walkgrid trailfollow` prints what this finds; `walkgrid snapcheck` compares the
// floors it follows with the usual floors (SnapPlace without a height).
//
// A walk starts on its first position's usual floor. From one position to the next it steps
// along the straight line between their columns, column by column (an 8-connected line), each
// step taking the current surface's link in that direction; a diagonal step whose surface has no
// diagonal link goes round by either orthogonal neighbour, and when both ways arrive, on the
// surface nearest the current height. A step no link takes is a break: the walk resumes at the
// next position's usual floor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "client/trail_input.h"
#include "nav/grid/grid.h"

namespace walk::client {

enum class FollowStatus : std::uint8_t {
  kStart,      // the walk's first position with a surface: its usual floor
  kFollowed,   // reached along links from the position before
  kResumed,    // after a break, on its usual floor
  kOffMap,     // the column is off the continent's map (or in an absent tile)
  kNoSurface,  // the column holds no surface
};

const char* FollowStatusName(FollowStatus status);

// Where the links gave out on the way to a position.
struct FollowBreak {
  nav::SurfaceId from = nav::kInvalidId;  // the surface walked from
  std::int64_t from_column_x = 0;         // its grid column
  std::int64_t from_column_y = 0;
  std::int64_t to_column_x = 0;  // the grid column no link reaches (may be off the map)
  std::int64_t to_column_y = 0;
};

struct FollowedPosition {
  FollowStatus status = FollowStatus::kStart;
  std::int64_t column_x = 0;  // the position's grid column (may be off the map)
  std::int64_t column_y = 0;
  nav::SurfaceId surface = nav::kInvalidId;  // kStart, kFollowed and kResumed
  std::optional<FollowBreak> broke;          // the links gave out on the way here
  std::uint32_t columns_stepped = 0;         // columns entered along links on the way here
};

// Follows positions in order. Holds references to `world` and `continent` (a continent of
// `world`), which must outlive it; memory stays constant however long the trail.
class TrailFollower {
 public:
  TrailFollower(const nav::World& world, const nav::Continent& continent)
      : world_(world), continent_(continent) {}

  // Follows the walk on to `position`: from the position before when it has the same walk, else
  // from the start.
  FollowedPosition Follow(const TrailPosition& position);

 private:
  // Steps from `from` towards grid column (x, y); the surface reached, or kInvalidId with
  // `broke` set. Adds the columns entered to `*stepped`.
  nav::SurfaceId Walk(nav::SurfaceId from, std::int64_t x, std::int64_t y, FollowBreak* broke,
                      std::uint32_t* stepped) const;
  // The surface one step in direction `d` leads to from `from` (kInvalidId when none does).
  nav::SurfaceId Step(nav::SurfaceId from, int d, std::uint32_t* entered) const;
  // The link target of `from` in direction `d`, or kInvalidId.
  nav::SurfaceId Link(nav::SurfaceId from, int d) const;

  const nav::World& world_;
  const nav::Continent& continent_;
  bool started_ = false;
  std::string walk_;
  nav::SurfaceId current_ = nav::kInvalidId;  // where the walk stands, kInvalidId when nowhere
};

}  // namespace walk::client
