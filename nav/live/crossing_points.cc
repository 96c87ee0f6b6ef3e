#include "nav/live/crossing_points.h"

#include <algorithm>

namespace walk::nav::live {
namespace {

// 0: no crossing, 1: bridge deck, 2: hill entrance (a cell marked as both counts as a bridge).
int KindAt(const Layers& layers, CellIndex i) {
  if (layers.BridgeAt(i)) return 1;
  return layers.CrossingAt(i) ? 2 : 0;
}

// The share of blocked terrain among the map cells just outside `r` on its two sides parallel to
// the y axis (`columns`: the columns x0 - 1 and x1) or to the x axis (the rows y0 - 1 and y1).
double FlankBlocked(const Layers& layers, const CellRect& r, bool columns) {
  int cells = 0, blocked = 0;
  auto look = [&](Cell c) {
    if (!layers.InBounds(c)) return;
    ++cells;
    if (layers.TerrainAt(layers.Index(c)) != CellValue::kWalkable) ++blocked;
  };
  if (columns) {
    for (std::int32_t y = r.y0; y < r.y1; ++y) look({r.x0 - 1, y}), look({r.x1, y});
  } else {
    for (std::int32_t x = r.x0; x < r.x1; ++x) look({x, r.y0 - 1}), look({x, r.y1});
  }
  return cells == 0 ? 0.0 : static_cast<double>(blocked) / cells;
}

CrossingDeck Orient(const Layers& layers, const CellRect& r, CrossingKind kind) {
  CrossingDeck deck{r, kind, false, 0.0};
  // Travelling north-south, the deck's west and east sides border what it spans.
  const double west_east = FlankBlocked(layers, r, /*columns=*/true);
  const double north_south = FlankBlocked(layers, r, /*columns=*/false);
  if (west_east != north_south) {
    deck.along_y = west_east > north_south;
  } else {
    deck.along_y = r.y1 - r.y0 > r.x1 - r.x0;
  }
  deck.centre = deck.along_y ? (r.x0 + r.x1) / 2.0 : (r.y0 + r.y1) / 2.0;
  return deck;
}

}  // namespace

CrossingMap::CrossingMap(const Layers& layers)
    : width_(layers.width()), height_(layers.height()), on_crossing_(layers.cell_count(), false) {
  std::vector<CellIndex> queue;
  for (CellIndex start = 0; start < layers.cell_count(); ++start) {
    const int kind = KindAt(layers, start);
    if (kind == 0) continue;
    on_crossing_[start] = true;
    if (deck_of_.count(start) != 0) continue;
    const std::uint32_t deck = static_cast<std::uint32_t>(decks_.size());
    const Cell first = layers.CellOf(start);
    CellRect r{first.x, first.y, first.x + 1, first.y + 1};
    queue.assign(1, start);
    deck_of_[start] = deck;
    // A 4-connected flood over cells of the same kind.
    for (std::size_t k = 0; k < queue.size(); ++k) {
      const Cell c = layers.CellOf(queue[k]);
      r = BoundingUnion(r, CellRect{c.x, c.y, c.x + 1, c.y + 1});
      for (const Cell n :
           {Cell{c.x + 1, c.y}, Cell{c.x - 1, c.y}, Cell{c.x, c.y + 1}, Cell{c.x, c.y - 1}}) {
        if (!layers.InBounds(n)) continue;
        const CellIndex i = layers.Index(n);
        if (KindAt(layers, i) != kind || deck_of_.count(i) != 0) continue;
        deck_of_[i] = deck;
        queue.push_back(i);
      }
    }
    decks_.push_back(
        Orient(layers, r, kind == 1 ? CrossingKind::kBridge : CrossingKind::kHillEntrance));
  }
}

const CrossingDeck* CrossingMap::DeckAt(Cell c) const {
  if (c.x < 0 || c.y < 0 || c.x >= width_ || c.y >= height_) return nullptr;
  const CellIndex i = static_cast<CellIndex>(c.y) * width_ + c.x;
  if (!on_crossing_[i]) return nullptr;
  auto it = deck_of_.find(i);
  return it == deck_of_.end() ? nullptr : &decks_[it->second];
}

CellPoint CrossingMap::PointFor(Cell c) const {
  CellPoint p{c.x + 0.5, c.y + 0.5};
  if (const CrossingDeck* deck = DeckAt(c); deck != nullptr) {
    (deck->along_y ? p.x : p.y) = deck->centre;
  }
  return p;
}

std::vector<CellPoint> CrossingMap::Points(std::span<const Cell> cells) const {
  std::vector<CellPoint> points;
  points.reserve(cells.size());
  for (const Cell c : cells) points.push_back(PointFor(c));
  return points;
}

std::size_t CrossingMap::MemoryBytes() const {
  constexpr std::size_t kNode = 2 * sizeof(void*);
  return decks_.capacity() * sizeof(CrossingDeck) + on_crossing_.capacity() / 8 +
         deck_of_.size() * (sizeof(CellIndex) + sizeof(std::uint32_t) + kNode) +
         deck_of_.bucket_count() * sizeof(void*);
}

}  // namespace walk::nav::live
