// A profile: what a walk is priced for. A step costs its length (yards) times the multiplier of
// its link kind, divided by the run speed: seconds. An infinite multiplier forbids the kind.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "nav/surface.h"

namespace walk::nav {

struct Profile {
  std::string name;
  // Running pace, yards per second.
  double run_yards_per_second = 7.0;
  // Per LinkKind: the multiplier of a step taken over a link of that kind (1 = plain running).
  std::array<double, kLinkKindCount> kind_multiplier{};
  // Walked yards = searched yards x smoothing (1 = the column-by-column length itself).
  double smoothing = 1.0;

  // The smallest multiplier of any allowed kind: the A* heuristic's scale (keeps it admissible).
  double MinMultiplier() const;
};

// The profile of that name, or nullptr. An empty name is "shortest".
const Profile* FindProfile(std::string_view name);
// Every profile name, sorted.
std::vector<std::string> ProfileNames();

}  // namespace walk::nav
