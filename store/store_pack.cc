#include "store/store_pack.h"

#include <fcntl.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "nav/grid/grid.h"
#include "rocksdb/db.h"
#include "rocksdb/iterator.h"
#include "rocksdb/options.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table_properties.h"
#include "store/open_checks.h"
#include "store/rocks_status.h"
#include "store/staged_dir.h"
#include "store/walk_key.h"

namespace walk::store {
namespace fs = std::filesystem;

namespace {

// Reads a whole file's CRC-32 (zlib's) and size.
absl::Status FileCrc32(const std::string& path, std::uint32_t* crc, std::uint64_t* bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  uLong value = crc32(0L, Z_NULL, 0);
  std::uint64_t total = 0;
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const std::streamsize got = in.gcount();
    if (got <= 0) break;
    value = crc32(value, reinterpret_cast<const Bytef*>(buffer.data()), static_cast<uInt>(got));
    total += static_cast<std::uint64_t>(got);
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", path));
  *crc = static_cast<std::uint32_t>(value);
  *bytes = total;
  return absl::OkStatus();
}

// Writes `text` to `path` and syncs it.
absl::Status WriteFileSynced(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return absl::InternalError(absl::StrCat("cannot create ", path, ": ", std::strerror(errno)));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      return absl::InternalError(absl::StrCat("cannot write ", path, ": ", std::strerror(err)));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return absl::InternalError(absl::StrCat("cannot sync ", path, ": ", std::strerror(err)));
  }
  if (::close(fd) != 0) {
    return absl::InternalError(absl::StrCat("cannot close ", path, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

std::string Crc32Hex(std::uint32_t crc) {
  char text[9];
  std::snprintf(text, sizeof text, "%08x", crc);
  return text;
}

// Releases a snapshot when it goes out of scope.
class SnapshotGuard {
 public:
  explicit SnapshotGuard(rocksdb::DB* db) : db_(db), snapshot_(db->GetSnapshot()) {}
  ~SnapshotGuard() { db_->ReleaseSnapshot(snapshot_); }
  const rocksdb::Snapshot* get() const { return snapshot_; }

 private:
  rocksdb::DB* db_;
  const rocksdb::Snapshot* snapshot_;
};

// Checks that `out_dir` is absent or an empty directory, to export into. FAILED_PRECONDITION
// when it is a file or is not empty.
absl::Status CheckOutDir(const std::string& out_dir) {
  std::error_code ec;
  if (fs::exists(out_dir, ec)) {
    if (!fs::is_directory(out_dir, ec)) {
      return absl::FailedPreconditionError(
          absl::StrCat("store pack ", out_dir, " exists and is not a directory"));
    }
    if (!fs::is_empty(out_dir, ec)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "store pack ", out_dir, " is not empty: export into a new or empty directory"));
    }
  }
  return absl::OkStatus();
}

// Writes a pack's SST files, in key order, into `out_dir`: a new one once the current one holds
// `max_file_bytes`. Each finished file is listed in the manifest. Not thread-safe.
class PackFilesWriter {
 public:
  PackFilesWriter(const RocksStore& store, const std::string& out_dir, const ExportOptions& options,
                  PackManifest* manifest)
      : store_(store),
        out_dir_(out_dir),
        max_file_bytes_(options.max_file_bytes),
        manifest_(*manifest),
        writer_(rocksdb::EnvOptions(), *store.options) {}

  // Adds the next answer (keys ascending).
  absl::Status Add(const rocksdb::Slice& key, const rocksdb::Slice& value) {
    if (!open_) {
      current_ = PackFile();
      char name[32];
      std::snprintf(name, sizeof name, "walks-%06zu.sst", manifest_.files.size() + 1);
      current_.name = name;
      const rocksdb::Status s = writer_.Open(PathOf(current_.name));
      if (!s.ok()) return FromRocks(s, store_.dir, absl::StrCat("export: create ", current_.name));
      open_ = true;
    }
    const rocksdb::Status s = writer_.Put(key, value);
    if (!s.ok()) return FromRocks(s, store_.dir, "export: put");
    ++current_.answers;
    if (writer_.FileSize() >= max_file_bytes_) return FinishFile();
    return absl::OkStatus();
  }

  // Finishes the file being written, if any.
  absl::Status Finish() { return open_ ? FinishFile() : absl::OkStatus(); }

 private:
  std::string PathOf(const std::string& name) const { return (fs::path(out_dir_) / name).string(); }

  absl::Status FinishFile() {
    rocksdb::ExternalSstFileInfo info;
    const rocksdb::Status s = writer_.Finish(&info);
    if (!s.ok()) return FromRocks(s, store_.dir, absl::StrCat("export: finish ", current_.name));
    if (absl::Status c = FileCrc32(PathOf(current_.name), &current_.crc32, &current_.bytes);
        !c.ok()) {
      return c;
    }
    open_ = false;
    manifest_.files.push_back(current_);
    return absl::OkStatus();
  }

  const RocksStore& store_;
  const std::string& out_dir_;
  const std::uint64_t max_file_bytes_;
  PackManifest& manifest_;
  rocksdb::SstFileWriter writer_;
  PackFile current_;
  bool open_ = false;  // current_ is being written
};

// Writes the manifest whole, then renames it into place: a pack with a manifest is complete.
absl::Status WriteManifest(const std::string& out_dir, const PackManifest& manifest) {
  const std::string tmp = (fs::path(out_dir) / (std::string(kPackManifestName) + ".tmp")).string();
  if (absl::Status w = WriteFileSynced(tmp, ManifestText(manifest)); !w.ok()) return w;
  std::error_code ec;
  fs::rename(tmp, fs::path(out_dir) / kPackManifestName, ec);
  if (ec) {
    return absl::InternalError(
        absl::StrCat("store pack ", out_dir, ": cannot rename its manifest: ", ec.message()));
  }
  return absl::OkStatus();
}

// The manifest of the pack in `pack_dir`. NOT_FOUND when there is none; DATA_LOSS when it cannot
// be read or parsed.
absl::StatusOr<PackManifest> ReadManifest(const std::string& pack_dir) {
  const std::string manifest_path = (fs::path(pack_dir) / kPackManifestName).string();
  std::ifstream in(manifest_path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("store pack ", pack_dir, ": no ", kPackManifestName,
                                            " (not a store pack, or its export did not finish)"));
  }
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", manifest_path));
  return ParseManifest(text.str(), manifest_path);
}

// DATA_LOSS saying that `name` of the pack in `pack_dir` is damaged: `what`.
absl::Status PackDamaged(const std::string& pack_dir, const std::string& name,
                         const std::string& what) {
  return absl::DataLossError(absl::StrCat("store pack ", pack_dir, ": ", name, " ", what,
                                          "; the pack is damaged and was not loaded (export "
                                          "it again, or copy it again)"));
}

// RocksDB's own checks of an SST file of model `model`: it opens, its block checksums hold, it
// holds `answers` entries, and its first and last keys are walk keys of the model. `what` says
// what is wrong; empty when nothing is.
std::string CheckTable(const rocksdb::Options& options, const std::string& path,
                       std::uint64_t model, std::uint64_t answers) {
  rocksdb::SstFileReader reader(options);
  if (rocksdb::Status s = reader.Open(path); !s.ok()) {
    return absl::StrCat("is not a table RocksDB can open: ", s.ToString());
  }
  if (rocksdb::Status s = reader.VerifyChecksum(); !s.ok()) {
    return absl::StrCat("fails its checksums: ", s.ToString());
  }
  const std::shared_ptr<const rocksdb::TableProperties> props = reader.GetTableProperties();
  if (props == nullptr || props->num_entries != answers) {
    return absl::StrCat("holds ", props ? props->num_entries : 0, " entries, the manifest says ",
                        answers);
  }
  const std::string prefix = EncodeModelPrefix(model);
  rocksdb::ReadOptions read;
  read.total_order_seek = true;
  std::unique_ptr<rocksdb::Iterator> it(reader.NewIterator(read));
  for (bool first : {true, false}) {
    first ? it->SeekToFirst() : it->SeekToLast();
    if (!it->Valid()) return it->status().ok() ? "holds no answers" : it->status().ToString();
    if (it->key().size() != kWalkKeyBytes || !it->key().starts_with(prefix)) {
      return absl::StrCat("holds a key that is not a walk key of model ", nav::FormatId(model));
    }
  }
  return "";
}

// Checks `file` of the pack in `pack_dir` against its manifest and RocksDB's checks: DATA_LOSS
// naming the file when it is missing, has another size or CRC, or fails CheckTable.
absl::Status CheckPackFile(const RocksStore& store, const std::string& pack_dir,
                           std::uint64_t model, const PackFile& file) {
  const std::string path = (fs::path(pack_dir) / file.name).string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return PackDamaged(pack_dir, file.name, "is missing");
  std::uint32_t crc = 0;
  std::uint64_t bytes = 0;
  if (absl::Status c = FileCrc32(path, &crc, &bytes); !c.ok()) {
    return PackDamaged(pack_dir, file.name, "cannot be read");
  }
  if (bytes != file.bytes) {
    return PackDamaged(pack_dir, file.name,
                       absl::StrCat("is ", bytes, " bytes, the manifest says ", file.bytes,
                                    " (truncated or replaced)"));
  }
  if (crc != file.crc32) {
    return PackDamaged(
        pack_dir, file.name,
        absl::StrCat("has CRC-32 ", Crc32Hex(crc), ", the manifest says ", Crc32Hex(file.crc32)));
  }
  const std::string wrong = CheckTable(*store.options, path, model, file.answers);
  if (!wrong.empty()) return PackDamaged(pack_dir, file.name, wrong);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ExportStats> ExportPack(const RocksStore& store, std::uint64_t model,
                                       const std::string& out_dir, const ExportOptions& options) {
  if (absl::Status s = CheckOutDir(out_dir); !s.ok()) return s;
  // Written beside, renamed into place whole: an export killed midway leaves no half pack.
  absl::StatusOr<std::unique_ptr<StagedDir>> staged = StagedDir::Begin(
      out_dir, kExportStagingSuffix,
      absl::StrCat("walkctl store export --store ", ShellQuoted(store.dir), " --model ",
                   nav::FormatId(model), " --out ", ShellQuoted(out_dir)));
  if (!staged.ok()) {
    return absl::Status(staged.status().code(),
                        absl::StrCat("store pack ", out_dir, ": ", staged.status().message()));
  }
  const std::string& dir = (*staged)->path();
  PackManifest manifest;
  manifest.model = model;
  PackFilesWriter files(store, dir, options, &manifest);
  {
    SnapshotGuard snapshot(store.db);
    rocksdb::ReadOptions read;
    read.snapshot = snapshot.get();
    read.prefix_same_as_start = true;
    read.fill_cache = false;
    std::unique_ptr<rocksdb::Iterator> it(store.db->NewIterator(read));
    const std::string prefix = EncodeModelPrefix(model);
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      if (absl::Status s = files.Add(it->key(), it->value()); !s.ok()) return s;
    }
    if (!it->status().ok()) return FromRocks(it->status(), store.dir, "export: read");
  }
  if (absl::Status s = files.Finish(); !s.ok()) return s;
  for (const PackFile& f : manifest.files) manifest.answers += f.answers;
  if (absl::Status s = WriteManifest(dir, manifest); !s.ok()) return s;
  if (absl::Status s = (*staged)->Commit(); !s.ok()) {
    return absl::Status(s.code(), absl::StrCat("store pack ", out_dir, ": ", s.message()));
  }

  ExportStats stats;
  stats.model = model;
  stats.answers = manifest.answers;
  stats.cleared_leftover = (*staged)->cleared_leftover();
  for (const PackFile& f : manifest.files) {
    stats.files.push_back(f.name);
    stats.bytes += f.bytes;
  }
  return stats;
}

absl::StatusOr<IngestStats> IngestPack(const RocksStore& store, const std::string& pack_dir) {
  absl::StatusOr<PackManifest> manifest = ReadManifest(pack_dir);
  if (!manifest.ok()) return manifest.status();
  IngestStats stats;
  stats.model = manifest->model;
  std::vector<std::string> paths;
  for (const PackFile& f : manifest->files) {
    if (absl::Status s = CheckPackFile(store, pack_dir, manifest->model, f); !s.ok()) return s;
    paths.push_back((fs::path(pack_dir) / f.name).string());
    stats.answers += f.answers;
    stats.bytes += f.bytes;
  }
  if (stats.answers != manifest->answers) {
    return PackDamaged(
        pack_dir, kPackManifestName,
        absl::StrCat("says ", manifest->answers, " answers, its files hold ", stats.answers));
  }
  stats.files = paths.size();
  if (paths.empty()) return stats;

  // Says, until RocksDB has taken the tables or refused them, that the copies it makes in the
  // store are an ingest's (open_checks.h, kIngestMarkerPrefix): a process killed meanwhile leaves
  // copies the manifest does not list, which the next Open must not take for forgotten tables.
  static std::atomic<std::uint64_t> ingests{0};
  const std::string marker =
      (fs::path(store.dir) / absl::StrCat(kIngestMarkerPrefix, ::getpid(), "-", ++ingests))
          .string();
  if (absl::Status w = WriteFileSynced(marker, absl::StrCat(pack_dir, "\n")); !w.ok()) return w;
  if (absl::Status w = SyncDir(store.dir); !w.ok()) return w;
  rocksdb::IngestExternalFileOptions ingest;
  ingest.move_files = false;  // the pack stays as it is
  ingest.verify_checksums_before_ingest = true;
  ingest.allow_blocking_flush = true;  // a memtable overlapping the pack is flushed first
  ingest.allow_global_seqno = true;
  ingest.write_global_seqno = false;  // never rewrite the copies in place
  const rocksdb::Status s = store.db->IngestExternalFile(paths, ingest);
  std::error_code ec;
  fs::remove(marker, ec);  // best effort: one left over is removed by the next Open
  if (!s.ok()) {
    if (s.IsCorruption()) {
      return PackDamaged(pack_dir, "a file", absl::StrCat("was refused: ", s.ToString()));
    }
    return FromRocks(s, store.dir, absl::StrCat("ingest ", pack_dir));
  }
  return stats;
}

}  // namespace walk::store
