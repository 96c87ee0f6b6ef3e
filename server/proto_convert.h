// Between walk.v1 protos and nav/ types: the only place the two meet.
#pragma once

#include "absl/status/status.h"
#include "nav/abstract/abstract_router.h"
#include "nav/grid/grid.h"
#include "nav/query/answer.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {

nav::Place ToPlace(const walk::v1::Place& place);
walk::v1::WalkStatus StatusToProto(nav::WalkStatus status);
walk::v1::Method MethodToProto(nav::Method method);

// Checks a WalkRequest's fields that need no world: world, from, to, a known profile, a danger
// band. INVALID_ARGUMENT names the field (prefixed with `prefix`, e.g. "walk." for PathRequest).
absl::Status ValidateWalkRequest(const walk::v1::WalkRequest& request, const std::string& prefix);

// The search a request forces (AUTO unless set). The value must be valid (ValidateWalkRequest).
nav::SearchMode ToSearchMode(walk::v1::Search search);

// Fills `out` from a walk's answer (not model_id or band).
void ToProto(const nav::WalkAnswer& answer, walk::v1::WalkResponse* out);
// Fills a PathResponse's way from a path's detail.
void ToProto(const nav::PathDetail& path, walk::v1::PathResponse* out);
// The floors of column (x, y) of `continent`.
void ColumnToProto(const nav::Continent& continent, std::uint32_t x, std::uint32_t y,
                   walk::v1::Column* out);

}  // namespace walk::server
