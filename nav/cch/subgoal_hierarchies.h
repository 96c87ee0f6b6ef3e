// The subgoal hierarchies of a world's continents (nav/cch/subgoal_hierarchy.h): where a
// continent has a jump grid (a plain octile grid, nav/search/jump_grid.h), its simple subgoal
// graph contracted into a customizable contraction hierarchy, which answers the continent's exact
// walks where the grid is priced alike everywhere (walkd's kAuto fine-grid walks). Not built
// where the hierarchy would exceed its arc budget (SubgoalHierarchyOptions): jump points answer
// there. Built once when the world loads; immutable after.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nav/cch/subgoal_hierarchy.h"
#include "nav/grid/grid.h"
#include "nav/search/jump_grid.h"
#include "nav/search/subgoal_graph.h"

namespace walk::nav {

class SubgoalHierarchies {
 public:
  SubgoalHierarchies() = default;
  // The hierarchies of the continents `grids` has a jump grid of.
  SubgoalHierarchies(const World& world, const JumpGrids& grids);

  // The hierarchy of continent `id`, or null where it has none.
  const SubgoalHierarchy* For(ContinentId id) const;
  // What was built, per continent with a jump grid, and why not where not (the log and Info).
  const std::string& note() const { return note_; }
  std::uint64_t MemoryBytes() const;

 private:
  struct Built {
    ContinentId continent = 0;
    std::unique_ptr<const SubgoalGraph> graph;  // the hierarchy points into it
    std::unique_ptr<const SubgoalHierarchy> hierarchy;
  };
  std::vector<Built> built_;
  std::string note_;
};

}  // namespace walk::nav
