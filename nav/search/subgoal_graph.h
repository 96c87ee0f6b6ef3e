// The simple subgoal graph of a plain octile grid (Uras, Koenig and Hernández, "Subgoal Graphs
// for Optimal Pathfinding in Eight-Neighbor Grids", ICAPS 2013), under walkd's movement rules:
// octile steps, no corner cut (jump_grid.h).
//
// A subgoal is a free cell at the convex corner of a blocked cell: its diagonal neighbour along
// some d is blocked while the two orthogonal neighbours between them are free. Two cells are
// h-reachable when some walk between them costs their octile distance, and direct-h-reachable
// when besides no h-long walk between them passes another subgoal. A shortest walk bends only
// at subgoals, so the graph of direct-h-reachable subgoal pairs, each arc costing its octile
// distance, keeps every distance: the cheapest walk between two cells is the direct one when
// they are h-reachable, else start → a subgoal direct-h-reachable from it → the graph → one
// direct-h-reachable from the goal → goal.
//
// The direct-h-reachable subgoals of a cell are found by the diagonal-first scan (ScanDirect):
// the four straight rays, then along each diagonal the two straight rays of its components from
// every cell, each no longer than the one before it and each ending at the first blocked cell or
// subgoal. Every arc's ends are joined by a diagonal-first walk from one of them
// (AppendSegment).
//
// Built once per grid from its jump tables (tens of milliseconds for a 512 x 512 map, 18 bytes
// a cell plus 12 an arc), immutable and shared across threads. Keeps a pointer to the JumpGrid,
// which must outlive it.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "nav/grid/path_step.h"
#include "nav/search/jump_grid.h"

namespace walk::nav {

class SubgoalGraph {
 public:
  // The subgoals of `grid` and the arcs between direct-h-reachable pairs; null when the grid is
  // kClearSteps columns wide or high, or more.
  static std::unique_ptr<const SubgoalGraph> Build(const JumpGrid& grid);

  // A cell a scan reached, and its octile distance in columns.
  struct Direct {
    std::uint32_t cell;
    double columns;
  };

  // Appends to `out` every subgoal direct-h-reachable from `cell` (a free cell; a subgoal's own
  // scan leaves the subgoal out) and `extra` (a free cell that is no subgoal, or kInvalidId)
  // where the scan reaches it before any subgoal, as if it were one.
  void ScanDirect(std::uint32_t cell, std::uint32_t extra, std::vector<Direct>* out) const;
  // Appends the steps of an h-long walk from cell `a` to cell `b` (the ends of an arc, or of a
  // scan's find), `a` itself left out. False, with nothing appended, when neither a
  // diagonal-first nor a straight-first walk joins them.
  bool AppendSegment(std::uint32_t a, std::uint32_t b, std::vector<PathStep>* path) const;

  const JumpGrid& grid() const { return *grid_; }
  std::uint32_t node_count() const { return static_cast<std::uint32_t>(cell_.size()); }
  std::uint64_t arc_count() const { return head_.size(); }
  // The cell of subgoal `node`, and its column.
  std::uint32_t cell(std::uint32_t node) const { return cell_[node]; }
  std::int32_t x(std::uint32_t node) const { return xy_[node].x; }
  std::int32_t y(std::uint32_t node) const { return xy_[node].y; }
  // The subgoal at `cell`, kInvalidId where there is none.
  std::uint32_t NodeAt(std::uint32_t cell) const { return node_at_[cell]; }
  // Arcs of node u: first_out()[u] .. first_out()[u + 1] - 1, to head() at weight() columns;
  // every arc's reverse is an arc too.
  const std::vector<std::uint32_t>& first_out() const { return first_out_; }
  const std::vector<std::uint32_t>& head() const { return head_; }
  const std::vector<double>& weight() const { return weight_; }
  // Two free cells are joined by some walk exactly when their areas are equal.
  std::uint32_t Area(std::uint32_t cell) const { return area_[cell]; }
  // Bytes held (the JumpGrid's not counted), and the seconds Build took.
  std::uint64_t MemoryBytes() const;
  double build_seconds() const { return build_seconds_; }

 private:
  // What a scan reads of a cell, in one place so that a diagonal step touches one cache line.
  struct ScanCell {
    // Per straight direction (0, 2, 4, 6 as 0..3): the free non-subgoal cells along it before
    // the first blocked cell or subgoal (kClearSteps bits), and kEndsAtSubgoal when that cell
    // is a subgoal.
    std::uint16_t clear[4];
    std::uint8_t diagonal;  // bit d / 2: the diagonal step along d is free (no corner cut)
    std::uint8_t subgoal;   // 1 at a subgoal
  };
  static constexpr std::uint16_t kEndsAtSubgoal = 0x8000;
  static constexpr std::uint16_t kClearSteps = 0x7FFF;
  struct Xy {
    std::int32_t x, y;
  };

  SubgoalGraph() = default;
  void FindSubgoals();
  void FillScanCells();
  void FillArcs();
  void FillAreas();
  // Along straight c from `from`: the subgoal or `extra` first met within `limit` cells, to `out`
  // at `base` columns plus the steps; returns the free non-subgoal cells before the ray's end.
  std::uint32_t ScanRay(std::uint32_t from, int c, std::uint32_t extra, std::uint32_t limit,
                        double base, std::vector<Direct>* out) const;
  void ScanDiagonal(std::uint32_t cell, int d, std::uint32_t extra, std::uint32_t limit_left,
                    std::uint32_t limit_right, std::vector<Direct>* out) const;
  bool IsSubgoal(std::uint32_t cell) const { return scan_[cell].subgoal != 0; }

  const JumpGrid* grid_ = nullptr;
  std::vector<std::uint32_t> node_at_;  // per cell
  std::vector<ScanCell> scan_;          // per cell
  std::vector<std::uint32_t> area_;     // per cell; kInvalidId where blocked
  std::vector<std::uint32_t> cell_;     // per node
  std::vector<Xy> xy_;                  // per node
  std::vector<std::uint32_t> first_out_, head_;
  std::vector<double> weight_;
  double build_seconds_ = 0.0;
};

}  // namespace walk::nav
