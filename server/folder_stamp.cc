#include "server/folder_stamp.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace walk::server {

absl::StatusOr<FolderStamp> StampFolder(const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return absl::NotFoundError(absl::StrCat(dir, " is not a folder"));
  }
  FolderStamp stamp;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    const std::string path = it->path().string();
    struct stat info;
    if (stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
    if (absl::EndsWith(path, ".tmp")) continue;
    FolderStamp::File file;
    file.path = std::filesystem::relative(it->path(), dir, ec).generic_string();
    file.bytes = static_cast<std::uint64_t>(info.st_size);
    file.modified_ns =
        static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1'000'000'000 + info.st_mtim.tv_nsec;
    file.inode = static_cast<std::uint64_t>(info.st_ino);
    stamp.files.push_back(std::move(file));
  }
  std::sort(stamp.files.begin(), stamp.files.end(),
            [](const FolderStamp::File& a, const FolderStamp::File& b) { return a.path < b.path; });
  return stamp;
}

std::string ChangedFiles(const FolderStamp& before, const FolderStamp& after) {
  std::map<std::string, const FolderStamp::File*> old_files;
  for (const FolderStamp::File& file : before.files) old_files[file.path] = &file;
  std::vector<std::string> changed;
  for (const FolderStamp::File& file : after.files) {
    auto it = old_files.find(file.path);
    if (it == old_files.end()) {
      changed.push_back(absl::StrCat(file.path, " (new)"));
      continue;
    }
    if (!(*it->second == file)) changed.push_back(file.path);
    old_files.erase(it);
  }
  for (const auto& [path, file] : old_files) changed.push_back(absl::StrCat(path, " (removed)"));
  return absl::StrJoin(changed, ", ");
}

}  // namespace walk::server
