// RocksDB's info log for a walk store, written so that a full disk cannot stop walkd.
//
// RocksDB's own log file writer remembers a failed write, and the next message after it trips
// an assertion in Debian's librocksdb (built with assertions on): on a full disk, the message
// RocksDB logs about the failed write itself aborted walkd. This log writes with stdio and drops
// what the disk refuses; the store's health reports the disk, not the log.
#pragma once

#include <memory>
#include <string>

namespace rocksdb {
class Logger;
}

namespace walk::store {

// A logger appending to DIR/LOG (the one before kept as DIR/LOG.old), or nullptr when the file
// cannot be opened (RocksDB then makes its own).
std::shared_ptr<rocksdb::Logger> OpenStoreLog(const std::string& dir);

}  // namespace walk::store
