// RocksDB's outcomes as absl::Status, worded the same way wherever the store meets RocksDB.
// RocksDB's types are only declared here: including this header pulls in no RocksDB header.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace rocksdb {
class Status;
}  // namespace rocksdb

namespace walk::store {

// `s` (not OK) as an absl::Status of the most specific code, naming the store's directory and
// what was being done: "walk store DIR: WHAT: REASON".
absl::Status FromRocks(const rocksdb::Status& s, const std::string& dir, absl::string_view what);

}  // namespace walk::store
