#include "client/walkctl_store.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "nav/grid/grid.h"
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
    std::printf("walkctl: exported %llu answers of model %s into %zu files in %s\n",
                static_cast<unsigned long long>(stats->answers), nav::FormatId(model).c_str(),
                stats->files.size(), out.c_str());
  }
  return 0;
}

int RunStoreIngest(const StoreArgs& args) {
  auto store = OpenStore(args.store_dir, true);
  if (!store.ok()) return Fail(store.status());
  auto packs = (*store)->IngestPacks(args.pack_dir);
  if (!packs.ok()) return Fail(packs.status());
  for (const store::IngestStats& stats : *packs) {
    std::printf("walkctl: ingested %llu answers of model %s from %zu files\n",
                static_cast<unsigned long long>(stats.answers), nav::FormatId(stats.model).c_str(),
                stats.files);
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
