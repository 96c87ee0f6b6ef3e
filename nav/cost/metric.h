// A metric: the cost model customized for one profile and one danger band on one world, as
// lookup tables, so pricing a step is three table reads and two multiplications.
// Immutable once built; safe to share across threads.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "nav/cost/cost_model.h"
#include "nav/grid/grid.h"

namespace walk::nav {

class Metric {
 public:
  // Prices steps on `world` (its column width and zones) for `profile` in danger `band`.
  Metric(const World& world, const Profile& profile, std::uint32_t band,
         const CostModel& model = DefaultCostModel());

  // Seconds of a step over a link of `kind`, `columns` long (1 or sqrt(2)), entering surface
  // `to`; kInfCost when `to` may not be entered. Zones `exempt_a` and `exempt_b` (the ends')
  // carry no danger.
  double StepSeconds(const Continent& c, SurfaceId to, LinkKind kind, double columns,
                     std::uint16_t exempt_a, std::uint16_t exempt_b) const {
    const double ground = EnterMultiplier(c, to, exempt_a, exempt_b);
    return columns * seconds_per_column_ * ground + kind_fixed_seconds_[static_cast<int>(kind)];
  }

  // Seconds of lift ride `ride` of continent `c`: the ride's wait plus its length at its speed,
  // times the multiplier of the landing it arrives at (kInfCost when that may not be entered);
  // under "shortest" pricing its length at running pace. Zones `exempt_a` and `exempt_b` carry
  // no danger.
  double LiftSeconds(const Continent& c, const LiftRide& ride, std::uint16_t exempt_a,
                     std::uint16_t exempt_b) const;

  // The multiplier of entering `to`: ground x hostile x danger; kInfCost when forbidden.
  double EnterMultiplier(const Continent& c, SurfaceId to, std::uint16_t exempt_a,
                         std::uint16_t exempt_b) const {
    return Multiplier(c.flags[to], c.marks[to], c.zone[to], exempt_a, exempt_b);
  }
  // The multiplier of entering ground of `flags` (SurfaceFlag bits), `marks` (AreaMark bits) and
  // `zone`, wherever it is (a surface, a navmesh polygon): as EnterMultiplier.
  double Multiplier(std::uint8_t flags, std::uint8_t marks, std::uint16_t zone,
                    std::uint16_t exempt_a, std::uint16_t exempt_b) const {
    const double danger = (zone == exempt_a || zone == exempt_b || zone >= zone_multiplier_.size())
                              ? 1.0
                              : zone_multiplier_[zone];
    return ground_multiplier_[flags | ((marks & kMarkRoad) ? 256 : 0)] * mark_multiplier_[marks] *
           danger;
  }
  // The seconds of a ride of `ride`'s timing landing where the multiplier is `landing`: as
  // LiftSeconds, wherever the ride is (a grid's lift, a navmesh's off-mesh connection).
  double RideSeconds(const LiftRide& ride, double landing) const {
    if (profile_.pricing == Pricing::kShortest)
      return ride.shaft_yards / model_.run_yards_per_second;
    return (ride.wait_seconds + ride.shaft_yards / ride.shaft_yards_per_second) * landing;
  }

  // The fixed seconds a link of `kind` adds (a jump, a fall): the part of a step danger does not
  // multiply.
  double FixedSeconds(LinkKind kind) const { return kind_fixed_seconds_[static_cast<int>(kind)]; }
  // The danger multiplier of `zone` in this band (1 outside danger bands and for unknown zones).
  double ZoneMultiplier(std::uint16_t zone) const {
    return zone < zone_multiplier_.size() ? zone_multiplier_[zone] : 1.0;
  }

  // A lower bound of the seconds per octile column of any step and any lift ride: the A*
  // heuristic's scale. A ride between two columns that goes faster than the cheapest ground
  // lowers it to the ride's seconds per octile column between its landings.
  double min_seconds_per_column() const { return min_seconds_per_column_; }
  double seconds_per_column() const { return seconds_per_column_; }
  const Profile& profile() const { return profile_; }
  std::uint32_t band() const { return band_; }
  // True when the metric prices danger (a band above 0 with terrain pricing).
  bool prices_danger() const { return prices_danger_; }
  const CostModel& model() const { return model_; }
  // The band's danger table: (zone, multiplier) for every zone that costs more than 1, by zone.
  std::vector<std::pair<std::uint16_t, double>> DangerTable() const;

 private:
  // Lowers min_seconds_per_column_ to the pace of any ride between two columns that beats it.
  void LowerBoundForLifts(const World& world);

  Profile profile_;
  std::uint32_t band_;
  CostModel model_;
  bool prices_danger_ = false;
  double seconds_per_column_ = 0.0;
  double min_seconds_per_column_ = 0.0;
  std::array<double, 512> ground_multiplier_{};  // by flags | (road ? 256 : 0)
  std::array<double, 256> mark_multiplier_{};    // by marks (hostile towns)
  std::vector<double> zone_multiplier_;          // by zone id (danger)
  std::array<double, kLinkKindCount> kind_fixed_seconds_{};
};

}  // namespace walk::nav
