#include "nav/travel/travel_index.h"

#include <algorithm>
#include <cmath>

#include "nav/travel/travel_network.h"

namespace walk::nav {
namespace {

// Adjacency arrays of the rides keyed by `key` (the node they leave, or reach).
template <typename Key>
void RideArrays(const TravelNetwork& network, Key key, std::vector<std::uint32_t>* first,
                std::vector<std::uint32_t>* by) {
  first->assign(network.nodes.size() + 1, 0);
  for (const TravelRide& ride : network.rides) ++(*first)[key(ride) + 1];
  for (std::size_t i = 0; i < network.nodes.size(); ++i) (*first)[i + 1] += (*first)[i];
  by->resize(network.rides.size());
  std::vector<std::uint32_t> next(first->begin(), first->end() - 1);
  for (std::size_t r = 0; r < network.rides.size(); ++r) {
    (*by)[next[key(network.rides[r])]++] = static_cast<std::uint32_t>(r);
  }
}

class TreeBuilder {
 public:
  TreeBuilder(const TravelNetwork& network, TravelIndex* index)
      : network_(network), index_(*index) {}

  // The box of order[begin, end), split in halves along its longer side until a leaf holds
  // kLeafNodes at most. Returns its index.
  std::uint32_t Build(std::uint32_t begin, std::uint32_t end, std::uint32_t continent) {
    TravelBox box;
    box.begin = begin;
    box.end = end;
    box.continent = continent;
    box.left = box.right = TravelIndex::kNoBox;
    box.cell = TravelIndex::kNoBox;
    box.min_x = box.min_y = HUGE_VAL;
    box.max_x = box.max_y = -HUGE_VAL;
    for (std::uint32_t k = begin; k < end; ++k) {
      const TravelNode& node = network_.nodes[index_.order[k]];
      box.min_x = std::min(box.min_x, node.place.x_yards);
      box.max_x = std::max(box.max_x, node.place.x_yards);
      box.min_y = std::min(box.min_y, node.place.y_yards);
      box.max_y = std::max(box.max_y, node.place.y_yards);
      box.may_settle = box.may_settle || node.may_settle;
    }
    const auto at = static_cast<std::uint32_t>(index_.boxes.size());
    index_.boxes.push_back(box);
    if (end - begin <= TravelIndex::kLeafNodes) return at;
    const bool by_x = box.max_x - box.min_x >= box.max_y - box.min_y;
    const std::uint32_t middle = begin + (end - begin) / 2;
    std::nth_element(index_.order.begin() + begin, index_.order.begin() + middle,
                     index_.order.begin() + end, [&](std::uint32_t a, std::uint32_t b) {
                       const Place& pa = network_.nodes[a].place;
                       const Place& pb = network_.nodes[b].place;
                       return by_x ? pa.x_yards < pb.x_yards : pa.y_yards < pb.y_yards;
                     });
    const std::uint32_t left = Build(begin, middle, continent);
    const std::uint32_t right = Build(middle, end, continent);
    index_.boxes[at].left = left;
    index_.boxes[at].right = right;
    return at;
  }

  // The cells of the tree under `root`: the shallowest boxes, level by level, while there are
  // at most kMaxCells of them.
  void Cells(std::uint32_t root) {
    std::vector<std::uint32_t> level = {root};
    for (;;) {
      std::vector<std::uint32_t> next;
      for (std::uint32_t b : level) {
        const TravelBox& box = index_.boxes[b];
        if (box.left == TravelIndex::kNoBox) {
          next.push_back(b);
        } else {
          next.push_back(box.left);
          next.push_back(box.right);
        }
      }
      if (next.size() > TravelIndex::kMaxCells || next.size() == level.size()) break;
      level = std::move(next);
    }
    for (std::uint32_t b : level) {
      const auto cell = static_cast<std::uint32_t>(index_.cells.size());
      index_.cells.push_back(b);
      const TravelBox& box = index_.boxes[b];
      for (std::uint32_t k = box.begin; k < box.end; ++k) index_.node_cell[index_.order[k]] = cell;
    }
  }

 private:
  const TravelNetwork& network_;
  TravelIndex& index_;
};

}  // namespace

double TravelBox::YardsFrom(double x, double y) const {
  const double dx = std::max({min_x - x, 0.0, x - max_x});
  const double dy = std::max({min_y - y, 0.0, y - max_y});
  return std::hypot(dx, dy);
}

double TravelBox::YardsTo(const TravelBox& other) const {
  const double dx = std::max({min_x - other.max_x, 0.0, other.min_x - max_x});
  const double dy = std::max({min_y - other.max_y, 0.0, other.min_y - max_y});
  return std::hypot(dx, dy);
}

std::uint32_t TravelIndex::ContinentOf(std::uint32_t id) const {
  for (std::size_t c = 0; c < continents.size(); ++c) {
    if (continents[c].id == id) return static_cast<std::uint32_t>(c);
  }
  return kNoBox;
}

TravelIndex BuildTravelIndex(const TravelNetwork& network) {
  TravelIndex index;
  RideArrays(
      network, [](const TravelRide& r) { return r.from; }, &index.first_ride_from,
      &index.ride_by_from);
  RideArrays(
      network, [](const TravelRide& r) { return r.to; }, &index.first_ride_to, &index.ride_by_to);
  for (std::uint32_t r : index.ride_by_to) {
    index.ride_to_tail.push_back(network.rides[r].from);
    index.ride_to_seconds.push_back(network.rides[r].seconds());
  }
  index.node_cell.assign(network.nodes.size(), TravelIndex::kNoBox);
  index.node_continent.assign(network.nodes.size(), TravelIndex::kNoBox);
  std::vector<std::uint32_t> placed;
  for (std::uint32_t i = 0; i < network.nodes.size(); ++i) {
    if (network.nodes[i].placed) placed.push_back(i);
  }
  // Continents in order of id, each one's nodes contiguous.
  std::stable_sort(placed.begin(), placed.end(), [&](std::uint32_t a, std::uint32_t b) {
    return network.nodes[a].place.continent < network.nodes[b].place.continent;
  });
  index.order = placed;
  TreeBuilder builder(network, &index);
  for (std::uint32_t begin = 0; begin < placed.size();) {
    const ContinentId id = network.nodes[placed[begin]].place.continent;
    std::uint32_t end = begin;
    while (end < placed.size() && network.nodes[placed[end]].place.continent == id) ++end;
    TravelIndex::Continent continent;
    continent.id = id;
    const auto c = static_cast<std::uint32_t>(index.continents.size());
    for (std::uint32_t k = begin; k < end; ++k) index.node_continent[placed[k]] = c;
    continent.root = builder.Build(begin, end, c);
    continent.first_cell = static_cast<std::uint32_t>(index.cells.size());
    builder.Cells(continent.root);
    continent.end_cell = static_cast<std::uint32_t>(index.cells.size());
    index.continents.push_back(continent);
    begin = end;
  }
  for (std::uint32_t cell = 0; cell < index.cells.size(); ++cell) {
    index.boxes[index.cells[cell]].cell = cell;
  }
  return index;
}

}  // namespace walk::nav
