#include "nav/cost/metric.h"

#include <algorithm>
#include <cmath>

#include "nav/cost/danger.h"

namespace walk::nav {

Metric::Metric(const World& world, const Profile& profile, std::uint32_t band,
               const CostModel& model)
    : profile_(profile), band_(band), model_(model) {
  const bool terrain = profile.pricing == Pricing::kTerrain;
  seconds_per_column_ = world.column_yards / model.run_yards_per_second;

  for (int index = 0; index < 512; ++index) {
    const std::uint8_t flags = static_cast<std::uint8_t>(index & 255);
    const bool road = index >= 256;
    double m = 1.0;
    if (flags & kFlagBlocked) {
      m = kInfCost;
    } else if (terrain && profile.move == MoveProfile::kHeavy && (flags & kFlagForest)) {
      m = kInfCost;
    } else if (terrain) {
      if (flags & kFlagClimb) {
        m = model.climb;
      } else if (flags & kFlagSteep) {
        m = model.steep;
      } else if (flags & kFlagWater) {
        m = model.water;
      } else if (road) {
        m = model.road;
      }
    }
    ground_multiplier_[index] = m;
  }

  std::uint8_t hostile_mask = 0;
  if (terrain && profile.faction == Faction::kA) hostile_mask = kMarkHubB;
  if (terrain && profile.faction == Faction::kB) hostile_mask = kMarkHubA;
  for (int marks = 0; marks < 256; ++marks) {
    mark_multiplier_[marks] = (marks & hostile_mask) ? model.hostile : 1.0;
  }

  prices_danger_ = terrain && band > 0;
  for (const Zone& zone : world.zones) {
    if (zone.id >= zone_multiplier_.size()) zone_multiplier_.resize(zone.id + 1, 1.0);
    zone_multiplier_[zone.id] = prices_danger_ ? DangerMultiplier(band, zone.min_level) : 1.0;
  }

  if (terrain) {
    kind_fixed_seconds_[static_cast<int>(LinkKind::kJump)] = model.jump_seconds;
    kind_fixed_seconds_[static_cast<int>(LinkKind::kFall)] = model.fall_seconds;
  }
  // The cheapest ground any step of this world can enter: the A* heuristic's scale. Only kinds of
  // ground that occur count, so a world without roads keeps the bound at plain running.
  double cheapest = kInfCost;
  for (const Continent& c : world.continents) {
    for (int index = 0; index < 512; ++index) {
      if (c.ground_present[index / 64] & (std::uint64_t{1} << (index % 64))) {
        cheapest = std::min(cheapest, ground_multiplier_[index]);
      }
    }
  }
  if (!(cheapest < kInfCost)) cheapest = 1.0;  // nothing enterable: any bound will do
  // A hostile town multiplies too: a model that made it cheaper would lower the bound. (Cell
  // searches' buckets rely on it as much as the A* does.)
  const double hostile = hostile_mask != 0 ? std::min(model.hostile, 1.0) : 1.0;
  min_seconds_per_column_ = seconds_per_column_ * std::min(cheapest, 1.0) * hostile;
  LowerBoundForLifts(world);
}

void Metric::LowerBoundForLifts(const World& world) {
  // A ride between two columns moves horizontally: where it beats walking there, the bound must
  // come down to its pace, or the A* heuristic would overestimate walks that take it. A ride's
  // seconds with its landing's zone exempt are the least it costs in any band (danger only
  // multiplies), and a hair less keeps rounding from making the bound exceed a ride.
  for (const Continent& c : world.continents) {
    for (const LiftRide& ride : c.lifts) {
      const double dx = std::abs(static_cast<double>(c.column_x[ride.from]) - c.column_x[ride.to]);
      const double dy = std::abs(static_cast<double>(c.column_y[ride.from]) - c.column_y[ride.to]);
      const double columns = OctileColumns(dx, dy);
      if (!(columns > 0.0)) continue;  // a shaft in one column moves no column
      const std::uint16_t zone = c.zone[ride.to];
      const double seconds = LiftSeconds(c, ride, zone, zone);
      if (!(seconds < kInfCost)) continue;
      const double pace = seconds / columns * (1.0 - 1e-9);
      min_seconds_per_column_ = std::min(min_seconds_per_column_, pace);
    }
  }
}

double Metric::LiftSeconds(const Continent& c, const LiftRide& ride, std::uint16_t exempt_a,
                           std::uint16_t exempt_b) const {
  if (profile_.pricing == Pricing::kShortest) return RideSeconds(ride, 1.0);
  return RideSeconds(ride, EnterMultiplier(c, ride.to, exempt_a, exempt_b));
}

}  // namespace walk::nav

namespace walk::nav {

std::vector<std::pair<std::uint16_t, double>> Metric::DangerTable() const {
  std::vector<std::pair<std::uint16_t, double>> table;
  for (std::size_t zone = 0; zone < zone_multiplier_.size(); ++zone) {
    if (zone_multiplier_[zone] != 1.0)
      table.emplace_back(static_cast<std::uint16_t>(zone), zone_multiplier_[zone]);
  }
  return table;
}

}  // namespace walk::nav
