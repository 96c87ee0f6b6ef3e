#include "nav/demo/demo_travel.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nav/demo/plan.h"
#include "nav/query/snap.h"

namespace walk::nav {
namespace {

using demo::Plan;
using demo::Vec2;

// Flights follow a curved line a little longer than the straight one, at 30 yards a second,
// plus take-off and landing; zeppelins are slower and boats slower still.
constexpr double kFlightYardsPerSecond = 30.0, kFlightDetour = 1.15, kFlightFixedSeconds = 5.0;
constexpr double kZeppelinYardsPerSecond = 20.0, kZeppelinWaitSeconds = 60.0;
constexpr double kBoatYardsPerSecond = 8.0, kBoatWaitSeconds = 30.0;
constexpr double kPortalSeconds = 3.0;
constexpr int kFlightsPerTown = 3;

class NetworkMaker {
 public:
  NetworkMaker(const Plan& plan, const World& world) : plan_(plan), world_(world) {}

  // Adds a node standing on dry ground at `at` or, failing that, at the nearest of a ring of
  // spots up to `reach` yards away; returns its index, or -1 when none has dry ground.
  int AddNode(std::string id, std::string name, Vec2 at, Faction faction, double reach,
              std::optional<double> z = std::nullopt) {
    for (double r = 0.0; r <= reach; r += 3.0) {
      const int spokes = r == 0.0 ? 1 : 12;
      for (int k = 0; k < spokes; ++k) {
        const double angle = 2.0 * 3.14159265358979 * k / spokes;
        // Tenths of a yard, so the file reads as it is meant.
        const Vec2 p{std::round((at.x + r * std::cos(angle)) * 10) / 10,
                     std::round((at.y + r * std::sin(angle)) * 10) / 10};
        Place place{.continent = 0, .x_yards = p.x, .y_yards = p.y, .z_yards = z};
        if (!Dry(place)) continue;
        network_.nodes.push_back(
            {.id = std::move(id), .name = std::move(name), .place = place, .faction = faction});
        return static_cast<int>(network_.nodes.size() - 1);
      }
    }
    return -1;
  }

  void AddRide(RideKind kind, int from, int to, double wait_seconds, double ride_seconds,
               bool both_ways) {
    if (from < 0 || to < 0 || from == to) return;
    TravelRide ride{.kind = kind,
                    .from = static_cast<std::uint32_t>(from),
                    .to = static_cast<std::uint32_t>(to),
                    .wait_seconds = std::round(wait_seconds * 10) / 10,
                    .ride_seconds = std::round(ride_seconds * 10) / 10,
                    .edge = static_cast<std::uint32_t>(network_.edge_count++)};
    network_.rides.push_back(ride);
    if (both_ways) {
      std::swap(ride.from, ride.to);
      network_.rides.push_back(ride);
    }
  }

  double Distance(int a, int b) const {
    const Place& p = network_.nodes[a].place;
    const Place& q = network_.nodes[b].place;
    return std::hypot(p.x_yards - q.x_yards, p.y_yards - q.y_yards);
  }

  TravelNetwork Take() { return std::move(network_); }
  TravelNetwork& network() { return network_; }

 private:
  // True when `place` snaps to a surface one stands on dry (no water, steep, climb or block).
  bool Dry(const Place& place) const {
    const Continent& c = world_.continents[0];
    const Snap snap = SnapPlace(c, world_.FrameOf(c), place);
    if (snap.status != WalkStatus::kOk) return false;
    const std::uint8_t bad = kFlagWater | kFlagSteep | kFlagClimb | kFlagBlocked;
    return (c.flags[snap.end.surface] & bad) == 0;
  }

  const Plan& plan_;
  const World& world_;
  TravelNetwork network_;
};

Faction FactionOf(int town_faction) { return town_faction == 0 ? Faction::kA : Faction::kB; }
const char* FactionLetter(int town_faction) { return town_faction == 0 ? "A" : "B"; }

// A flight master in every town, and each town's flights to its nearest towns of its faction.
// Returns each town's node (-1: none).
std::vector<int> AddFlights(const Plan& plan, NetworkMaker& maker) {
  std::vector<int> node_of(plan.towns().size(), -1);
  for (std::size_t t = 0; t < plan.towns().size(); ++t) {
    const demo::Town& town = plan.towns()[t];
    node_of[t] = maker.AddNode(
        absl::StrCat("flight-", t),
        absl::StrCat("Town ", t, " flight master (", FactionLetter(town.faction), ")"), town.center,
        FactionOf(town.faction), town.radius * 0.5);
  }
  std::vector<std::pair<int, int>> flown;
  for (std::size_t t = 0; t < plan.towns().size(); ++t) {
    if (node_of[t] < 0) continue;
    std::vector<std::pair<double, int>> near;
    for (std::size_t u = 0; u < plan.towns().size(); ++u) {
      if (u == t || node_of[u] < 0 || plan.towns()[u].faction != plan.towns()[t].faction) continue;
      near.push_back({maker.Distance(node_of[t], node_of[u]), node_of[u]});
    }
    std::sort(near.begin(), near.end());
    for (std::size_t k = 0; k < near.size() && k < kFlightsPerTown; ++k) {
      const std::pair<int, int> pair = std::minmax(node_of[t], near[k].second);
      if (std::find(flown.begin(), flown.end(), pair) != flown.end()) continue;
      flown.push_back(pair);
      maker.AddRide(RideKind::kFlight, pair.first, pair.second, 0.0,
                    kFlightFixedSeconds + kFlightDetour * near[k].first / kFlightYardsPerSecond,
                    true);
    }
  }
  return node_of;
}

// The zeppelin between faction B's two towns farthest apart, from towers beside their flight
// masters.
void AddZeppelin(const Plan& plan, const std::vector<int>& flight_node, NetworkMaker& maker) {
  int best_a = -1, best_b = -1;
  double best = 0.0;
  for (std::size_t t = 0; t < plan.towns().size(); ++t) {
    for (std::size_t u = t + 1; u < plan.towns().size(); ++u) {
      if (plan.towns()[t].faction != 1 || plan.towns()[u].faction != 1) continue;
      if (flight_node[t] < 0 || flight_node[u] < 0) continue;
      const double d = maker.Distance(flight_node[t], flight_node[u]);
      if (d > best) best = d, best_a = static_cast<int>(t), best_b = static_cast<int>(u);
    }
  }
  if (best_a < 0) return;
  int towers[2];
  for (int k = 0; k < 2; ++k) {
    const int t = k == 0 ? best_a : best_b;
    const demo::Town& town = plan.towns()[t];
    towers[k] =
        maker.AddNode(absl::StrCat("zeppelin-", t), absl::StrCat("Town ", t, " zeppelin tower (B)"),
                      town.center + Vec2{0.0, town.radius * 0.4}, Faction::kB, town.radius * 0.5);
  }
  if (towers[0] >= 0 && towers[1] >= 0) {
    maker.AddRide(RideKind::kZeppelin, towers[0], towers[1], kZeppelinWaitSeconds,
                  maker.Distance(towers[0], towers[1]) / kZeppelinYardsPerSecond, true);
  }
}

// A boat across every lake, from a dock on its north shore to one on its south shore (the
// river runs through it west to east).
void AddBoats(const Plan& plan, NetworkMaker& maker) {
  for (std::size_t k = 0; k < plan.water().lakes().size(); ++k) {
    const demo::Lake& lake = plan.water().lakes()[k];
    int docks[2] = {-1, -1};
    for (int side = 0; side < 2; ++side) {
      const double sign = side == 0 ? -1.0 : 1.0;
      Vec2 p = lake.center;
      for (double r = 0.0; r < lake.radius * 2.0; r += 2.0) {  // to the shore, and a little on
        p = lake.center + Vec2{0.0, sign * r};
        if (plan.water().Distance(p, 20.0) > 5.0) break;
      }
      docks[side] =
          maker.AddNode(absl::StrCat("dock-", k, side == 0 ? "-north" : "-south"),
                        absl::StrCat("Lake ", k, side == 0 ? " north" : " south", " dock"), p,
                        Faction::kNeutral, 15.0);
    }
    if (docks[0] >= 0 && docks[1] >= 0) {
      maker.AddRide(RideKind::kBoat, docks[0], docks[1], kBoatWaitSeconds,
                    maker.Distance(docks[0], docks[1]) / kBoatYardsPerSecond, true);
    }
  }
}

}  // namespace

absl::StatusOr<TravelNetwork> DemoTravel(const DemoOptions& options, const World& world) {
  absl::StatusOr<std::unique_ptr<Plan>> made = Plan::Make(options);
  if (!made.ok()) return made.status();
  const Plan& plan = **made;
  if (world.continents.empty()) return absl::InvalidArgumentError("world: it has no continent");
  NetworkMaker maker(plan, world);
  const std::vector<int> flight_node = AddFlights(plan, maker);
  AddZeppelin(plan, flight_node, maker);
  AddBoats(plan, maker);

  const DemoLandmarks& marks = plan.landmarks();
  const double cs = plan.column_yards();
  auto at = [cs](const DemoPoint& p) { return Vec2{p.x_yards(cs), p.y_yards(cs)}; };
  const int portal_in = maker.AddNode("portal-low", "Portal to the mesa", at(marks.low_zone),
                                      Faction::kNeutral, 15.0);
  const int portal_out = maker.AddNode("portal-mesa", "Mesa top, portal's end", at(marks.cliff_top),
                                       Faction::kNeutral, 0.0, marks.cliff_top.z);
  maker.AddRide(RideKind::kPortal, portal_in, portal_out, 0.0, kPortalSeconds, false);

  // Inns: faction A's on the ground floor of its first town's main building, B's in its first
  // town's square.
  const int inn_a = maker.AddNode("inn-a", "Inn (A)", at(marks.building_ground), Faction::kA, 0.0,
                                  marks.building_ground.z);
  const int inn_b =
      maker.AddNode("inn-b", "Inn (B)", at(marks.town_b) + Vec2{12.0, 0.0}, Faction::kB, 20.0);
  TravelNetwork network = maker.Take();
  const std::pair<const char*, int> binds[] = {{"faction-a", inn_a},
                                               {"faction-a-heavy", inn_a},
                                               {"faction-b", inn_b},
                                               {"faction-b-heavy", inn_b}};
  for (const auto& [profile, inn] : binds) {
    if (inn < 0) continue;
    network.hearthstones.push_back({.profile = profile,
                                    .bind = static_cast<std::uint32_t>(inn),
                                    .cast_seconds = 10.0,
                                    .cooldown_seconds = 1800.0});
  }
  PlaceNodes(world, &network);
  return network;
}

}  // namespace walk::nav
