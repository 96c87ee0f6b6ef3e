#include "server/block_rows.h"

#include <bit>
#include <tuple>

#include "absl/container/flat_hash_map.h"

namespace walk::server {
namespace {

// A place's coordinates as bits: equal places, a NaN or absent height too, are one key.
using PlaceKey = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, bool>;

PlaceKey KeyOf(const nav::Place& p) {
  return {std::bit_cast<std::uint64_t>(p.x_yards), std::bit_cast<std::uint64_t>(p.y_yards),
          p.z_yards ? std::bit_cast<std::uint64_t>(*p.z_yards) : 0, p.z_yards.has_value()};
}

void SetPlace(const nav::Place& p, walk::v1::Place* out) {
  out->set_continent(p.continent);
  out->set_x_yards(p.x_yards);
  out->set_y_yards(p.y_yards);
  if (p.z_yards) out->set_z_yards(*p.z_yards);
}

// The index of `p` among `places` (its first), added to `out` when new.
std::uint32_t IndexOf(const nav::Place& p, absl::flat_hash_map<PlaceKey, std::uint32_t>* places,
                      google::protobuf::RepeatedPtrField<walk::v1::Place>* out) {
  const auto [it, added] = places->try_emplace(KeyOf(p), static_cast<std::uint32_t>(out->size()));
  if (added) SetPlace(p, out->Add());
  return it->second;
}

}  // namespace

std::optional<PlaceGroups> GroupByPlaces(const WalkPairs& pairs,
                                         const std::vector<std::size_t>& positions) {
  if (positions.size() < kBlockRowsFromPairs) return std::nullopt;
  PlaceGroups groups;
  groups.table.set_world(pairs.world);
  groups.table.set_profile(pairs.profile);
  groups.table.set_band(pairs.band);
  absl::flat_hash_map<PlaceKey, std::uint32_t> sources, targets;
  const double most_places = kBlockRowsPlacesPerPair * static_cast<double>(positions.size());
  for (const std::size_t i : positions) {
    const std::uint32_t s = IndexOf(pairs.From(i), &sources, groups.table.mutable_sources());
    const std::uint32_t t = IndexOf(pairs.To(i), &targets, groups.table.mutable_targets());
    if (static_cast<double>(sources.size() + targets.size()) > most_places) return std::nullopt;
    if (s == groups.positions.size()) {
      groups.positions.emplace_back();
      groups.targets.emplace_back();
    }
    groups.positions[s].push_back(i);
    groups.targets[s].push_back(t);
  }
  return groups;
}

}  // namespace walk::server
