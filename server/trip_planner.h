// Answers trips (the Trip RPC, and trips in a WalkBatch): validates the query, finds the world
// and its travel network, and runs the exact trip search (nav/travel/trip_search.h) with walks
// answered as every walk is (StoreFirstAnswerer: the walk store first, on the grid backend).
// Walks between two nodes are also kept in a bounded in-memory cache per model, so a node pair is
// priced once however many trips cross it. Thread-safe: call it from any search thread with that
// thread's Searchers.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/hash/hash.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nav/query/walk_pipeline.h"
#include "nav/search/search_stop.h"
#include "nav/travel/trip_search.h"
#include "server/store_first_answerer.h"
#include "server/world_registry.h"

namespace walk::server {

// One trip asked (a TripRequest), in plain C++.
struct TripQuery {
  std::string world;
  std::optional<nav::Place> from;  // required
  std::optional<nav::Place> to;    // required; may be on another continent
  std::string profile;
  std::uint32_t band = 0;
  std::optional<bool> hearthstone_ready;  // unset: ready
  double hearthstone_cooldown_left_seconds = 0.0;
  bool price_walk = false;

  // Checks what needs no world (as WalkQuery::Validate, and the cooldown: finite, 0 .. 1e6).
  // INVALID_ARGUMENT names the field after `field_prefix`.
  absl::Status Validate(absl::string_view field_prefix) const;
};

// One trip answered.
struct TripResult {
  nav::Trip trip;
  // The places of the trip's points (nav/travel/trip_search.h): start, goal, then each node's;
  // and each point's node id ("" for the start and goal).
  std::vector<nav::Place> places;
  std::vector<std::string> node_ids;
  std::uint32_t band = 0;
  std::uint64_t model = 0;  // the trips' model it was answered under (ServedWorld::MetricEntry)
  std::uint32_t walks_stored = 0;  // walks the store or the node-walk cache answered
  double hearthstone_cooldown_left_seconds = 0.0;  // when the trip ends
};

class TripPlanner {
 public:
  // Node walks kept in memory (over every world and model) before the cache starts again.
  static constexpr std::size_t kDefaultNodeWalkEntries = std::size_t{1} << 20;

  // Both borrowed; they must outlive the planner.
  TripPlanner(const WorldRegistry& worlds, const StoreFirstAnswerer& answerer,
              std::size_t node_walk_entries = kDefaultNodeWalkEntries)
      : worlds_(worlds), answerer_(answerer), node_walk_entries_(node_walk_entries) {}

  // Answers `query`. Errors: INVALID_ARGUMENT naming the field (prefixed by `field_prefix`),
  // NOT_FOUND (no such world; no such continent, naming from.continent or to.continent),
  // UNAVAILABLE (the world is loading), FAILED_PRECONDITION (the world's travel.json was refused),
  // and what `stop` says when it stops a walk's search.
  absl::StatusOr<TripResult> Plan(const TripQuery& query, absl::string_view field_prefix,
                                  const nav::SearchStop* stop, nav::Searchers& searchers) const;

 private:
  class Walks;  // the trip search's TripWalks

  struct NodeWalkKey {
    std::uint64_t model = 0;  // the walk's model (store/model_hash.h): world, profile, band
    std::uint32_t from = 0;   // node indices
    std::uint32_t to = 0;
    bool operator==(const NodeWalkKey& o) const {
      return model == o.model && from == o.from && to == o.to;
    }
  };
  struct NodeWalkHash {
    std::size_t operator()(const NodeWalkKey& k) const {
      return static_cast<std::size_t>(k.model ^
                                      (std::uint64_t{k.from} << 32 | k.to) * 0x9e3779b97f4a7c15ull);
    }
  };
  std::optional<nav::LegWalk> CachedNodeWalk(const NodeWalkKey& key) const;
  void KeepNodeWalk(const NodeWalkKey& key, const nav::LegWalk& walk) const;

  // A walk by its model and its two places (as asked), for what a search cut short showed of it.
  struct DearerKey {
    std::uint64_t model = 0;
    std::array<std::uint64_t, 8> ends{};  // each place's continent and coordinates' bits
    bool operator==(const DearerKey& o) const { return model == o.model && ends == o.ends; }
    template <typename H>
    friend H AbslHashValue(H h, const DearerKey& k) {
      return H::combine(std::move(h), k.model, k.ends);
    }
  };
  static DearerKey DearerKeyOf(std::uint64_t model, const nav::Place& from, const nav::Place& to);
  // The most seconds the walk is known to cost more than (a trip's walk cut short,
  // nav::LegWalk::dearer), kept so that the same trip asked again neither searches it nor asks
  // it at all where that bound already rules it out (TripWalks::RefinedBound).
  std::optional<double> DearerBound(const DearerKey& key) const;
  void KeepDearerBound(const DearerKey& key, double seconds) const;

  const WorldRegistry& worlds_;
  const StoreFirstAnswerer& answerer_;
  const std::size_t node_walk_entries_;
  mutable std::mutex mu_;
  mutable std::unordered_map<NodeWalkKey, nav::LegWalk, NodeWalkHash> node_walks_;      // guarded
  mutable std::unordered_map<DearerKey, double, absl::Hash<DearerKey>> dearer_bounds_;  // guarded
};

}  // namespace walk::server
