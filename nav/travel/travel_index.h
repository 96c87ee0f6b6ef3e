// What a trip's search needs of a travel network beyond its data, built once when the network is
// placed (nav/travel/travel_network.h, PlaceNodes) and shared by every trip: the rides by the
// node they leave and by the node they reach, and per continent a 2-d tree of its placed nodes
// whose boxes bound the straight line from any place to any node inside them. The trip search
// (trip_search.h) prices walks to whole boxes of nodes at once by those bounds, so a trip opens
// only the boxes that could hold a cheaper way, never every node. Immutable once built; safe to
// share across threads.
#pragma once

#include <cstdint>
#include <vector>

namespace walk::nav {

struct TravelNetwork;

// A box of the 2-d tree: the nodes `order[begin, end)` of one continent, all inside the box.
struct TravelBox {
  double min_x = 0.0, min_y = 0.0, max_x = 0.0, max_y = 0.0;  // yards
  std::uint32_t begin = 0, end = 0;                           // into TravelIndex::order
  std::uint32_t left = 0, right = 0;  // children (boxes), or kNoBox for a leaf
  std::uint32_t continent = 0;        // the continent's place in TravelIndex::continents
  bool may_settle = false;            // some node inside may be settled (TravelNode::may_settle)
  std::uint32_t cell = 0;             // the cell (TravelIndex::cells) holding it, or kNoBox

  // The straight-line yards from (x, y) to the nearest point of the box (0 inside it).
  double YardsFrom(double x, double y) const;
  // The least straight-line yards between a point of this box and a point of `other`.
  double YardsTo(const TravelBox& other) const;
};

struct TravelIndex {
  static constexpr std::uint32_t kNoBox = UINT32_MAX;
  // Nodes a leaf box holds at most, and the most cells (the boxes the potential's walks join,
  // each to every other of its continent: their square is what a trip's potential costs).
  static constexpr std::uint32_t kLeafNodes = 8;
  static constexpr std::uint32_t kMaxCells = 512;

  struct Continent {
    std::uint32_t id = 0;          // the grid's continent id
    std::uint32_t root = kNoBox;   // its 2-d tree
    std::uint32_t first_cell = 0;  // its cells: cells[first_cell, end_cell)
    std::uint32_t end_cell = 0;
  };

  // Rides as adjacency arrays (RoutingKit's layout): the rides leaving node n are
  // ride_by_from[first_ride_from[n] .. first_ride_from[n + 1]), indices into network.rides;
  // likewise the rides reaching it.
  std::vector<std::uint32_t> first_ride_from, ride_by_from;
  std::vector<std::uint32_t> first_ride_to, ride_by_to;
  // Beside ride_by_to, each ride's start and seconds, so a search back over the rides reads
  // them in order rather than the rides themselves at random.
  std::vector<std::uint32_t> ride_to_tail;
  std::vector<double> ride_to_seconds;

  std::vector<Continent> continents;  // those with a placed node
  std::vector<TravelBox> boxes;
  std::vector<std::uint32_t> order;           // placed nodes, each box's contiguous
  std::vector<std::uint32_t> cells;           // boxes; every placed node is in exactly one
  std::vector<std::uint32_t> node_cell;       // by node: its cell (index into cells), or kNoBox
  std::vector<std::uint32_t> node_continent;  // by node: into continents, or kNoBox

  // The place in `continents` of grid continent `id`, or kNoBox.
  std::uint32_t ContinentOf(std::uint32_t id) const;
};

// Builds the index of `network` as its nodes are placed now.
TravelIndex BuildTravelIndex(const TravelNetwork& network);

}  // namespace walk::nav
