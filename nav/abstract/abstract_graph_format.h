// Saves and loads the abstract graph beside its grid: `graph.walkgraph` in the world's folder
// (docs/formats.md). It names the grid's content id, the cost model version and the graph
// version it was prepared for; a file prepared for anything else is refused as stale. Its
// sections (the header, each continent's nodes and arcs, its prices of each profile) each carry a
// CRC-32C, checked as the section is read: a damaged file is refused, naming the section.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/grid/grid.h"

namespace walk::nav {

inline constexpr char kGraphFileName[] = "graph.walkgraph";
// 2: sections with CRC-32Cs, and a checked version word. Version 1 files (no checksums) are stale.
// 3: each continent's graph names its continent's content id (the header none): a graph stays
// valid for the continents that did not change.
inline constexpr std::uint32_t kGraphFormatVersion = 3;

// Writes `graph` to `dir`/graph.walkgraph through a temporary file and a rename.
absl::Status SaveAbstractGraph(const AbstractGraph& graph, const std::string& dir);

// The most cells (of the graph's cell side) the continents of a graph's world may hold together:
// each costs its cell index (docs/formats.md, "Limits"). 16 Mi cells: a 65,536-column square
// continent in cells of 16 columns; the default 64 gives 1 Mi.
inline constexpr std::uint64_t kMaxGraphCells = std::uint64_t{1} << 24;

struct GraphLoadOptions {
  // Leave each profile's prices in the file, checked against their CRC-32Cs but not parsed:
  // ContinentGraph::PricesOf reads a profile's when first asked (walkd: a profile never walked
  // holds no memory). The file stays open for them, so replacing it (prepare writes a new file
  // and renames it) does not change what they read.
  bool prices_on_first_use = false;
};

// Reads `dir`/graph.walkgraph for `world`, section by section (never the whole file at once).
// Errors: NOT_FOUND (no file), DATA_LOSS (a section
// that fails its checksum, "PATH: damaged abstract graph (section 'continent 0 prices of neutral'
// at byte 1234: CRC-32C ...)"; cut off; arrays that do not hold together; cells beyond
// kMaxGraphCells), FAILED_PRECONDITION (prepared for another grid, cost model, graph or format
// version: run `walkgrid prepare` again).
absl::StatusOr<AbstractGraph> LoadAbstractGraph(const World& world, const std::string& dir,
                                                const GraphLoadOptions& options = {});

struct GraphParseOptions {
  // Check each section's CRC-32C. Only the fuzz target turns it off, to reach the checks of the
  // arrays themselves with bytes no writer made.
  bool verify_checksums = true;
};

// Parses a graph file's `bytes` for `world` as LoadAbstractGraph does; `path` names it in errors.
absl::StatusOr<AbstractGraph> ParseAbstractGraph(
    const World& world, const std::string& bytes, const std::string& path,
    const GraphParseOptions& options = GraphParseOptions());

}  // namespace walk::nav
