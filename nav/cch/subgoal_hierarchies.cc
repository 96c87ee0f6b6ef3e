#include "nav/cch/subgoal_hierarchies.h"

#include "absl/strings/str_cat.h"

namespace walk::nav {

SubgoalHierarchies::SubgoalHierarchies(const World& world, const JumpGrids& grids) {
  for (const Continent& c : world.continents) {
    const JumpGrid* grid = grids.For(c.id);
    if (grid == nullptr) continue;
    Built built{.continent = c.id, .graph = SubgoalGraph::Build(*grid), .hierarchy = nullptr};
    std::string why_not;
    if (built.graph != nullptr) {
      built.hierarchy = SubgoalHierarchy::Build(*built.graph, SubgoalHierarchyOptions(), &why_not);
    } else {
      why_not = "no subgoal graph";
    }
    if (!note_.empty()) note_ += "; ";
    if (built.hierarchy == nullptr) {
      absl::StrAppend(&note_, "continent ", c.id, ": no subgoal hierarchy (", why_not, ")");
      continue;
    }
    const double ms = (built.graph->build_seconds() + built.hierarchy->build_seconds()) * 1e3;
    absl::StrAppend(&note_, "continent ", c.id, ": subgoal hierarchy (",
                    (built.graph->MemoryBytes() + built.hierarchy->MemoryBytes() + (1 << 19)) >> 20,
                    " MiB in ", static_cast<int>(ms + 0.5), " ms)");
    built_.push_back(std::move(built));
  }
}

const SubgoalHierarchy* SubgoalHierarchies::For(ContinentId id) const {
  for (const Built& built : built_) {
    if (built.continent == id) return built.hierarchy.get();
  }
  return nullptr;
}

std::uint64_t SubgoalHierarchies::MemoryBytes() const {
  std::uint64_t bytes = 0;
  for (const Built& built : built_) {
    bytes += built.graph->MemoryBytes() + built.hierarchy->MemoryBytes();
  }
  return bytes;
}

}  // namespace walk::nav
