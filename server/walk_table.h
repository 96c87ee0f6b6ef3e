// Table: sources x targets answered as a matrix on the search pool. A first task finds the world
// and, where the CCH answers (the grid's band 0, or a band pricing no danger, on a prepared
// profile), builds the targets' side of the many-to-many (nav/abstract/abstract_table.h); then a
// task per source row answers its cells through the StoreFirstAnswerer, as Walk answers them:
// the store first, then the row's known walks before any search. Whole walks (want_walks) are
// routed and kept as Walk's are, without the many-to-many.
#pragma once

#include <cstdint>
#include <functional>

#include "absl/status/status.h"
#include "nav/search/search_stop.h"
#include "server/search_pool.h"
#include "server/store_first_answerer.h"
#include "server/world_registry.h"
#include "walk/v1/walk.pb.h"

namespace grpc {
class CallbackServerContext;
}

namespace walk::server {

// What a table call borrows; everything must outlive the call.
struct TableServices {
  const WorldRegistry& worlds;
  const StoreFirstAnswerer& answerer;
  SearchPool& pool;
  std::uint64_t max_reply_bytes;
};

// Answers `request` (its size already checked) into `response` on the pool and calls `finish`
// exactly once, from the last row: the first cell's error (naming the cell and the field), a
// reply too large (max-reply-bytes), CANCELLED, or OK. `stop` is the call's SearchStop.
void StartTable(grpc::CallbackServerContext* context, const walk::v1::TableRequest& request,
                walk::v1::TableResponse* response, std::function<void(const absl::Status&)> finish,
                nav::SearchStop stop, const TableServices& services);

}  // namespace walk::server
