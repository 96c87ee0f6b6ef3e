// What is verified when a walk store is opened (WalkStore::Open), so that a damaged store is
// reported at start, saying what to do, and is never silently replaced by an empty one or
// opened in a state that drops answers: what the directory holds, who else has the store open,
// tables the manifest does not list, and every table's checksums (docs/store.md, "Durability").
// RocksDB's types are only declared here: including this header pulls in no RocksDB header.
#pragma once

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace rocksdb {
class DB;
struct Options;
class Status;
}  // namespace rocksdb

namespace walk::store {

// The files an ingest leaves in the store's directory while RocksDB copies a pack's tables in
// (IngestPack): `INGESTING-<pid>-<n>`, synced before the first copy, removed once RocksDB has
// taken the tables or refused them. One that is there at Open says that an ingest was cut short,
// so the tables it had copied but not yet listed are expected, not forgotten.
inline constexpr char kIngestMarkerPrefix[] = "INGESTING-";

// What a store's directory holds, looked at before RocksDB opens it.
struct StoreDirContents {
  bool has_current = false;                 // a CURRENT file: a store is there
  bool empty = true;                        // nothing at all (or no directory)
  std::string first_name;                   // when not empty, the name of one thing in it
  std::vector<std::string> tables;          // the names of its table (.sst) files
  std::vector<std::string> ingest_markers;  // kIngestMarkerPrefix files: an ingest was cut short
};

// Looks at the store's directory `dir` before RocksDB does: RocksDB would create a fresh, empty
// store over a directory whose CURRENT file is gone, dropping every answer in it. A missing
// directory holds nothing. Errors: FAILED_PRECONDITION (it cannot be looked at or listed; it is
// not a directory; it is a half store: RocksDB's first files but no CURRENT and no answers, as a
// store whose creation was cut short leaves it, the message giving the `rm` command that mends
// it), DATA_LOSS (store files that may hold answers, but no CURRENT file).
absl::StatusOr<StoreDirContents> LookAtStoreDir(const std::string& dir);

// Claims `dir` for one WalkStore of this process and returns its canonical form, to give back
// with ReleaseStoreDir. RocksDB's LOCK keeps other processes out; this keeps a second WalkStore
// of this process out before anything looks at the directory (closing any descriptor of LOCK
// would drop the POSIX lock RocksDB holds on it). FAILED_PRECONDITION when it is claimed
// already. Thread-safe.
absl::StatusOr<std::string> ClaimStoreDir(const std::string& dir);
void ReleaseStoreDir(const std::string& canonical);

// FAILED_PRECONDITION, naming its pid, when another process holds the store's LOCK.
absl::Status CheckNotInUse(const std::string& dir);

// Looks at the store read-only before RocksDB opens it for writing, which deletes every table
// file its manifest does not list. Such files are normal after a crash (the unfinished output of
// a flush or a compaction: their answers are in the log or in other tables; with
// `ingest_interrupted`, the copies of a pack's tables an ingest made before it was cut short,
// never acknowledged), but a damaged or truncated MANIFEST makes RocksDB forget finished tables
// too, and their answers with them. So each unlisted table among `tables` that reads whole is
// checked: every answer in it must still be in the store, else DATA_LOSS naming the table.
// Changes nothing.
absl::Status CheckNoTableForgotten(const rocksdb::Options& options, const std::string& dir,
                                   const std::vector<std::string>& tables, bool ingest_interrupted);

// Reads every table's block checksums: DATA_LOSS, saying what to do, when one fails.
absl::Status VerifyTableChecksums(rocksdb::DB& db, const std::string& dir);

// A failed DB::Open (or OpenForReadOnly) of the store in `dir` as the status Open reports:
// DATA_LOSS for a damaged store (`has_current`: a store was there, so a missing file is damage),
// FAILED_PRECONDITION when another process holds it, PERMISSION_DENIED, else as FromRocks.
absl::Status OpenError(const rocksdb::Status& s, const std::string& dir, bool has_current);

// Closes and deletes `db` (null: nothing) on a path that already reports a failure, ignoring
// what closing says: it would only hide that first error (RocksDB logs it in its LOG).
void CloseQuietly(rocksdb::DB* db);

}  // namespace walk::store
