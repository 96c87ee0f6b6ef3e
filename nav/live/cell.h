// Cells of a live grid: what a cell holds (CellValue), who may enter it (Passability), and the
// plain coordinate types every part of nav/live shares.
//
// A live grid is a flat row-major array: cell (x, y) has index y * width + x, (0, 0) is the
// top-left cell. In world units cell (x, y) covers [x * cell_size, (x + 1) * cell_size) ×
// [y * cell_size, (y + 1) * cell_size); its centre is ((x + 0.5) * cell_size, (y + 0.5) *
// cell_size).
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace walk::nav::live {

// A cell's index in its grid: y * width + x.
using CellIndex = std::uint32_t;
// The id of a building, wall segment or gate as the game names it. Unique per world across
// buildings and gates.
using EntityId = std::uint32_t;

inline constexpr CellIndex kInvalidCell = std::numeric_limits<CellIndex>::max();

// What a composed cell holds. Only Walkable (and Forest, for light units) can be entered; every
// other value names what blocks, so a cursor can tell a tree from ore from a wall. Units are never
// written into the grid.
enum class CellValue : std::uint8_t {
  kWalkable = 0,
  kForest = 1,    // open ground inside an authored forest: light units only
  kBlocked = 2,   // terrain that is simply not ground (MovingAI '@', 'O')
  kMountain = 3,  // terrain, always blocked
  kRiver = 4,     // terrain, blocked except where a bridge deck crosses it
  kTree = 5,      // harvestable resource
  kBoulder = 6,   // harvestable resource
  kIronOre = 7,   // harvestable resource
  kBuilding = 8,  // a solid building, wall segment or other footprint
  kGate = 9,      // a shut gate's own footprint
};
inline constexpr int kCellValueCount = 10;

// Who is asking. Light units (infantry, builders, wildlife) walk through forest; heavy units
// (cavalry, siege, elephants) do not. Everything else reads the same for both.
enum class Passability : std::uint8_t { kLight = 0, kHeavy = 1 };
inline constexpr int kPassabilityCount = 2;

// True when a unit of `passability` may stand in a cell holding `value`.
constexpr bool IsPassable(CellValue value, Passability passability) {
  return value == CellValue::kWalkable ||
         (value == CellValue::kForest && passability == Passability::kLight);
}

// True for the values the resource layer places (and a harvest removes).
constexpr bool IsResource(CellValue value) {
  return value == CellValue::kTree || value == CellValue::kBoulder || value == CellValue::kIronOre;
}

// A short lower-case name ("walkable", "iron_ore", ...) for messages and docs.
const char* CellValueName(CellValue value);
const char* PassabilityName(Passability passability);
// One character per value, for drawing grids: '.' walkable, 'f' forest, '#' blocked,
// 'M' mountain, '~' river, 'T' tree, 'o' boulder, 'I' iron ore, 'B' building, 'G' shut gate.
char CellValueGlyph(CellValue value);

// A cell by its coordinates. Signed so that "one step left of column 0" is representable.
struct Cell {
  std::int32_t x = 0;
  std::int32_t y = 0;
  friend bool operator==(const Cell&, const Cell&) = default;
};

// "(x, y)", for messages.
std::string CellText(Cell c);

// A half-open block of cells: x0 <= x < x1, y0 <= y < y1. Empty when x0 >= x1 or y0 >= y1.
struct CellRect {
  std::int32_t x0 = 0;
  std::int32_t y0 = 0;
  std::int32_t x1 = 0;
  std::int32_t y1 = 0;

  bool empty() const { return x0 >= x1 || y0 >= y1; }
  std::int64_t area() const { return empty() ? 0 : std::int64_t{x1 - x0} * (y1 - y0); }
  bool Contains(Cell c) const { return c.x >= x0 && c.x < x1 && c.y >= y0 && c.y < y1; }
  friend bool operator==(const CellRect&, const CellRect&) = default;
};

// The cells both rectangles hold (possibly empty).
CellRect Intersect(const CellRect& a, const CellRect& b);
// The smallest rectangle holding both (an empty rectangle adds nothing).
CellRect BoundingUnion(const CellRect& a, const CellRect& b);
// `r` grown by `margin` cells on every side.
CellRect Expand(const CellRect& r, std::int32_t margin);

// An axis-aligned rectangle in world units: x0 <= x <= x1, y0 <= y <= y1.
struct WorldRect {
  double x0 = 0.0;
  double y0 = 0.0;
  double x1 = 0.0;
  double y1 = 0.0;
  friend bool operator==(const WorldRect&, const WorldRect&) = default;
};

// A point in world units.
struct WorldPoint {
  double x = 0.0;
  double y = 0.0;
};

// A point in cell units: cell (x, y) spans [x, x + 1) × [y, y + 1), its centre is
// (x + 0.5, y + 0.5). WorldFrame (world_frame.h) turns it into world units.
struct CellPoint {
  double x = 0.0;
  double y = 0.0;
};

}  // namespace walk::nav::live
