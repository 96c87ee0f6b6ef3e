// The demo world's travel network (docs/demo_world.md, "The travel network"), made from the
// same plan as its ground: a flight master in every town, flights between each town and its
// three nearest towns of its faction, a zeppelin between faction B's two towns farthest apart,
// a boat across every lake (north shore to south shore), a one-way portal from the lowest zone
// to the top of the first mesa, and an inn per faction bound by that faction's hearthstones.
// The same seed and size give the same network.
#pragma once

#include "absl/status/statusor.h"
#include "nav/demo/demo_world.h"
#include "nav/travel/travel_network.h"

namespace walk::nav {

// The network of the demo world `world` that `options` generated, its nodes placed on it.
// Stops that would stand on no dry surface move to the nearest spot that has one (within a
// town's or shore's reach) or are left out. Same errors as GenerateDemoWorld's argument checks.
absl::StatusOr<TravelNetwork> DemoTravel(const DemoOptions& options, const World& world);

}  // namespace walk::nav
