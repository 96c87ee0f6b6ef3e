// WalkBatch blocks whose pairs share places, answered as the rows of a many-to-many
// (server/walk_table.h, nav/abstract/abstract_table.h): the block's distinct "to" places are a
// table's targets, each distinct "from" place a source row, so each place's leg and side are
// computed once rather than once a pair. Rows give their walks whole (their paths unpacked):
// each pair is answered, tallied and kept in the store as a walk asked alone is, and the walk
// pipeline's every other rule still decides around the row.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "server/walk_query.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {

// The pairs at `positions` of a block, by their distinct places.
struct PlaceGroups {
  // The distinct "from" places as sources and "to" places as targets, with the block's world,
  // profile, band and backend.
  walk::v1::TableRequest table;
  // By source: the positions of its pairs, and each one's target.
  std::vector<std::vector<std::size_t>> positions;
  std::vector<std::vector<std::uint32_t>> targets;
};

// Pairs to route from which a block is answered by rows, and the most places per pair: below
// them the pairs share too few places for a table's sweeps to pay.
inline constexpr std::size_t kBlockRowsFromPairs = 32;
inline constexpr double kBlockRowsPlacesPerPair = 0.5;

// The pairs of `pairs` at `positions` grouped by their places (exactly equal coordinates), or
// nullopt when there are fewer than kBlockRowsFromPairs of them or more than
// kBlockRowsPlacesPerPair distinct places (sources and targets) per pair.
std::optional<PlaceGroups> GroupByPlaces(const WalkPairs& pairs,
                                         const std::vector<std::size_t>& positions);

}  // namespace walk::server
