// Trips between their protos and plain C++ (server/trip_planner.h), at the server's edge.
#pragma once

#include "server/trip_planner.h"
#include "server/world_registry.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {

TripQuery ToTripQuery(const walk::v1::TripRequest& request);

void ToProto(const TripResult& result, walk::v1::TripResponse* out);

// The world's travel network as Info lists it; leaves `out` alone when it has none.
void TravelToProto(const ServedWorld& world, walk::v1::WorldInfo* out);

}  // namespace walk::server
