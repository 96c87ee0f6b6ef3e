#include "nav/live/cell.h"

#include <algorithm>

namespace walk::nav::live {

std::string CellText(Cell c) {
  return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
}

const char* CellValueName(CellValue value) {
  switch (value) {
    case CellValue::kWalkable:
      return "walkable";
    case CellValue::kForest:
      return "forest";
    case CellValue::kBlocked:
      return "blocked";
    case CellValue::kMountain:
      return "mountain";
    case CellValue::kRiver:
      return "river";
    case CellValue::kTree:
      return "tree";
    case CellValue::kBoulder:
      return "boulder";
    case CellValue::kIronOre:
      return "iron_ore";
    case CellValue::kBuilding:
      return "building";
    case CellValue::kGate:
      return "gate";
  }
  return "unknown";
}

const char* PassabilityName(Passability passability) {
  return passability == Passability::kLight ? "light" : "heavy";
}

char CellValueGlyph(CellValue value) {
  static constexpr char kGlyph[kCellValueCount] = {'.', 'f', '#', 'M', '~',
                                                   'T', 'o', 'I', 'B', 'G'};
  const int v = static_cast<int>(value);
  return v < kCellValueCount ? kGlyph[v] : '?';
}

CellRect Intersect(const CellRect& a, const CellRect& b) {
  CellRect r{std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1),
             std::min(a.y1, b.y1)};
  if (r.empty()) return CellRect{};
  return r;
}

CellRect BoundingUnion(const CellRect& a, const CellRect& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return CellRect{std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1),
                  std::max(a.y1, b.y1)};
}

CellRect Expand(const CellRect& r, std::int32_t margin) {
  return CellRect{r.x0 - margin, r.y0 - margin, r.x1 + margin, r.y1 + margin};
}

}  // namespace walk::nav::live
