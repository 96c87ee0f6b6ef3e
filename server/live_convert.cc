#include "server/live_convert.h"

#include "absl/strings/str_cat.h"

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
  }
  return walk::v1::LIVE_PATH_METHOD_UNSPECIFIED;
}

absl::StatusOr<live::BlockerChange> ToBlockerChange(const walk::v1::BlockerChange& c, int index) {
  const live::WorldRect rect{c.x0(), c.y0(), c.x1(), c.y1()};
  const live::WorldPoint point{c.x(), c.y()};
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

absl::StatusOr<live::PathRequest> ToLivePathRequest(const walk::v1::LivePathRequest& request) {
  live::PathRequest path_request;
  path_request.start = ToCell(request.start());
  path_request.goal = ToCell(request.goal());
  absl::StatusOr<live::Passability> p = ToPassability(request.passability(), "passability");
  if (!p.ok()) return p.status();
  path_request.passability = *p;
  path_request.resolve_blocked_goal = !request.keep_goal();
  path_request.unit = request.unit();
  return path_request;
}

absl::StatusOr<std::vector<live::BlockerChange>> ToBlockerChanges(
    const walk::v1::UpdateBlockersRequest& request) {
  std::vector<live::BlockerChange> changes;
  for (int i = 0; i < request.changes_size(); ++i) {
    absl::StatusOr<live::BlockerChange> change = ToBlockerChange(request.changes(i), i);
    if (!change.ok()) return change.status();
    changes.push_back(*change);
  }
  return changes;
}

absl::StatusOr<std::vector<live::GroupMember>> ToGroupMembers(
    const walk::v1::PathGroupRequest& request) {
  if (request.passabilities_size() != 0 && request.passabilities_size() != request.starts_size()) {
    return absl::InvalidArgumentError("passabilities: one per start, or none");
  }
  std::vector<live::GroupMember> members;
  for (int i = 0; i < request.starts_size(); ++i) {
    live::GroupMember member;
    member.start = ToCell(request.starts(i));
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

live::GroupFormation ToFormation(const walk::v1::Formation& formation) {
  live::GroupFormation out;
  out.facing_degrees = formation.facing_degrees();
  for (const walk::v1::FormationSlot& slot : formation.slots()) {
    out.slots.push_back(live::FormationSlot{slot.forward(), slot.right()});
  }
  return out;
}

void ToProto(const live::Cell& cell, walk::v1::Cell* out) {
  out->set_x(cell.x);
  out->set_y(cell.y);
}

void ToProto(const live::LivePath& path, walk::v1::LivePathResponse* out) {
  out->set_status(LivePathStatusToProto(path.status));
  ToProto(path.goal, out->mutable_goal());
  out->set_cost(path.cost);
  for (const live::Cell& c : path.cells) ToProto(c, out->add_cells());
  for (const live::Cell& c : path.waypoints) ToProto(c, out->add_waypoints());
  out->set_revision(path.revision);
  out->set_from_cache(path.from_cache);
  out->set_method(LivePathMethodToProto(path.method));
}

void ToProto(const live::UpdateResult& result, walk::v1::UpdateBlockersResponse* out) {
  out->set_revision(result.revision);
  out->set_dirty_cells(result.dirty_cells);
  out->set_dirty_rects(result.dirty_rects);
  out->set_full_rebuild(result.full_rebuild);
}

void ToProto(const live::GroupPlan& plan, walk::v1::PathGroupResponse* out) {
  ToProto(plan.goal, out->mutable_goal());
  for (const live::Cell& c : plan.corridor) ToProto(c, out->add_corridor());
  for (const live::MemberPath& m : plan.members) {
    walk::v1::MemberPath* member = out->add_members();
    member->set_route(live::GroupRouteName(m.route));
    member->set_cost(m.cost);
    for (const live::Cell& c : m.waypoints) ToProto(c, member->add_waypoints());
    ToProto(m.target, member->mutable_target());
  }
  out->set_shared(plan.shared);
  out->set_individual(plan.individual);
  out->set_deferred(plan.deferred);
}

void ToProto(const live::FormationPlan& plan, walk::v1::FormationTargetsResponse* out) {
  ToProto(plan.center, out->mutable_center());
  for (const live::SlotTarget& slot : plan.slots) {
    walk::v1::SlotTarget* target = out->add_slots();
    ToProto(slot.cell, target->mutable_cell());
    target->set_outcome(live::SlotOutcomeName(slot.outcome));
    target->set_collapsed(slot.collapsed());
  }
  out->set_used(plan.used);
  out->set_collapsed(plan.collapsed);
}

}  // namespace walk::server
