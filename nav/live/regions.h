// Regions of a live grid for one passability: the sets of open cells that reach each other, kept
// exact across blocker updates without flooding the whole map.
//
// Movement is 8-directional without corner cutting, so two open cells reach each other exactly
// when they are 4-connected (a legal diagonal always has both orthogonal flanks open). Every open
// cell carries a label; labels are joined by a union-find, and a cell's region is its label's
// root. Two cells reach each other iff their roots are equal.
//
// A full labeling is one row-major connected-component pass (each open cell joined to its left
// and upper neighbours) and a flattening of the union-find, so a read is one hop. An update after
// the cells of one dirty rectangle D changed:
//   1. relabels D's open cells (fresh labels, joined to each other and to the open cells touching
//      D from outside): this is every merge the change can cause, since a newly joined pair must
//      be joined through D;
//   2. checks for splits: the open cells just outside D ("ring" cells) that share a root must
//      still reach each other. A flood inside D grown by a margin usually shows they do; when it
//      does not, a flood from each separated group runs over the whole map, one cell per group in
//      turn, merging groups that meet, until at most one group is still running. Groups that ran
//      dry are whole regions of their own and get fresh labels; the one still running keeps the
//      old root. A split therefore costs about the size of the smaller side, not of the map.
//
// Thread safety: RegionOf and Reachable are const and safe to call concurrently (no path
// compression on reads); LabelAll and Update must not run concurrently with anything.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/live/cell.h"

namespace walk::nav::live {

// A region's id: the root label of its cells. Stable only until the next update.
using RegionId = std::uint32_t;
inline constexpr RegionId kNoRegion = kInvalidCell;

class Regions {
 public:
  // What the last LabelAll or Update cost.
  struct Stats {
    std::uint64_t cells_visited = 0;  // cells labelled, flooded or relabelled
    std::uint32_t global_floods = 0;  // split checks that left the local window
    std::uint32_t splits = 0;         // regions split off
  };

  // Sizes the labels for a width × height grid. Labels are undefined until LabelAll.
  void Resize(std::int32_t width, std::int32_t height);
  // Bytes held: labels, union-find and scratch.
  std::size_t MemoryBytes() const;

  // Labels every cell from scratch: a cell is open when flags[i] & open_bit.
  void LabelAll(const std::uint8_t* flags, std::uint8_t open_bit);
  // Brings the labels up to date after the cells of `dirty` (clipped to the map) changed and no
  // other cell did. `margin` is the local window's growth around `dirty`, in cells.
  void Update(const std::uint8_t* flags, std::uint8_t open_bit, const CellRect& dirty,
              std::int32_t margin = 4);

  // The region of cell `i`, or kNoRegion for a closed cell.
  RegionId RegionOf(CellIndex i) const {
    std::uint32_t l = label_[i];
    if (l == kNoRegion) return kNoRegion;
    while (parent_[l] != l) l = parent_[l];
    return l;
  }
  bool Reachable(CellIndex a, CellIndex b) const {
    const RegionId ra = RegionOf(a);
    return ra != kNoRegion && ra == RegionOf(b);
  }
  // Labels allocated so far (regions plus joined or retired labels); LabelAll starts afresh.
  std::size_t label_count() const { return parent_.size(); }
  const Stats& last_stats() const { return stats_; }

 private:
  std::uint32_t NewLabel();
  std::uint32_t Find(std::uint32_t l);  // with path halving: writers only
  void Union(std::uint32_t a, std::uint32_t b);
  std::uint32_t NextGeneration();
  // Floods from `starts` (open cells sharing root `root`, in different local groups) over the
  // whole map and gives every group that proves to be a region of its own a fresh label.
  void SplitCheck(const std::uint8_t* flags, std::uint8_t open_bit,
                  const std::vector<CellIndex>& starts);

  std::int32_t width_ = 0;
  std::int32_t height_ = 0;
  std::vector<std::uint32_t> label_;   // per cell: a label, or kNoRegion when closed
  std::vector<std::uint32_t> parent_;  // per label: union-find parent
  std::vector<std::uint8_t> rank_;     // per label: union-by-rank
  Stats stats_;

  // Scratch, sized once: generation-stamped marks and a per-cell group id for the floods.
  std::uint32_t generation_ = 0;
  std::vector<std::uint32_t> stamp_;
  std::vector<std::uint32_t> group_;
  std::vector<CellIndex> queue_;
  std::vector<std::pair<std::uint32_t, CellIndex>> ring_;  // (root, ring cell)
  struct Group {
    std::uint32_t parent = 0;      // union-find over groups
    std::vector<CellIndex> cells;  // visited cells in visit order; [head, size) is the frontier
    std::size_t head = 0;
    std::vector<std::uint32_t> members;  // groups merged into this one
    bool finished = false;
  };
  std::vector<Group> groups_;
};

}  // namespace walk::nav::live
