// Between LiveService's walk.v1 messages and nav/live's types: the only place the two meet.
// Every enum read from a request is checked: a value this build does not know is
// INVALID_ARGUMENT naming the field, never read as a default.
#pragma once

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/live/live_world.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {

nav::live::Cell ToCell(const walk::v1::Cell& cell);
// UNSPECIFIED reads as light. INVALID_ARGUMENT naming `field` for an unknown value.
absl::StatusOr<nav::live::Passability> ToPassability(int passability, const char* field);
absl::StatusOr<nav::live::PathRequest> ToLivePathRequest(const walk::v1::LivePathRequest& request);
// The changes asked, in order. INVALID_ARGUMENT names the first change of no or an unknown kind
// ("changes[2].kind: required").
absl::StatusOr<std::vector<nav::live::BlockerChange>> ToBlockerChanges(
    const walk::v1::UpdateBlockersRequest& request);
// The group's members. INVALID_ARGUMENT when passabilities are given but not one per start, or
// one is unknown.
absl::StatusOr<std::vector<nav::live::GroupMember>> ToGroupMembers(
    const walk::v1::PathGroupRequest& request);
nav::live::GroupFormation ToFormation(const walk::v1::Formation& formation);

void ToProto(const nav::live::Cell& cell, walk::v1::Cell* out);
void ToProto(const nav::live::LivePath& path, walk::v1::LivePathResponse* out);
void ToProto(const nav::live::UpdateResult& result, walk::v1::UpdateBlockersResponse* out);
void ToProto(const nav::live::GroupPlan& plan, walk::v1::PathGroupResponse* out);
void ToProto(const nav::live::FormationPlan& plan, walk::v1::FormationTargetsResponse* out);

}  // namespace walk::server
