// Store packs: one model's answers carried to another walkd as sorted table (SST) files, which
// the other store ingests without rewriting them, and their manifest (store/pack_manifest.h),
// written last. WalkStore::ExportModel and WalkStore::Ingest are the way in; the functions here
// do the work on the store's RocksDB, whose types are only declared: including this header pulls
// in no RocksDB header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "store/pack_manifest.h"

namespace rocksdb {
class DB;
struct Options;
}  // namespace rocksdb

namespace walk::store {

struct ExportOptions {
  // A new SST file is started once the current one holds this many bytes.
  std::uint64_t max_file_bytes = std::uint64_t{64} << 20;
};

// What ExportModel wrote.
struct ExportStats {
  std::uint64_t model = 0;
  std::uint64_t answers = 0;
  std::vector<std::string> files;  // the SST files' names, in key order, inside the pack dir
  std::uint64_t bytes = 0;         // of the SST files
  bool cleared_leftover = false;   // the half pack an interrupted export left was cleared first
};

// What Ingest loaded.
struct IngestStats {
  std::uint64_t model = 0;
  std::uint64_t answers = 0;
  std::size_t files = 0;
  std::uint64_t bytes = 0;
};

// An open store as packs use it: its RocksDB and the options its tables are built with (both
// borrowed, and open for as long as a pack function runs), and its directory, for messages.
struct RocksStore {
  rocksdb::DB* db = nullptr;
  const rocksdb::Options* options = nullptr;
  std::string dir;
};

// Writes `model`'s answers in `store` as a pack into `out_dir`; see WalkStore::ExportModel.
absl::StatusOr<ExportStats> ExportPack(const RocksStore& store, std::uint64_t model,
                                       const std::string& out_dir, const ExportOptions& options);

// Checks the pack in `pack_dir`, then loads it into `store`; see WalkStore::Ingest.
absl::StatusOr<IngestStats> IngestPack(const RocksStore& store, const std::string& pack_dir);

}  // namespace walk::store
