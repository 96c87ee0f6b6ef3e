#include "store/staged_dir.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace walk::store {
namespace fs = std::filesystem;

namespace {

// `target` without trailing slashes; empty when it names no folder (empty, ".", "..", "/").
std::string FolderOf(const std::string& target) {
  fs::path p = fs::path(target).lexically_normal();
  while (!p.empty() && !p.has_filename() && p != p.parent_path()) p = p.parent_path();
  const std::string name = p.filename().string();
  if (name.empty() || name == "." || name == "..") return "";
  return p.string();
}

// Who builds a staging folder, as its marker says.
struct Builder {
  bool running = false;  // the marker is flock'ed: its builder is alive
  long pid = 0;          // 0: unknown (no marker, or none written yet)
  std::string command;
};

Builder ReadMarker(const std::string& staging) {
  Builder builder;
  const std::string marker = (fs::path(staging) / kStagingMarkerName).string();
  const int fd = ::open(marker.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return builder;  // no marker: its builder died before writing it, or after
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) builder.running = true;
  std::string text;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0) text.append(buffer, static_cast<size_t>(n));
  ::close(fd);  // drops the shared lock taken above, if any
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::ConsumePrefix(&line, "pid ")) {
      if (!absl::SimpleAtoi(line, &builder.pid)) builder.pid = 0;
    } else if (absl::ConsumePrefix(&line, "command ")) {
      builder.command = std::string(line);
    }
  }
  return builder;
}

absl::Status BeingBuilt(const std::string& staging, const Builder& builder) {
  return absl::FailedPreconditionError(
      absl::StrCat(staging, " is being built now by another process",
                   builder.pid > 0 ? absl::StrCat(" (pid ", builder.pid, ")") : "",
                   builder.command.empty() ? "" : absl::StrCat(": `", builder.command, "`"),
                   "; wait for it to end"));
}

// Writes the marker's lines to `fd`.
absl::Status WriteMarker(int fd, const std::string& path, const std::string& command) {
  const std::string text = absl::StrCat("pid ", ::getpid(), "\ncommand ", command, "\n");
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
    }
    done += static_cast<std::size_t>(n);
  }
  return absl::OkStatus();
}

}  // namespace

std::string StagingPathOf(const std::string& target, const std::string& suffix) {
  const std::string folder = FolderOf(target);
  return (folder.empty() ? target : folder) + suffix;
}

absl::StatusOr<std::unique_ptr<StagedDir>> StagedDir::Begin(const std::string& target,
                                                            const std::string& suffix,
                                                            const std::string& command) {
  const std::string folder = FolderOf(target);
  if (folder.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", target, "' names no folder: give the folder's own name"));
  }
  const std::string staging = folder + suffix;
  std::error_code ec;
  if (const fs::path above = fs::path(staging).parent_path(); !above.empty()) {
    fs::create_directories(above, ec);
    if (ec) {
      return absl::FailedPreconditionError(
          absl::StrCat("cannot create ", above.string(), ": ", ec.message()));
    }
  }
  bool cleared = false;
  if (fs::exists(fs::symlink_status(staging, ec))) {
    const Builder builder = ReadMarker(staging);
    if (builder.running) return BeingBuilt(staging, builder);
    fs::remove_all(staging, ec);
    if (ec) {
      return absl::FailedPreconditionError(absl::StrCat(
          "cannot clear ", staging, ", left by a build that did not finish: ", ec.message()));
    }
    cleared = true;
  }
  if (::mkdir(staging.c_str(), 0755) != 0) {
    if (errno == EEXIST) return BeingBuilt(staging, Builder());
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create ", staging, ": ", std::strerror(errno)));
  }
  const std::string marker = (fs::path(staging) / kStagingMarkerName).string();
  const int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int err = errno;
    fs::remove_all(staging, ec);  // best effort: the error below is what to report
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create ", marker, ": ", std::strerror(err)));
  }
  std::unique_ptr<StagedDir> staged(new StagedDir(folder, staging, fd));
  staged->cleared_leftover_ = cleared;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) return BeingBuilt(staging, Builder());
  if (absl::Status s = WriteMarker(fd, marker, command); !s.ok()) return s;
  return staged;
}

StagedDir::~StagedDir() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(path_, ec);  // best effort: the build failed, and said why
  }
  if (marker_fd_ >= 0) ::close(marker_fd_);
}

absl::Status StagedDir::Commit() {
  if (absl::Status s = SyncDir(path_); !s.ok()) return s;
  // The marker goes first: the target must hold only what was built. The flock stays held on the
  // open descriptor until the rename is done.
  ::unlink((fs::path(path_) / kStagingMarkerName).c_str());
  if (::rename(path_.c_str(), target_.c_str()) != 0) {
    const int err = errno;
    std::string why = std::strerror(err);
    if (err == ENOTEMPTY || err == EEXIST) {
      why = absl::StrCat(target_, " is there and not empty");
    } else if (err == EXDEV || err == EBUSY) {
      why = absl::StrCat(why, ": ", target_,
                         " is a mount point, or on another file system; give a folder inside it");
    }
    return absl::FailedPreconditionError(
        absl::StrCat("cannot rename ", path_, " into place as ", target_, ": ", why));
  }
  committed_ = true;
  const fs::path above = fs::path(target_).parent_path();
  absl::Status synced = SyncDir(above.empty() ? std::string(".") : above.string());
  ::close(marker_fd_);
  marker_fd_ = -1;
  return synced;
}

absl::Status StagedLeftover(const std::string& staging, const std::string& what) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(staging, ec))) return absl::OkStatus();
  const Builder builder = ReadMarker(staging);
  if (builder.running) return BeingBuilt(staging, builder);
  const std::string again =
      builder.command.empty()
          ? "run the command that was interrupted again, which clears it,"
          : absl::StrCat("run it again (`", builder.command, "`), which clears it,");
  return absl::FailedPreconditionError(absl::StrCat(
      staging, " is ", what,
      builder.pid > 0 ? absl::StrCat(" (built by pid ", builder.pid, ", which is gone)") : "", ": ",
      again, " or remove it: `rm -r -- ", ShellQuoted(staging), "`"));
}

absl::Status SyncDir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    return absl::InternalError(absl::StrCat("cannot open ", dir, ": ", std::strerror(errno)));
  }
  const int synced = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (synced != 0) {
    return absl::InternalError(absl::StrCat("cannot sync ", dir, ": ", std::strerror(err)));
  }
  return absl::OkStatus();
}

std::string ShellQuoted(const std::string& path) {
  const bool plain = !path.empty() && path.find_first_not_of(
                                          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                          "0123456789_./:@%+=,-") == std::string::npos;
  if (plain) return path;
  std::string quoted = "'";
  for (char c : path) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace walk::store
