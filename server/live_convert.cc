#include "server/live_convert.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "nav/grid/number_text.h"

namespace walk::server {

namespace live = nav::live;

namespace {

walk::v1::LivePathStatus LivePathStatusToProto(live::PathStatus status) {
  switch (status) {
    case live::PathStatus::kFound:
      return walk::v1::LIVE_PATH_STATUS_FOUND;
    case live::PathStatus::kUnreachable:
      return walk::v1::LIVE_PATH_STATUS_UNREACHABLE;
    case live::PathStatus::kStartBlocked:
      return walk::v1::LIVE_PATH_STATUS_START_BLOCKED;
    case live::PathStatus::kGoalBlocked:
      return walk::v1::LIVE_PATH_STATUS_GOAL_BLOCKED;
  }
  return walk::v1::LIVE_PATH_STATUS_UNSPECIFIED;
}

walk::v1::LivePathMethod LivePathMethodToProto(live::PathMethod method) {
  switch (method) {
    case live::PathMethod::kNone:
      return walk::v1::LIVE_PATH_METHOD_UNSPECIFIED;
    case live::PathMethod::kRegions:
      return walk::v1::LIVE_PATH_METHOD_REGIONS;
    case live::PathMethod::kSearch:
      return walk::v1::LIVE_PATH_METHOD_SEARCH;
    case live::PathMethod::kCache:
      return walk::v1::LIVE_PATH_METHOD_CACHE;
    case live::PathMethod::kDirect:
      return walk::v1::LIVE_PATH_METHOD_DIRECT;
    case live::PathMethod::kKept:
      return walk::v1::LIVE_PATH_METHOD_KEPT;
    case live::PathMethod::kStepOut:
      return walk::v1::LIVE_PATH_METHOD_STEP_OUT;
    case live::PathMethod::kRecovered:
      return walk::v1::LIVE_PATH_METHOD_RECOVERED;
  }
  return walk::v1::LIVE_PATH_METHOD_UNSPECIFIED;
}

absl::StatusOr<live::BlockerChange> ToBlockerChange(const walk::v1::BlockerChange& c, int index,
                                                    bool in_cells, const live::WorldFrame& frame) {
  live::WorldRect rect{c.x0(), c.y0(), c.x1(), c.y1()};
  live::WorldPoint point{c.x(), c.y()};
  if (in_cells) {
    const live::WorldPoint lo = frame.ToWorld(live::CellPoint{c.x0(), c.y0()});
    const live::WorldPoint hi = frame.ToWorld(live::CellPoint{c.x1(), c.y1()});
    rect = live::WorldRect{lo.x, lo.y, hi.x, hi.y};
    point = frame.ToWorld(live::CellPoint{c.x(), c.y()});
  }
  switch (c.kind()) {
    case walk::v1::BlockerChange::KIND_ADD_BUILDING:
      return live::BlockerChange::AddBuilding(c.id(), rect);
    case walk::v1::BlockerChange::KIND_REMOVE_BUILDING:
      return live::BlockerChange::RemoveBuilding(c.id());
    case walk::v1::BlockerChange::KIND_MOVE_BUILDING:
      return live::BlockerChange::MoveBuilding(c.id(), rect);
    case walk::v1::BlockerChange::KIND_ADD_GATE:
      return live::BlockerChange::AddGate(c.id(), c.owner(), rect, c.open());
    case walk::v1::BlockerChange::KIND_REMOVE_GATE:
      return live::BlockerChange::RemoveGate(c.id());
    case walk::v1::BlockerChange::KIND_OPEN_GATE:
      return live::BlockerChange::OpenGate(c.id());
    case walk::v1::BlockerChange::KIND_SHUT_GATE:
      return live::BlockerChange::ShutGate(c.id());
    case walk::v1::BlockerChange::KIND_HARVEST:
      return live::BlockerChange::Harvest(point);
    case walk::v1::BlockerChange::KIND_PLACE_TREE:
      return live::BlockerChange::PlaceResource(point, live::CellValue::kTree);
    case walk::v1::BlockerChange::KIND_PLACE_BOULDER:
      return live::BlockerChange::PlaceResource(point, live::CellValue::kBoulder);
    case walk::v1::BlockerChange::KIND_PLACE_ORE:
      return live::BlockerChange::PlaceResource(point, live::CellValue::kIronOre);
    case walk::v1::BlockerChange::KIND_UNSPECIFIED:
      return absl::InvalidArgumentError(absl::StrCat("changes[", index, "].kind: required"));
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("changes[", index, "].kind: unknown value ", static_cast<int>(c.kind())));
  }
}

}  // namespace

live::Cell ToCell(const walk::v1::Cell& cell) { return {cell.x(), cell.y()}; }

absl::StatusOr<live::Passability> ToPassability(int passability, const char* field) {
  switch (passability) {
    case walk::v1::PASSABILITY_UNSPECIFIED:
    case walk::v1::PASSABILITY_LIGHT:
      return live::Passability::kLight;
    case walk::v1::PASSABILITY_HEAVY:
      return live::Passability::kHeavy;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": unknown value ", passability, " (light or heavy)"));
  }
}

absl::StatusOr<live::Cell> ToPlace(const live::LiveWorld& world, const walk::v1::Cell* cell,
                                   const walk::v1::LivePoint* point, const std::string& cell_field,
                                   const std::string& point_field) {
  if (cell != nullptr && point != nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat(cell_field, ", ", point_field, ": give one of them, not both"));
  }
  if (point == nullptr) return cell != nullptr ? ToCell(*cell) : live::Cell{};
  const live::WorldFrame& frame = world.frame();
  const live::Cell c = frame.CellHolding(live::WorldPoint{point->x(), point->y()});
  if (std::isfinite(point->x()) && std::isfinite(point->y()) && c.x >= 0 && c.y >= 0 &&
      c.x < world.width() && c.y < world.height()) {
    return c;
  }
  const live::WorldPoint lo = frame.ToWorld(live::CellPoint{0, 0});
  const live::WorldPoint hi =
      frame.ToWorld(live::CellPoint{double(world.width()), double(world.height())});
  return absl::InvalidArgumentError(absl::StrCat(
      point_field, ": (", nav::NumberText(point->x()), ", ", nav::NumberText(point->y()),
      ") lies off the map (x ", nav::NumberText(lo.x), " to ", nav::NumberText(hi.x), ", y ",
      nav::NumberText(lo.y), " to ", nav::NumberText(hi.y), " world units)"));
}

absl::StatusOr<double> ToCellLength(double value, int units, const live::WorldFrame& frame,
                                    const char* field) {
  if (!std::isfinite(value) || value < 0.0) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": ", nav::NumberText(value), " must be finite and not negative"));
  }
  switch (units) {
    case walk::v1::LIVE_UNITS_UNSPECIFIED:
    case walk::v1::LIVE_UNITS_CELLS:
      return value;
    case walk::v1::LIVE_UNITS_WORLD:
      return value / frame.cell_size;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat("units: unknown value ", units, " (cells or world)"));
  }
}

absl::StatusOr<live::PathRequest> ToLivePathRequest(const walk::v1::LivePathRequest& request,
                                                    const live::LiveWorld& world) {
  live::PathRequest path_request;
  absl::StatusOr<live::Cell> start =
      ToPlace(world, request.has_start() ? &request.start() : nullptr,
              request.has_start_point() ? &request.start_point() : nullptr, "start", "start_point");
  if (!start.ok()) return start.status();
  absl::StatusOr<live::Cell> goal =
      ToPlace(world, request.has_goal() ? &request.goal() : nullptr,
              request.has_goal_point() ? &request.goal_point() : nullptr, "goal", "goal_point");
  if (!goal.ok()) return goal.status();
  path_request.start = *start;
  path_request.goal = *goal;
  absl::StatusOr<live::Passability> p = ToPassability(request.passability(), "passability");
  if (!p.ok()) return p.status();
  path_request.passability = *p;
  path_request.resolve_blocked_goal = !request.keep_goal();
  path_request.unit = request.unit();
  path_request.recover_start = request.recover_start();
  absl::StatusOr<double> radius =
      ToCellLength(request.radius(), request.units(), world.frame(), "radius");
  if (!radius.ok()) return radius.status();
  absl::StatusOr<double> half_width = ToCellLength(request.formation_half_width(), request.units(),
                                                   world.frame(), "formation_half_width");
  if (!half_width.ok()) return half_width.status();
  path_request.radius = *radius;
  path_request.formation_half_width = *half_width;
  return path_request;
}

absl::StatusOr<std::vector<live::BlockerChange>> ToBlockerChanges(
    const walk::v1::UpdateBlockersRequest& request, const live::WorldFrame& frame) {
  if (request.units() != walk::v1::LIVE_UNITS_UNSPECIFIED &&
      request.units() != walk::v1::LIVE_UNITS_CELLS &&
      request.units() != walk::v1::LIVE_UNITS_WORLD) {
    return absl::InvalidArgumentError(
        absl::StrCat("units: unknown value ", request.units(), " (cells or world)"));
  }
  const bool in_cells = request.units() == walk::v1::LIVE_UNITS_CELLS;
  std::vector<live::BlockerChange> changes;
  for (int i = 0; i < request.changes_size(); ++i) {
    absl::StatusOr<live::BlockerChange> change =
        ToBlockerChange(request.changes(i), i, in_cells, frame);
    if (!change.ok()) return change.status();
    changes.push_back(*change);
  }
  return changes;
}

absl::StatusOr<std::vector<live::GroupMember>> ToGroupMembers(
    const walk::v1::PathGroupRequest& request, const live::LiveWorld& world) {
  if (request.starts_size() != 0 && request.start_points_size() != 0) {
    return absl::InvalidArgumentError("starts, start_points: give one of them, not both");
  }
  const bool points = request.start_points_size() != 0;
  const int count = points ? request.start_points_size() : request.starts_size();
  if (request.passabilities_size() != 0 && request.passabilities_size() != count) {
    return absl::InvalidArgumentError("passabilities: one per start, or none");
  }
  std::vector<live::GroupMember> members;
  for (int i = 0; i < count; ++i) {
    live::GroupMember member;
    const std::string at = absl::StrCat("[", i, "]");
    absl::StatusOr<live::Cell> start =
        ToPlace(world, points ? nullptr : &request.starts(i),
                points ? &request.start_points(i) : nullptr, "starts" + at, "start_points" + at);
    if (!start.ok()) return start.status();
    member.start = *start;
    if (request.passabilities_size() != 0) {
      const std::string field = absl::StrCat("passabilities[", i, "]");
      absl::StatusOr<live::Passability> p = ToPassability(request.passabilities(i), field.c_str());
      if (!p.ok()) return p.status();
      member.passability = *p;
    }
    members.push_back(member);
  }
  return members;
}

absl::StatusOr<live::GroupFormation> ToFormation(const walk::v1::Formation& formation, int units,
                                                 const live::WorldFrame& frame) {
  absl::StatusOr<double> scale = ToCellLength(1.0, units, frame, "units");
  if (!scale.ok()) return scale.status();
  live::GroupFormation out;
  out.facing_degrees = formation.facing_degrees();
  for (const walk::v1::FormationSlot& slot : formation.slots()) {
    out.slots.push_back(live::FormationSlot{slot.forward() * *scale, slot.right() * *scale});
  }
  return out;
}

void ToProto(const live::Cell& cell, walk::v1::Cell* out) {
  out->set_x(cell.x);
  out->set_y(cell.y);
}

void ToProto(const live::WorldPoint& point, walk::v1::LivePoint* out) {
  out->set_x(point.x);
  out->set_y(point.y);
}

void ToProto(const live::LivePath& path, const live::WorldFrame& frame,
             walk::v1::LivePathResponse* out) {
  out->set_status(LivePathStatusToProto(path.status));
  ToProto(path.goal, out->mutable_goal());
  ToProto(frame.Centre(path.goal), out->mutable_goal_point());
  out->set_cost(path.cost);
  for (const live::Cell& c : path.cells) ToProto(c, out->add_cells());
  for (const live::Cell& c : path.waypoints) ToProto(c, out->add_waypoints());
  for (const live::CellPoint& p : path.points)
    ToProto(frame.ToWorld(p), out->add_waypoint_points());
  ToProto(path.start, out->mutable_start());
  ToProto(frame.Centre(path.start), out->mutable_start_point());
  out->set_revision(path.revision);
  out->set_from_cache(path.from_cache);
  out->set_method(LivePathMethodToProto(path.method));
  out->set_too_narrow(path.too_narrow);
}

void ToProto(const live::UpdateResult& result, walk::v1::UpdateBlockersResponse* out) {
  out->set_revision(result.revision);
  out->set_dirty_cells(result.dirty_cells);
  out->set_dirty_rects(result.dirty_rects);
  out->set_full_rebuild(result.full_rebuild);
}

void ToProto(const live::GroupPlan& plan, const live::WorldFrame& frame,
             walk::v1::PathGroupResponse* out) {
  ToProto(plan.goal, out->mutable_goal());
  ToProto(frame.Centre(plan.goal), out->mutable_goal_point());
  for (const live::Cell& c : plan.corridor) ToProto(c, out->add_corridor());
  for (const live::CellPoint& p : plan.corridor_points) {
    ToProto(frame.ToWorld(p), out->add_corridor_points());
  }
  for (const live::MemberPath& m : plan.members) {
    walk::v1::MemberPath* member = out->add_members();
    member->set_route(live::GroupRouteName(m.route));
    member->set_cost(m.cost);
    for (const live::Cell& c : m.waypoints) ToProto(c, member->add_waypoints());
    for (const live::CellPoint& p : m.points) {
      ToProto(frame.ToWorld(p), member->add_waypoint_points());
    }
    ToProto(m.target, member->mutable_target());
    ToProto(frame.Centre(m.target), member->mutable_target_point());
  }
  out->set_shared(plan.shared);
  out->set_individual(plan.individual);
  out->set_deferred(plan.deferred);
}

void ToProto(const live::FormationPlan& plan, const live::WorldFrame& frame,
             walk::v1::FormationTargetsResponse* out) {
  ToProto(plan.center, out->mutable_center());
  ToProto(frame.Centre(plan.center), out->mutable_center_point());
  for (const live::SlotTarget& slot : plan.slots) {
    walk::v1::SlotTarget* target = out->add_slots();
    ToProto(slot.cell, target->mutable_cell());
    ToProto(frame.Centre(slot.cell), target->mutable_point());
    target->set_outcome(live::SlotOutcomeName(slot.outcome));
    target->set_collapsed(slot.collapsed());
  }
  out->set_used(plan.used);
  out->set_collapsed(plan.collapsed);
}

void ToProto(const live::CellReport& report, const live::WorldFrame& frame,
             walk::v1::CellAtResponse* out) {
  ToProto(report.cell, out->mutable_cell());
  ToProto(frame.Centre(report.cell), out->mutable_center());
  out->set_value(live::CellValueName(report.value));
  out->set_terrain(live::CellValueName(report.terrain));
  out->set_forest(report.forest);
  out->set_road(report.road);
  if (report.crossing) {
    out->set_crossing(*report.crossing == live::CrossingKind::kBridge ? "bridge" : "entrance");
  }
  if (live::IsResource(report.resource)) out->set_resource(live::CellValueName(report.resource));
  if (report.blocker != live::BlockerKind::kNone) {
    out->set_blocker(live::BlockerKindName(report.blocker));
    out->set_blocker_id(report.footprint_id);
  }
  out->set_owner(report.gate_owner);
  out->set_gate(report.gate);
  if (report.gate != 0) out->set_gate_state(report.gate_open ? "open" : "shut");
  out->set_light_open(report.light_standable);
  out->set_heavy_open(report.heavy_standable);
  out->set_revision(report.revision);
}

void ToProto(const live::WorkCellAnswer& answer, const live::WorldFrame& frame,
             walk::v1::WorkCellResponse* out) {
  ToProto(answer.cell, out->mutable_cell());
  ToProto(frame.Centre(answer.cell), out->mutable_point());
  out->set_target(live::CellValueName(answer.target.value));
  out->set_revision(answer.revision);
}

}  // namespace walk::server
