// Between walk.v1 messages and walkd's plain C++ types (server/walk_query.h, nav/): the
// only place the two meet. The gRPC handlers call these at the server's edge; what lies behind
// them (StoreFirstAnswerer, the worlds, the store) speaks no proto.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nav/grid/grid.h"
#include "nav/query/answer.h"
#include "server/walk_query.h"
#include "server/world_registry.h"
#include "walk/v1/walk.pb.h"

namespace walk::server {

// --- WalkService requests.

nav::Place ToPlace(const walk::v1::Place& place);
// A walk as asked. Nothing is checked here: WalkQuery::Validate does that.
WalkQuery ToWalkQuery(const walk::v1::WalkRequest& request);
// A PathRequest's walk, wanting its way.
WalkQuery ToWalkQuery(const walk::v1::PathRequest& request);
// The walk of a Table's cell: sources[source] to targets[target] (both in range).
WalkQuery ToTableQuery(const walk::v1::TableRequest& request, int source, int target);
// A block's pairs. They borrow the block's columns: `block` must outlive the result.
WalkPairs ToWalkPairs(const walk::v1::PairBlock& block);

// --- WalkService replies.

walk::v1::WalkStatus StatusToProto(nav::WalkStatus status);
walk::v1::Method MethodToProto(nav::Method method);
// Fills a walk's reply.
void ToProto(const WalkResult& result, walk::v1::WalkResponse* out);
// Fills a path's reply: the walk and its way (when the answer carries one).
void ToProto(const WalkResult& result, walk::v1::PathResponse* out);
// Fills the answer to batch pair `index`: the walk, or the pair's own code and message.
void ToProto(std::uint64_t index, const absl::StatusOr<WalkResult>& result,
             walk::v1::WalkBatchResponse* out);
// Makes room for `rows` more rows in every column of `out`.
void ReserveRows(int rows, walk::v1::AnswerBlock* out);
// Appends one answered pair to the columns of `out`.
void AppendRow(BlockAnswer row, walk::v1::AnswerBlock* out);
// The floors of column (x, y) of `continent`.
void ColumnToProto(const nav::Continent& continent, const nav::WorldFrame& frame, std::uint32_t x,
                   std::uint32_t y, walk::v1::Column* out);
// What Info says of one world: its state and, once it is served, its continents, graph and zones.
void ToProto(const WorldStatus& world, walk::v1::WorldInfo* out);
// What a reload did to one world (AdminService.Reload's reply, and WorldInfo.reload.last).
void ToProto(const WorldReload& reload, walk::v1::WorldReloadResult* out);

}  // namespace walk::server
