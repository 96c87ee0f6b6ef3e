#include "client/trail_follow.h"

#include <cmath>
#include <cstdlib>

#include "client/frame_snap.h"

namespace walk::client {
namespace {

// The direction index of a column offset (each of dx, dy in -1 .. 1, not both 0).
int DirectionOf(int dx, int dy) {
  for (int d = 0; d < nav::kDirectionCount; ++d) {
    if (nav::kDirectionDx[d] == dx && nav::kDirectionDy[d] == dy) return d;
  }
  return -1;
}

}  // namespace

const char* FollowStatusName(FollowStatus status) {
  switch (status) {
    case FollowStatus::kStart:
      return "start";
    case FollowStatus::kFollowed:
      return "followed";
    case FollowStatus::kResumed:
      return "resumed";
    case FollowStatus::kOffMap:
      return "off_map";
    case FollowStatus::kNoSurface:
      return "no_surface";
  }
  return "unknown";
}

FollowedPosition TrailFollower::Follow(const TrailPosition& position) {
  const nav::WorldFrame frame = world_.FrameOf(continent_);
  FollowedPosition out;
  out.column_x = frame.ColumnX(position.x_yards);
  out.column_y = frame.ColumnY(position.y_yards);
  if (!started_ || position.walk != walk_) current_ = nav::kInvalidId;
  started_ = true;
  walk_ = position.walk;

  if (current_ != nav::kInvalidId) {
    FollowBreak broke;
    const nav::SurfaceId reached =
        Walk(current_, out.column_x, out.column_y, &broke, &out.columns_stepped);
    if (reached != nav::kInvalidId) {
      current_ = reached;
      out.status = FollowStatus::kFollowed;
      out.surface = reached;
      return out;
    }
    out.broke = broke;
  }
  const nav::Snap snap = SnapColumn(world_, continent_, out.column_x, out.column_y, std::nullopt);
  if (snap.status != nav::WalkStatus::kOk) {
    out.status =
        snap.status == nav::WalkStatus::kOffMap ? FollowStatus::kOffMap : FollowStatus::kNoSurface;
    current_ = nav::kInvalidId;
    return out;
  }
  out.status = out.broke ? FollowStatus::kResumed : FollowStatus::kStart;
  out.surface = snap.end.surface;
  current_ = snap.end.surface;
  return out;
}

nav::SurfaceId TrailFollower::Walk(nav::SurfaceId from, std::int64_t to_x, std::int64_t to_y,
                                   FollowBreak* broke, std::uint32_t* stepped) const {
  // Bresenham's line between the two columns, 8-connected: one column a step.
  std::int64_t x = continent_.column_x[from], y = continent_.column_y[from];
  const std::int64_t dx = std::llabs(to_x - x), dy = std::llabs(to_y - y);
  const int sx = to_x > x ? 1 : -1, sy = to_y > y ? 1 : -1;
  std::int64_t error = dx - dy;
  nav::SurfaceId at = from;
  while (x != to_x || y != to_y) {
    const std::int64_t twice = 2 * error;
    int mx = 0, my = 0;
    if (twice > -dy) {
      error -= dy;
      mx = sx;
    }
    if (twice < dx) {
      error += dx;
      my = sy;
    }
    const nav::SurfaceId next = Step(at, DirectionOf(mx, my), stepped);
    if (next == nav::kInvalidId) {
      broke->from = at;
      broke->from_column_x = x;
      broke->from_column_y = y;
      broke->to_column_x = x + mx;
      broke->to_column_y = y + my;
      return nav::kInvalidId;
    }
    at = next;
    x += mx;
    y += my;
  }
  return at;
}

nav::SurfaceId TrailFollower::Step(nav::SurfaceId from, int d, std::uint32_t* entered) const {
  if (const nav::SurfaceId direct = Link(from, d); direct != nav::kInvalidId) {
    *entered += 1;
    return direct;
  }
  if (!nav::IsDiagonal(d)) return nav::kInvalidId;
  // Round the corner, by the orthogonal d - 1 then d + 1, or d + 1 then d - 1.
  const int a = (d + nav::kDirectionCount - 1) % nav::kDirectionCount;
  const int b = (d + 1) % nav::kDirectionCount;
  nav::SurfaceId via_a = Link(from, a), via_b = Link(from, b);
  if (via_a != nav::kInvalidId) via_a = Link(via_a, b);
  if (via_b != nav::kInvalidId) via_b = Link(via_b, a);
  nav::SurfaceId best = via_a;
  if (best == nav::kInvalidId ||
      (via_b != nav::kInvalidId &&
       std::abs(continent_.height_yards[via_b] - continent_.height_yards[from]) <
           std::abs(continent_.height_yards[via_a] - continent_.height_yards[from]))) {
    best = via_b;
  }
  if (best != nav::kInvalidId) *entered += 2;
  return best;
}

nav::SurfaceId TrailFollower::Link(nav::SurfaceId from, int d) const {
  if (!nav::HasLink(continent_.links[from][d])) return nav::kInvalidId;
  return continent_.LinkTarget(from, d);
}

}  // namespace walk::client
