// The walk store: every answer walkd computed for a static world, kept in RocksDB under
// (model, from, to) so a second asking costs a lookup. What Open verifies is in
// store/open_checks.h, store packs in store/store_pack.h; RocksDB stays inside the .cc files:
// this header pulls in none of it.
//
// Durability: the write-ahead log is always on. An answer is acknowledged when PutBatch returns
// OK; from then on it survives the process being killed (SIGKILL included), since RocksDB has
// written it to the log in the kernel's page cache. With `sync_writes` each batch is also
// fsync'ed before PutBatch returns, which makes it survive a power cut or a kernel crash too.
// A batch is atomic: after a crash it is there whole or not at all.
//
// Thread safety: every method may be called concurrently from any number of threads; Close and
// Reopen wait for the calls in progress (a shared lock each), the destructor must not overlap
// any other call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "store/store_pack.h"
#include "store/walk_key.h"
#include "store/walk_value.h"

namespace walk::store {

struct WalkStoreOptions {
  // The store's directory (walkd's --store; by default inside its --data).
  std::string dir;
  // Bytes of uncompressed blocks kept in memory: the warm set lookups are answered from.
  std::size_t block_cache_bytes = std::size_t{64} << 20;
  // Bytes of whole answers kept by key (RocksDB's row cache; 0: none). A hit skips the table's
  // filter, index and block. A row cache smaller than the set of answers asked again makes
  // lookups slower, not faster: size it for the hot set or leave it off (docs/store.md).
  std::size_t row_cache_bytes = 0;
  // Bytes of answers gathered in memory (and in the log) before they are written to a table
  // file. Tests make it small to flush often.
  std::size_t write_buffer_bytes = std::size_t{64} << 20;
  // Create the store when `dir` holds none. A directory that holds a damaged store (data files
  // but no CURRENT file) is refused, never silently replaced by an empty store.
  bool create_if_missing = true;
  // The write-ahead log is always on. When true, each PutBatch is also synced to disk before it
  // returns (survives power loss, at the cost of a disk sync per batch). When false, an
  // acknowledged batch survives a killed process but the last moments may be lost to a power cut.
  bool sync_writes = false;
  // Read every table file's checksums when opening, so a damaged file is reported at start
  // rather than when an answer in it is first asked. Costs one read of the store; without it
  // Open still checks the log, the manifest and each table's footer and index.
  bool verify_checksums_on_open = true;
  // Bytes of table files the store may hold (0: no quota). At the quota RocksDB refuses the
  // flush or compaction that would pass it and stops taking writes (a background error), as on
  // a full disk: PutBatch fails, lookups go on; Resume takes writes again once there is room.
  std::uint64_t max_bytes = 0;
};

// What WalkStore::OpenAndIngest did.
struct IngestDone {
  std::vector<IngestStats> packs;  // each pack ingested, in order
  bool built_beside = false;       // the store was new: built beside and renamed into place
  bool cleared_leftover = false;   // a half store an interrupted ingest left was cleared first
  bool packs_failed = false;       // on an error: the packs' (IngestPacks), not the store's
};

class WalkStore {
 public:
  // Opens (or creates) the store in `options.dir`. Errors, each naming the directory:
  // INVALID_ARGUMENT (an empty dir), FAILED_PRECONDITION (the path is not a directory; the
  // store is open in another process; no store there and create_if_missing is false; a half
  // store, or no store but the half store of an interrupted ingest beside it, `<dir>.ingest-tmp`:
  // the message gives the command that mends it), DATA_LOSS (a damaged store: RocksDB's reason
  // and what to do), INTERNAL or UNAVAILABLE for other I/O failures.
  static absl::StatusOr<std::unique_ptr<WalkStore>> Open(const WalkStoreOptions& options);

  // Opens the store in `options.dir` and ingests the packs in `pack_dir` into it (IngestPacks),
  // filling `*done`. A store that is there takes them as IngestPacks does. When `options.dir`
  // holds no store (absent or empty), the store is built beside it, in `<dir>.ingest-tmp`
  // (store/staged_dir.h), and renamed into place once every pack is in: an ingest killed at any
  // point leaves no store or a whole one, and running it again clears what it left. Errors:
  // Open's, IngestPacks' (`done->packs_failed` set: the pack is at fault, not the store; a new
  // store is then not made at all), FAILED_PRECONDITION when `options.dir` holds files but no
  // store, or the new store cannot be renamed into place.
  static absl::StatusOr<std::unique_ptr<WalkStore>> OpenAndIngest(const WalkStoreOptions& options,
                                                                  const std::string& pack_dir,
                                                                  IngestDone* done);

  ~WalkStore();
  WalkStore(const WalkStore&) = delete;
  WalkStore& operator=(const WalkStore&) = delete;

  // Looks `key` up: `*found` says whether it is stored and, when it is, `*out` holds the answer.
  // DATA_LOSS when the stored value or the table holding it is damaged.
  absl::Status Get(const WalkKey& key, StoredWalk* out, bool* found) const;

  // Looks up every key at once: `(*out)[i]` is the answer to `keys[i]`, or nullopt when it is
  // not stored. Any damaged value or table fails the whole call with DATA_LOSS.
  absl::Status MultiGet(const std::vector<WalkKey>& keys,
                        std::vector<std::optional<StoredWalk>>* out) const;

  // Stores every answer in one atomic write (one WriteBatch, logged). OK means acknowledged:
  // see Durability above. A key already stored is overwritten. After a write fails for want of
  // room or on an I/O error, RocksDB takes no more writes (UNAVAILABLE or RESOURCE_EXHAUSTED,
  // naming the cause) until Resume succeeds; lookups go on.
  absl::Status PutBatch(const std::vector<std::pair<WalkKey, StoredWalk>>& answers);

  // Asks RocksDB to take writes again after a background error (a full disk that has room
  // again, an I/O error that has passed): OK when it does; the error again while the cause
  // lasts. OK at once when there was no error.
  absl::Status Resume();

  // Closes the store's RocksDB and opens it again, replaying its log: after a write error (a
  // full disk) RocksDB's log writer keeps the error even once it resumes, and a fresh one is
  // needed. Waits for every call in progress; calls during it wait. When opening fails the
  // store answers every call FAILED_PRECONDITION until a Reopen succeeds. Errors: Open's.
  absl::Status Reopen();

  // RocksDB's estimate of the number of answers in the store (all models; "estimate-num-keys",
  // off by overwritten keys until they are compacted). Costs nothing.
  absl::StatusOr<std::uint64_t> EstimateAnswers() const;

  // What the store holds in memory, bytes: its block cache (data blocks, and index and filter
  // blocks, all within WalkStoreOptions::block_cache_bytes), its memtables (at most
  // write_buffer_bytes each, two at a time), and what its open tables hold outside the cache.
  struct MemoryUse {
    std::uint64_t block_cache = 0;
    std::uint64_t memtables = 0;
    std::uint64_t table_readers = 0;
  };
  absl::StatusOr<MemoryUse> Memory() const;
  // Changes the block cache's budget (WalkStoreOptions::block_cache_bytes), evicting the least
  // recently used blocks down to it; a Reopen keeps it.
  void SetBlockCacheBytes(std::size_t bytes);

  // The exact number of answers stored under `model`, counted by iterating its prefix.
  absl::StatusOr<std::uint64_t> CountAnswers(std::uint64_t model) const;

  // Calls `fn` with every stored answer's key and outcome, in key order, until it returns false.
  // Reads past the block cache (fill_cache off). DATA_LOSS on a damaged key or value.
  absl::Status ForEachOutcome(
      const std::function<bool(const WalkKey&, const WalkOutcome&)>& fn) const;

  // Every model with at least one answer, ascending. Costs one seek per model.
  absl::StatusOr<std::vector<std::uint64_t>> Models() const;

  // Writes `model`'s answers as a store pack into `out_dir` (it must not exist, or be empty):
  // sorted SST files of at most about `options.max_file_bytes`, then the manifest
  // (kPackManifestName: model, files with sizes, answers and CRC-32s). They are written beside,
  // in `<out_dir>.export-tmp` (store/staged_dir.h), renamed into place once whole: an
  // interrupted export leaves no pack at out_dir, and the next export to it clears what it left.
  // Reads a consistent snapshot of the store. FAILED_PRECONDITION when out_dir is not empty, or
  // another export is writing it now.
  absl::StatusOr<ExportStats> ExportModel(std::uint64_t model, const std::string& out_dir,
                                          const ExportOptions& options = ExportOptions()) const;

  // Loads the pack in `pack_dir` (ExportModel's output), atomically: all its files or none. The
  // pack is checked first, against its manifest and RocksDB's checksums: NOT_FOUND when there is
  // no manifest, DATA_LOSS naming the file when one is missing, has another size or CRC, fails
  // its checksums, or holds another count of answers or keys of another model. The pack's files
  // are copied, never moved; answers already stored under the same keys are replaced (equal
  // keys mean equal answers). A process killed while RocksDB copies them in leaves copies the
  // manifest does not list, and a marker (open_checks.h, kIngestMarkerPrefix) that tells the
  // next Open to let RocksDB drop them rather than report them as forgotten tables.
  absl::StatusOr<IngestStats> Ingest(const std::string& pack_dir);
  // Ingests `dir`: a pack, or a folder whose subfolders are packs (each model's pack, as
  // `walkctl store export` writes several), in name order, each as Ingest does. Stops at the
  // first error (the packs before it stay ingested). NOT_FOUND when `dir` holds no pack;
  // FAILED_PRECONDITION, before anything is ingested, when it holds the half pack of an
  // interrupted export (`*.export-tmp`), or is missing one (`<dir>.export-tmp` beside it),
  // naming it and the command that mends it.
  absl::StatusOr<std::vector<IngestStats>> IngestPacks(const std::string& dir);

  // Writes the answers held in memory to table files. Never needed for durability (the log has
  // them); tests and tools use it to lay the store out on disk.
  absl::Status Flush();

  // Starts writing the answers held in memory to a table file, without waiting, when there are
  // at least `answers` of them; true when it did. A batch that stored many answers calls it as it
  // ends: the next rerun then finds them through table blooms and block hash indexes, which a
  // MultiGet reads faster than the memtable's skiplist (docs/store.md).
  absl::StatusOr<bool> FlushInBackgroundIfAbove(std::uint64_t answers);

  // Compacts the whole store into its last level: what a store looks like after a long life.
  absl::Status CompactAll();

  // Closes the store, reporting what closing found. Later calls fail with FAILED_PRECONDITION.
  // The destructor closes a store not closed yet.
  absl::Status Close();

  const std::string& dir() const { return dir_; }

 private:
  struct Impl;
  WalkStore(std::string dir, std::unique_ptr<Impl> impl);

  std::string dir_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace walk::store
