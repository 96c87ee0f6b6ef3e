// Between LiveService's walk.v1 messages and nav/live's types: the only place the two meet.
// Every enum read from a request is checked: a value this build does not know is
// INVALID_ARGUMENT naming the field, never read as a default. Places come as cells or as points in
// world units and go to nav/live as cells through the world's frame (nav/live/world_frame.h);
// replies carry both.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/live/live_world.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {

nav::live::Cell ToCell(const walk::v1::Cell& cell);
// A place given as `cell` or as `point` in world units (null: not given). Both: INVALID_ARGUMENT
// naming both fields; neither: cell (0, 0). A point off the map is INVALID_ARGUMENT naming
// `point_field` and the map's extent in world units (cells off the map are the world's to refuse).
absl::StatusOr<nav::live::Cell> ToPlace(const nav::live::LiveWorld& world,
                                        const walk::v1::Cell* cell,
                                        const walk::v1::LivePoint* point,
                                        const std::string& cell_field,
                                        const std::string& point_field);
// A length (radius, half-width, offset) in cells: `value` read in `units` (LiveUnits; unspecified:
// cells). INVALID_ARGUMENT naming `field` when it is negative or not finite, or `units` when the
// units are unknown.
absl::StatusOr<double> ToCellLength(double value, int units, const nav::live::WorldFrame& frame,
                                    const char* field);
// UNSPECIFIED reads as light. INVALID_ARGUMENT naming `field` for an unknown value.
absl::StatusOr<nav::live::Passability> ToPassability(int passability, const char* field);
absl::StatusOr<nav::live::PathRequest> ToLivePathRequest(const walk::v1::LivePathRequest& request,
                                                         const nav::live::LiveWorld& world);
// The changes asked, in order, in world units (cell bounds and cells converted when `units` is
// LIVE_UNITS_CELLS). INVALID_ARGUMENT names the first change of no or an unknown kind
// ("changes[2].kind: required").
absl::StatusOr<std::vector<nav::live::BlockerChange>> ToBlockerChanges(
    const walk::v1::UpdateBlockersRequest& request, const nav::live::WorldFrame& frame);
// The group's members. INVALID_ARGUMENT when passabilities are given but not one per start, or
// one is unknown, or when starts and start_points are both given.
absl::StatusOr<std::vector<nav::live::GroupMember>> ToGroupMembers(
    const walk::v1::PathGroupRequest& request, const nav::live::LiveWorld& world);
// Slot offsets read in `units`.
absl::StatusOr<nav::live::GroupFormation> ToFormation(const walk::v1::Formation& formation,
                                                      int units,
                                                      const nav::live::WorldFrame& frame);

void ToProto(const nav::live::Cell& cell, walk::v1::Cell* out);
void ToProto(const nav::live::WorldPoint& point, walk::v1::LivePoint* out);
void ToProto(const nav::live::LivePath& path, const nav::live::WorldFrame& frame,
             walk::v1::LivePathResponse* out);
void ToProto(const nav::live::UpdateResult& result, walk::v1::UpdateBlockersResponse* out);
void ToProto(const nav::live::GroupPlan& plan, const nav::live::WorldFrame& frame,
             walk::v1::PathGroupResponse* out);
void ToProto(const nav::live::FormationPlan& plan, const nav::live::WorldFrame& frame,
             walk::v1::FormationTargetsResponse* out);
void ToProto(const nav::live::CellReport& report, const nav::live::WorldFrame& frame,
             walk::v1::CellAtResponse* out);
void ToProto(const nav::live::WorkCellAnswer& answer, const nav::live::WorldFrame& frame,
             walk::v1::WorkCellResponse* out);

}  // namespace walk::server
