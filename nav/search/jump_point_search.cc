#include "nav/search/jump_point_search.h"

#include <algorithm>
#include <cstdlib>

#include "nav/search/four_ary_heap.h"
#include "nav/search/octile_step.h"

namespace walk::nav {

void JumpPointSearch::Prepare(const JumpGrid& grid, std::uint32_t goal) {
  grid_ = &grid;
  goal_ = goal;
  goal_x_ = static_cast<std::int32_t>(goal % grid.stride());
  goal_y_ = static_cast<std::int32_t>(goal / grid.stride());
  if (nodes_.size() < grid.cell_count()) {
    nodes_.assign(grid.cell_count(), Node{0, 0, 0.0, 0, 0});
    heap_.resize(grid.cell_count());
    generation_ = 0;
  }
  if (++generation_ == 0) {  // wrapped: stamps from 2^32 searches ago would look current
    for (Node& n : nodes_) n.stamp = 0;
    generation_ = 1;
  }
  heap_size_ = 0;
  heap_operations_ = 0;
}

void JumpPointSearch::SiftUp(std::uint32_t pos, Entry entry) {
  SiftUp4(heap_, pos, entry, Before, [this](std::uint32_t at, const Entry& e) {
    heap_[at] = e;
    nodes_[e.cell].heap_pos = at;
  });
}

void JumpPointSearch::SiftDown(std::uint32_t pos, Entry entry) {
  SiftDown4(heap_, heap_size_, pos, entry, Before, [this](std::uint32_t at, const Entry& e) {
    heap_[at] = e;
    nodes_[e.cell].heap_pos = at;
  });
}

std::uint32_t JumpPointSearch::PopMin() {
  const std::uint32_t cell = heap_[0].cell;
  if (--heap_size_ > 0) SiftDown(0, heap_[heap_size_]);
  nodes_[cell].heap_pos = kClosed;
  ++heap_operations_;
  return cell;
}

void JumpPointSearch::Reach(std::uint32_t cell, std::int32_t x, std::int32_t y, double g,
                            std::uint32_t parent, int arrival) {
  Node& n = nodes_[cell];
  const bool seen = n.stamp == generation_;
  if (seen && (n.heap_pos == kClosed || n.g <= g)) return;
  const double f = g + OctileColumns(std::abs(x - goal_x_), std::abs(y - goal_y_));
  const std::uint32_t pos = seen ? n.heap_pos : heap_size_++;
  n = Node{generation_, parent, g, pos, static_cast<std::uint8_t>(arrival)};
  SiftUp(pos, Entry{f, static_cast<float>(g), cell});
  ++heap_operations_;
}

// Along straight d from p.
void JumpPointSearch::ScanStraight(std::uint32_t p, std::int32_t x, std::int32_t y, double g,
                                   int d) {
  const int dx = kDirectionDx[d], dy = kDirectionDy[d];
  const std::int32_t rx = goal_x_ - x, ry = goal_y_ - y;
  if (StepSign(rx) == dx && StepSign(ry) == dy) {
    const std::int32_t to_goal = std::max(std::abs(rx), std::abs(ry));
    if (to_goal <= grid_->Runs(p).to[d]) {
      Reach(goal_, goal_x_, goal_y_, g + to_goal, p, d);
      return;  // any jump point on the way leads on to the goal along this very line
    }
  }
  if (const std::int32_t j = grid_->Jumps(p).to[d]; j != 0) {
    Reach(p + j * grid_->Offset(d), x + j * dx, y + j * dy, g + j, p, d);
  }
}

// Along diagonal d from p: every straight jump point seen from a cell of the run, and the goal
// where the run or a straight line from it passes over it.
void JumpPointSearch::ScanDiagonal(std::uint32_t p, std::int32_t x, std::int32_t y, double g,
                                   int d) {
  const int dx = kDirectionDx[d], dy = kDirectionDy[d];
  const int left = (d + 7) % 8, right = (d + 1) % 8;
  const std::int32_t rx = goal_x_ - x, ry = goal_y_ - y;
  if (StepSign(rx) == dx && StepSign(ry) == dy) {
    const std::int32_t ax = std::abs(rx), ay = std::abs(ry);
    const std::int32_t k = std::min(ax, ay);
    if (k <= grid_->Runs(p).to[d]) {
      const std::uint32_t corner = p + k * grid_->Offset(d);
      if (ax == ay) {
        Reach(goal_, goal_x_, goal_y_, g + k * kSqrt2, p, d);
      } else {
        const int straight = (kDirectionDy[left] == 0) == (ax > ay) ? left : right;
        const std::int32_t rest = std::abs(ax - ay);
        if (rest <= grid_->Runs(corner).to[straight]) {
          Reach(goal_, goal_x_, goal_y_, g + k * kSqrt2 + rest, p, straight);
        }
      }
    }
  }
  std::uint32_t cur = p;
  std::int32_t steps = 0;
  for (std::int32_t j = grid_->Jumps(p).to[d]; j != 0; j = grid_->Jumps(cur).to[d]) {
    cur += j * grid_->Offset(d);
    steps += j;
    const JumpGrid::Steps& q = grid_->Jumps(cur);
    const std::int32_t qx = x + steps * dx, qy = y + steps * dy;
    for (const int s : {left, right}) {
      if (const std::int32_t js = q.to[s]; js != 0) {
        Reach(cur + js * grid_->Offset(s), qx + js * kDirectionDx[s], qy + js * kDirectionDy[s],
              g + steps * kSqrt2 + js, p, s);
      }
    }
  }
}

void JumpPointSearch::Expand(std::uint32_t p) {
  const Node& n = nodes_[p];
  const double g = n.g;
  const std::int32_t x = static_cast<std::int32_t>(p % grid_->stride());
  const std::int32_t y = static_cast<std::int32_t>(p / grid_->stride());
  if (n.arrival == kFromStart) {
    for (int d = 0; d < kDirectionCount; d += 2) ScanStraight(p, x, y, g, d);
    for (int d = 1; d < kDirectionCount; d += 2) ScanDiagonal(p, x, y, g, d);
    return;
  }
  const int a = n.arrival;
  ScanStraight(p, x, y, g, a);
  const std::int32_t back = -grid_->Offset(a);
  // A forced side: its straight line, and the diagonal between it and the way in.
  for (const int side : {(a + 2) % 8, (a + 6) % 8}) {
    if (grid_->Free(p + grid_->Offset(side)) && !grid_->Free(p + back + grid_->Offset(side))) {
      ScanStraight(p, x, y, g, side);
      ScanDiagonal(p, x, y, g, side == (a + 2) % 8 ? (a + 1) % 8 : (a + 7) % 8);
    }
  }
}

SearchResult JumpPointSearch::FindWalk(const JumpGrid& grid, const Continent& continent,
                                       double column_yards, double seconds_per_column,
                                       SurfaceId from, SurfaceId to, std::vector<PathStep>* path,
                                       std::uint64_t max_expanded, const SearchStop* stop) {
  SearchResult result;
  const std::uint32_t start = grid.IndexOf(continent, from);
  Prepare(grid, grid.IndexOf(continent, to));
  Reach(start, static_cast<std::int32_t>(start % grid.stride()),
        static_cast<std::int32_t>(start / grid.stride()), 0.0, start, kFromStart);
  std::uint64_t expanded = 0;
  while (heap_size_ > 0) {
    const std::uint32_t cell = PopMin();
    const Node& n = nodes_[cell];
    if (cell == goal_) {
      result.found = true;
      result.seconds = n.g * seconds_per_column;
      result.yards = n.g * column_yards;
      if (path != nullptr) Unpack(start, path);
      break;
    }
    if (expanded >= max_expanded) {
      result.gave_up = true;
      break;
    }
    if (stop != nullptr) {
      if (absl::Status s = stop->Poll(expanded + 1); !s.ok()) {
        result.stopped = std::move(s);
        break;
      }
    }
    ++expanded;
    Expand(cell);
  }
  result.stats.nodes_expanded = expanded;
  result.stats.heap_operations = heap_operations_;
  return result;
}

// The steps from the start to the goal: each jump segment is a diagonal run, then a straight one.
void JumpPointSearch::Unpack(std::uint32_t start, std::vector<PathStep>* path) const {
  std::vector<std::uint32_t> points;
  for (std::uint32_t cell = goal_; cell != start; cell = nodes_[cell].parent)
    points.push_back(cell);
  points.push_back(start);
  std::reverse(points.begin(), points.end());
  path->clear();
  path->push_back({grid_->SurfaceAt(start), PathStep::kViaStart});
  const std::int32_t stride = static_cast<std::int32_t>(grid_->stride());
  for (std::size_t i = 1; i < points.size(); ++i) {
    const std::int32_t a = static_cast<std::int32_t>(points[i - 1]);
    const std::int32_t b = static_cast<std::int32_t>(points[i]);
    std::int32_t dx = b % stride - a % stride, dy = b / stride - a / stride;
    std::uint32_t cell = points[i - 1];
    while (dx != 0 || dy != 0) {
      const int d = DirectionOfStep(StepSign(dx), StepSign(dy));
      cell += grid_->Offset(d);
      dx -= kDirectionDx[d];
      dy -= kDirectionDy[d];
      path->push_back({grid_->SurfaceAt(cell), static_cast<std::uint8_t>(d)});
    }
  }
}

}  // namespace walk::nav
