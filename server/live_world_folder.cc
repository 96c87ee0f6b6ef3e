#include "server/live_world_folder.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "nav/grid/number_text.h"
#include "nav/import/movingai.h"

namespace walk::server {
namespace {

namespace fs = std::filesystem;
using nav::live::LiveWorldSource;

constexpr char kMapFile[] = "map.map";
constexpr char kLayerFile[] = "layers.txt";

absl::StatusOr<std::string> ReadWhole(const fs::path& path) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(path, ec);
  if (ec) return absl::NotFoundError(absl::StrCat(path.string(), ": ", ec.message()));
  if (size > nav::kMaxMovingAiFileBytes) {
    return absl::ResourceExhaustedError(
        absl::StrCat(path.string(), ": ", size, " bytes, over ", nav::kMaxMovingAiFileBytes));
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) return absl::NotFoundError(absl::StrCat(path.string(), ": cannot be read"));
  return text.str();
}

// Writes `text` to `path` and flushes it to the disk.
absl::Status WriteFlushed(const fs::path& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return absl::InternalError(absl::StrCat(path.string(), ": cannot be created"));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) {
      ::close(fd);
      return absl::InternalError(absl::StrCat(path.string(), ": write failed"));
    }
    done += static_cast<std::size_t>(n);
  }
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!synced) return absl::InternalError(absl::StrCat(path.string(), ": fsync failed"));
  return absl::OkStatus();
}

void SyncFolder(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// A '.' name beside `name` no other call uses at the same time.
std::string AsideName(const std::string& name, const char* why) {
  static std::atomic<std::uint64_t> serial{0};
  return absl::StrCat(".", name, ".", why, "-", ::getpid(), "-", serial.fetch_add(1));
}

// The layer file a created world is written with: its frame first, then the caller's lines.
std::string LayerFileOf(const LiveWorldSource& source) {
  std::string text;
  if (source.cell_size > 0.0)
    absl::StrAppend(&text, "cell_size ", nav::NumberText(source.cell_size), "\n");
  if (source.origin) {
    absl::StrAppend(&text, "origin ", nav::NumberText(source.origin->x), " ",
                    nav::NumberText(source.origin->y), "\n");
  }
  return text + source.layer_text;
}

}  // namespace

absl::StatusOr<LiveWorldSource> ReadLiveWorldFolder(const std::string& folder) {
  LiveWorldSource source;
  absl::StatusOr<std::string> map = ReadWhole(fs::path(folder) / kMapFile);
  if (!map.ok()) return map.status();
  source.map_text = *std::move(map);
  const fs::path layers = fs::path(folder) / kLayerFile;
  std::error_code ec;
  if (fs::exists(layers, ec)) {
    absl::StatusOr<std::string> text = ReadWhole(layers);
    if (!text.ok()) return text.status();
    source.layer_text = *std::move(text);
  }
  return source;
}

absl::StatusOr<std::vector<std::pair<std::string, LiveWorldSource>>> ReadLiveWorlds(
    const std::string& dir, bool clean_leftovers) {
  std::vector<std::pair<std::string, LiveWorldSource>> worlds;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return worlds;
  std::vector<fs::path> folders;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_directory()) folders.push_back(entry.path());
  }
  std::sort(folders.begin(), folders.end());
  for (const fs::path& folder : folders) {
    const std::string name = folder.filename().string();
    if (name.rfind('.', 0) == 0) {
      if (clean_leftovers) fs::remove_all(folder, ec);
      continue;
    }
    if (!fs::exists(folder / kMapFile, ec)) continue;
    absl::StatusOr<LiveWorldSource> source = ReadLiveWorldFolder(folder.string());
    if (!source.ok()) return source.status();
    worlds.emplace_back(name, *std::move(source));
  }
  return worlds;
}

absl::Status WriteCreatedWorld(const std::string& dir, const std::string& name,
                               const LiveWorldSource& source) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat(dir, ": cannot be created: ", ec.message()));
  const fs::path temp = fs::path(dir) / AsideName(name, "creating");
  fs::create_directory(temp, ec);
  if (ec) return absl::InternalError(absl::StrCat(temp.string(), ": ", ec.message()));
  absl::Status written = WriteFlushed(temp / kMapFile, source.map_text);
  if (written.ok()) written = WriteFlushed(temp / kLayerFile, LayerFileOf(source));
  const fs::path target = fs::path(dir) / name;
  if (written.ok()) {
    fs::remove_all(target, ec);  // a folder left by a drop interrupted before its rename
    fs::rename(temp, target, ec);
    if (ec) written = absl::InternalError(absl::StrCat(target.string(), ": ", ec.message()));
  }
  if (!written.ok()) fs::remove_all(temp, ec);
  SyncFolder(dir);
  return written;
}

absl::Status RemoveCreatedWorld(const std::string& dir, const std::string& name) {
  const fs::path target = fs::path(dir) / name;
  std::error_code ec;
  if (!fs::exists(target, ec)) return absl::OkStatus();
  const fs::path aside = fs::path(dir) / AsideName(name, "dropped");
  fs::rename(target, aside, ec);
  if (ec) return absl::InternalError(absl::StrCat(target.string(), ": ", ec.message()));
  SyncFolder(dir);
  fs::remove_all(aside, ec);
  return absl::OkStatus();
}

}  // namespace walk::server
