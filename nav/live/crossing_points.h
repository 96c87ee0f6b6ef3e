// Where a unit walks on a map crossing: the point each waypoint stands for.
//
// A waypoint is a cell; a unit walks to a point. Off crossings that point is the cell's centre. On
// a bridge deck it is moved onto the deck's centre line, and on a hill entrance onto the
// entrance's middle line, so units enter, cross and leave a crossing through its middle instead of
// drifting toward the rails or the slope (the specification's bridge traversal position).
//
// A crossing (a "deck") is a 4-connected group of cells of one kind (bridge or hill entrance) as
// the layers mark them, whether they came from the map's characters ('+', '^') or from layer-file
// rectangles; its extent is the group's bounding rectangle. Its crossing direction is the axis a
// unit travels along it, found from the terrain around it: the two sides parallel to that axis
// border what the crossing spans (river, blocked slope), its two ends border the land it joins.
// So the axis is the one whose flanking sides hold the larger share of blocked terrain (cells
// just outside the rectangle, off-map ones not counted); on a tie, the rectangle's longer side;
// a square tie travels east-west. The centre line runs along that axis through the middle of the
// rectangle's width: a 3-wide deck's through its middle cell's centre, a 2-wide deck's on the
// boundary between its two cells. A waypoint on the deck keeps its position along the axis and
// takes the centre line's across it.
//
// Crossings are terrain, fixed when a world is created; a CrossingMap is built once per world and
// read-only afterwards, so it is safe to share between threads.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "nav/live/cell.h"
#include "nav/live/layers.h"

namespace walk::nav::live {

struct CrossingDeck {
  CellRect cells;  // the bounding rectangle of its cells
  CrossingKind kind = CrossingKind::kBridge;
  bool along_y = false;  // travelled north-south (the centre line is x = centre), else east-west
  double centre = 0.0;   // the centre line's x (along_y) or y, in cell units
};

class CrossingMap {
 public:
  CrossingMap() = default;
  // Groups the crossing cells of `layers` into decks and finds each deck's direction.
  explicit CrossingMap(const Layers& layers);

  // The deck holding cell `c`, or null when `c` is on no crossing (or off the map).
  const CrossingDeck* DeckAt(Cell c) const;
  // The point a unit walks to for waypoint `c`: the cell centre, moved onto its deck's centre
  // line when `c` is on a crossing.
  CellPoint PointFor(Cell c) const;
  // PointFor of each cell, in order.
  std::vector<CellPoint> Points(std::span<const Cell> cells) const;

  const std::vector<CrossingDeck>& decks() const { return decks_; }
  // Bytes held: a bit per cell and the crossing cells' index (hash node overheads estimated).
  std::size_t MemoryBytes() const;

 private:
  std::int32_t width_ = 0;
  std::int32_t height_ = 0;
  std::vector<CrossingDeck> decks_;
  // Per cell: on a crossing. Most waypoints are not, and a bit answers them without a hash lookup.
  std::vector<bool> on_crossing_;
  std::unordered_map<CellIndex, std::uint32_t> deck_of_;  // crossing cell -> index in decks_
};

}  // namespace walk::nav::live
