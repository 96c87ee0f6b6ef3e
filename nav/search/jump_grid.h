// The jump tables of a plain octile grid: what jump point search (jump_point_search.h) reads so
// that every straight or diagonal run is one table look-up instead of a walk cell by cell.
//
// A continent is a plain octile grid when every column holds at most one surface, no lift rides,
// and its links are exactly "a walk link to every neighbouring column that has a surface", with a
// diagonal link wherever both orthogonal links and the diagonal column exist (the MovingAI rule:
// no corner is cut). Every MovingAI map without water is one; stacked or sloped worlds are not,
// and keep the fine-grid A*. Whether a metric prices such a grid uniformly (so jump points stay
// exact) is asked per metric: PricesUniformly.
//
// For each cell and each of the 8 directions (nav/grid/surface.h's order) the tables hold:
//   run  - how many steps one can take that way before the next is blocked (a diagonal step
//          needs both orthogonal neighbours free);
//   jump - straight: steps to the first jump point (a cell with a forced neighbour), 0 when the
//          run ends first; diagonal: steps to the first diagonal cell from which either
//          orthogonal component direction has a jump point, 0 when the run ends first.
// The canonical rules for no corner cutting: moving straight along d into q, q has a forced
// neighbour on the side of d+2 when the cell behind q on that side is blocked and the cell
// beside q on that side is free (likewise d+6). Diagonal moves have no forced neighbours.
//
// Built once per continent (milliseconds for a 512 x 512 map), 37 bytes a cell, immutable and
// shared across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nav/cost/metric.h"
#include "nav/grid/grid.h"

namespace walk::nav {

class JumpGrid {
 public:
  // Largest grid the tables are built for: 2^22 cells, 128 MiB of tables.
  static constexpr std::uint64_t kMaxCells = std::uint64_t{1} << 22;

  // The tables of `continent`, or null with `why_not` (may be null) saying why it is not a plain
  // octile grid or is too large.
  static std::unique_ptr<const JumpGrid> Build(const Continent& continent,
                                               std::string* why_not = nullptr);

  // True when `metric` prices every step of this grid at the same seconds per column (no ground
  // kind, hostile mark or danger zone priced apart, nothing forbidden, no fixed step cost), so a
  // walk's cost is its octile length times seconds_per_column() * *multiplier.
  bool PricesUniformly(const Metric& metric, double* multiplier) const;

  // One table entry: a count of steps per direction. Runs and jumps are apart, as a search
  // reads jumps at every step and runs only where the goal lies ahead.
  struct Steps {
    std::uint16_t to[8];
  };

  std::uint32_t width() const { return width_; }
  std::uint32_t height() const { return height_; }
  // Cells are indexed with a one-cell blocked border: (x, y) is (y + 1) * stride + x + 1.
  std::uint32_t stride() const { return stride_; }
  std::uint32_t Index(std::uint32_t x, std::uint32_t y) const { return (y + 1) * stride_ + x + 1; }
  std::int32_t Offset(int direction) const { return offset_[direction]; }
  std::uint32_t cell_count() const { return static_cast<std::uint32_t>(jumps_.size()); }
  const Steps& Runs(std::uint32_t index) const { return runs_[index]; }
  const Steps& Jumps(std::uint32_t index) const { return jumps_[index]; }
  bool Free(std::uint32_t index) const { return free_[index] != 0; }
  SurfaceId SurfaceAt(std::uint32_t index) const { return surface_[index]; }
  // The cell of a surface of the continent the grid was built from.
  std::uint32_t IndexOf(const Continent& continent, SurfaceId surface) const {
    return Index(continent.column_x[surface], continent.column_y[surface]);
  }
  // Bytes held, and the seconds Build took.
  std::uint64_t MemoryBytes() const;
  double build_seconds() const { return build_seconds_; }

 private:
  JumpGrid() = default;
  bool Forced(std::uint32_t q, int direction) const;
  void FillRuns();
  void FillJumps();

  std::uint32_t width_ = 0, height_ = 0, stride_ = 0;
  std::int32_t offset_[8] = {};
  std::vector<SurfaceId> surface_;  // per cell; kInvalidId where blocked
  std::vector<std::uint8_t> free_;  // per cell: 1 where it has a surface
  std::vector<Steps> runs_, jumps_;
  // The distinct (flags, marks, zone) of the grid's surfaces: all a metric can price apart.
  struct Ground {
    std::uint8_t flags, marks;
    std::uint16_t zone;
  };
  std::vector<Ground> grounds_;
  double build_seconds_ = 0.0;
};

// The jump grids of a world's continents, where they are plain octile grids. Built once when the
// world loads; immutable after.
class JumpGrids {
 public:
  JumpGrids() = default;
  explicit JumpGrids(const World& world);

  // The grid of continent `id`, or null where it has none.
  const JumpGrid* For(ContinentId id) const;
  // What was built, per continent, and why not where not (for the log and Info).
  const std::string& note() const { return note_; }
  std::uint64_t MemoryBytes() const;

 private:
  std::vector<std::pair<ContinentId, std::unique_ptr<const JumpGrid>>> grids_;
  std::string note_;
};

}  // namespace walk::nav
