// walkctl store: store packs, offline. `export` writes one model's answers as sorted SST files
// with a manifest; `ingest` loads a pack; `models` lists the models a store holds. They open the
// store folder directly, so walkd must not be running on it (RocksDB locks it; walkd can ingest
// a pack itself at start with --ingest). A new store an ingest makes, and a pack, are built
// beside and renamed into place whole (store/staged_dir.h): killed midway, they leave no half
// store or pack, and the same command again clears what they left.
#pragma once

#include <string>

namespace walk::client {

struct StoreArgs {
  std::string store_dir;
  std::string model;     // 16 hex digits (walkctl walk prints it as "model ..."), or a comma list
  std::string pack_dir;  // export: where to write; ingest: what to load
};

int RunStoreExport(const StoreArgs& args);
int RunStoreIngest(const StoreArgs& args);
int RunStoreModels(const StoreArgs& args);

}  // namespace walk::client
