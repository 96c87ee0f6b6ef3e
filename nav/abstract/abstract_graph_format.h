// Saves and loads the abstract graph beside its grid: `graph.walkgraph` in the world's folder
// (docs/formats.md). It names the grid's content id, the cost model version and the graph
// version it was prepared for; a file prepared for anything else is refused as stale.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/grid/grid.h"

namespace walk::nav {

inline constexpr char kGraphFileName[] = "graph.walkgraph";
inline constexpr std::uint32_t kGraphFormatVersion = 1;

// Writes `graph` to `dir`/graph.walkgraph through a temporary file and a rename.
absl::Status SaveAbstractGraph(const AbstractGraph& graph, const std::string& dir);

// The most cells (of the graph's cell side) the continents of a graph's world may hold together:
// each costs its cell index (docs/formats.md, "Limits"). 16 Mi cells: a 65,536-column square
// continent in cells of 16 columns; the default 64 gives 1 Mi.
inline constexpr std::uint64_t kMaxGraphCells = std::uint64_t{1} << 24;

// Reads `dir`/graph.walkgraph for `world`. Errors: NOT_FOUND (no file), DATA_LOSS (damaged, cut
// off, or cells beyond kMaxGraphCells), FAILED_PRECONDITION (prepared for another grid, cost
// model, graph or format version: run `walkgrid prepare` again).
absl::StatusOr<AbstractGraph> LoadAbstractGraph(const World& world, const std::string& dir);

// Parses a graph file's `bytes` for `world` as LoadAbstractGraph does; `path` names it in errors.
absl::StatusOr<AbstractGraph> ParseAbstractGraph(const World& world, const std::string& bytes,
                                                 const std::string& path);

}  // namespace walk::nav
