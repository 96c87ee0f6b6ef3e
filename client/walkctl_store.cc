#include "client/walkctl_store.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "nav/grid/grid.h"
#include "store/staged_dir.h"
#include "store/walk_store.h"

namespace walk::client {
namespace {

absl::StatusOr<std::unique_ptr<store::WalkStore>> OpenStore(const std::string& dir, bool create) {
  store::WalkStoreOptions options;
  options.dir = dir;
  options.create_if_missing = create;
  return store::WalkStore::Open(options);
}

int Fail(const absl::Status& status) {
  std::cerr << "walkctl: " << status.message() << "\n";
  return status.code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
}

}  // namespace

int RunStoreExport(const StoreArgs& args) {
  std::vector<std::uint64_t> models;
  for (absl::string_view text : absl::StrSplit(args.model, ',', absl::SkipEmpty())) {
    std::uint64_t model = 0;
    if (!absl::SimpleHexAtoi(text, &model)) {
      std::cerr << "walkctl: --model: '" << text << "' is not a 16-hex-digit model id\n";
      return 2;
    }
    models.push_back(model);
  }
  if (models.empty()) {
    std::cerr << "walkctl: --model: at least one model id\n";
    return 2;
  }
  auto store = OpenStore(args.store_dir, false);
  if (!store.ok()) return Fail(store.status());
  for (std::uint64_t model : models) {
    // One model: its pack is --out; several: a pack each, --out/<model>.
    const std::string out =
        models.size() == 1 ? args.pack_dir
                           : (std::filesystem::path(args.pack_dir) / nav::FormatId(model)).string();
    auto stats = (*store)->ExportModel(model, out);
    if (!stats.ok()) return Fail(stats.status());
    if (stats->cleared_leftover) {
      std::printf("walkctl: cleared %s, the half pack an interrupted export left\n",
                  store::StagingPathOf(out, store::kExportStagingSuffix).c_str());
    }
    std::printf("walkctl: exported %llu answers of model %s into %zu files in %s\n",
                static_cast<unsigned long long>(stats->answers), nav::FormatId(model).c_str(),
                stats->files.size(), out.c_str());
  }
  return 0;
}

int RunStoreIngest(const StoreArgs& args) {
  store::WalkStoreOptions options;
  options.dir = args.store_dir;
  store::IngestDone done;
  auto store = store::WalkStore::OpenAndIngest(options, args.pack_dir, &done);
  if (done.cleared_leftover) {
    std::printf("walkctl: cleared %s, the half store an interrupted ingest left\n",
                store::StagingPathOf(args.store_dir, store::kIngestStagingSuffix).c_str());
  }
  if (!store.ok()) return Fail(store.status());
  for (const store::IngestStats& stats : done.packs) {
    std::printf("walkctl: ingested %llu answers of model %s from %zu files\n",
                static_cast<unsigned long long>(stats.answers), nav::FormatId(stats.model).c_str(),
                stats.files);
  }
  if (done.built_beside) {
    std::printf("walkctl: made the new store %s whole (built beside, renamed into place)\n",
                args.store_dir.c_str());
  }
  return 0;
}

int RunStoreModels(const StoreArgs& args) {
  auto store = OpenStore(args.store_dir, false);
  if (!store.ok()) return Fail(store.status());
  auto models = (*store)->Models();
  if (!models.ok()) return Fail(models.status());
  for (std::uint64_t model : *models) {
    auto count = (*store)->CountAnswers(model);
    std::printf("%s %llu answers\n", nav::FormatId(model).c_str(),
                count.ok() ? static_cast<unsigned long long>(*count) : 0ull);
  }
  return 0;
}

}  // namespace walk::client
