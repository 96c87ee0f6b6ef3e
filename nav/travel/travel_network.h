// A world's travel network (docs/formats.md, "travel.json"): the nodes one rides from (flight
// masters, docks, portals, inns), the rides between them (flights, boats, zeppelins, trams,
// one-way portals) and each profile's hearthstone. Trips (nav/travel/trip_search.h) join it with
// walks. Plain data: checked once (Check), placed on the world's grid once (PlaceNodes), then
// immutable and safe to share across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "nav/cost/cost_model.h"
#include "nav/grid/grid.h"
#include "nav/query/answer.h"
#include "nav/travel/travel_index.h"

namespace walk::nav {

// What a ride is. Flights and portals take their seconds; boats, zeppelins and trams a wait at
// the stop (schedule-free: the mean wait) and then the ride.
enum class RideKind : std::uint8_t { kFlight, kBoat, kZeppelin, kTram, kPortal };
inline constexpr int kRideKindCount = 5;
const char* RideKindName(RideKind kind);  // "flight", "boat", "zeppelin", "tram", "portal"
// The kind named `name`, or nullopt.
std::optional<RideKind> FindRideKind(std::string_view name);

// A walk's end whose region is not known for sure (TravelNode::region, TripAsk).
inline constexpr std::uint32_t kAnyRegion = UINT32_MAX;

struct TravelNode {
  std::string id;    // unique in the network; what edges and hearthstones name
  std::string name;  // for people ("Aldmoor flight master"); may be empty
  Place place;       // continent, x, y and, when the data gives one, z
  // Neutral nodes serve everyone; a faction's serve only that faction's profiles.
  Faction faction = Faction::kNeutral;
  // Set by PlaceNodes: the node stands on a surface of the grid, and `place.z_yards` is that
  // surface's height (so every walk to it starts on the same floor).
  bool placed = false;
  // Set by PlaceNodes: the node's surface is in a small region, so a walk from or to it may start
  // from a surface settled up to a settle's reach away (nav/query/settle.h). Unknown: true.
  bool may_settle = true;
  // Set by PlaceNodes: the region of the node's surface when no walk can take it elsewhere (it
  // may not settle, and its column's usual floor is in the same region), else kAnyRegion. Walks
  // join only points of one region (nav/grid/grid.h), so a walk between two points whose
  // regions are known and differ is never found, and never asked.
  std::uint32_t region = kAnyRegion;
};

// One ride, from node `from` to node `to` (indices into TravelNetwork::nodes). Data that says
// "both_ways" becomes two rides.
struct TravelRide {
  RideKind kind = RideKind::kFlight;
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  double wait_seconds = 0.0;  // boats, zeppelins, trams; 0 for flights and portals
  double ride_seconds = 0.0;
  std::uint32_t edge = 0;  // the edge of the data it came from (edges[edge]), for messages
  double seconds() const { return wait_seconds + ride_seconds; }
};

// A profile's hearthstone: cast anywhere, it takes the character to its bind node.
struct Hearthstone {
  std::string profile;  // a known profile name (nav/cost/cost_model.h)
  std::uint32_t bind = 0;
  double cast_seconds = 10.0;
  double cooldown_seconds = 3600.0;  // after a cast, the next one waits this long
};

// Most nodes and edges a travel file may hold. A real game's network has a few thousand nodes;
// at these limits a trip's own search (its potential and the boxes of nodes it opens) takes
// under a tenth of a second, the walks it prices aside (docs/benchmarks.md, "Trips at the travel
// file's limits").
inline constexpr std::size_t kMaxTravelNodes = 10000;
inline constexpr std::size_t kMaxTravelEdges = 200000;
// Seconds any single wait, ride, cast or cooldown may last.
inline constexpr double kMaxTravelSeconds = 1e6;

struct TravelNetwork {
  std::vector<TravelNode> nodes;
  std::vector<TravelRide> rides;  // by edge order; a both-ways edge gives two, back to back
  std::vector<Hearthstone> hearthstones;
  std::size_t edge_count = 0;  // edges in the data (rides counts each direction)
  // Built by PlaceNodes (the trip search builds its own when it is unset).
  std::shared_ptr<const TravelIndex> index;

  // The node of that id, or nullopt.
  std::optional<std::uint32_t> FindNode(std::string_view id) const;
  // The hearthstone of `profile`, or nullptr when it has none.
  const Hearthstone* HearthstoneOf(std::string_view profile) const;
};

// A hash of everything in `network` that decides a trip (stable across runs and machines): the
// nodes as placed (ids, factions, places, heights), the rides and the hearthstones. Names for
// people are left out. Call after PlaceNodes.
std::uint64_t TravelContentHash(const TravelNetwork& network);

// True when a character of `profile` may use `node`: a neutral node, or one of its own faction.
bool MayUse(const Profile& profile, const TravelNode& node);

// True unless `place` and its column's usual floor (where a walk that found nothing at the
// place's height is asked again) both stand in large regions, where no walk is settled
// (nav/query/settle.h). A place on no surface may settle.
bool MaySettle(const Continent& continent, const WorldFrame& frame, const Place& place);

// The region every walk from or to `place` starts or ends in, or kAnyRegion when it may settle or
// its column's usual floor is in another region (TravelNode::region).
std::uint32_t WalkRegion(const Continent& continent, const WorldFrame& frame, const Place& place);

// Places every node on `world`'s grid: a node with a height takes the floor nearest it, one
// without takes the column's usual floor (as a walk's end); either way its height becomes the
// surface's, and may_settle says whether that surface's region is small. Builds the index. A node
// on a continent the world lacks, off the map or on no surface is left unplaced (rides to and from
// it are never taken). Returns one line per unplaced node, naming it and why, for the load's log.
std::vector<std::string> PlaceNodes(const World& world, TravelNetwork* network);

}  // namespace walk::nav
