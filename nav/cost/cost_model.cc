#include "nav/cost/cost_model.h"

#include <algorithm>

namespace walk::nav {
namespace {

Profile Make(std::string name, Pricing pricing, Faction faction, MoveProfile move,
             double smoothing) {
  Profile p;
  p.name = std::move(name);
  p.pricing = pricing;
  p.faction = faction;
  p.move = move;
  p.smoothing = smoothing;
  return p;
}

const std::vector<Profile>& Profiles() {
  static const std::vector<Profile>* profiles = new std::vector<Profile>{
      Make("shortest", Pricing::kShortest, Faction::kNeutral, MoveProfile::kLight, 1.0),
      Make("neutral", Pricing::kTerrain, Faction::kNeutral, MoveProfile::kLight, 0.961),
      Make("faction-a", Pricing::kTerrain, Faction::kA, MoveProfile::kLight, 0.961),
      Make("faction-b", Pricing::kTerrain, Faction::kB, MoveProfile::kLight, 0.961),
      Make("faction-a-heavy", Pricing::kTerrain, Faction::kA, MoveProfile::kHeavy, 0.961),
      Make("faction-b-heavy", Pricing::kTerrain, Faction::kB, MoveProfile::kHeavy, 0.961),
  };
  return *profiles;
}

}  // namespace

const CostModel& DefaultCostModel() {
  static const CostModel model;
  return model;
}

const Profile* FindProfile(std::string_view name) {
  if (name.empty()) name = "shortest";
  for (const Profile& p : Profiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> ProfileNames() {
  std::vector<std::string> names;
  for (const Profile& p : Profiles()) names.push_back(p.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace walk::nav
