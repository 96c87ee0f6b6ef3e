// Crash and reopen, for real: a child process (this binary, run again as a writer) opens the
// store and writes batches in a loop, telling the parent through a pipe each batch that PutBatch
// acknowledged; the parent kills it with SIGKILL in the middle of the loop, reopens the store and
// checks that every acknowledged answer is there and readable, and that every batch is there
// whole or not at all. Three rounds on the same store, the last with synced writes.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "store/walk_store.h"
#include "tests/store/temp_dir.h"

extern char** environ;

namespace walk::store {
namespace {

constexpr char kChildDirEnv[] = "WALK_STORE_CRASH_CHILD_DIR";
constexpr char kChildFdEnv[] = "WALK_STORE_CRASH_CHILD_FD";
constexpr char kChildRoundEnv[] = "WALK_STORE_CRASH_CHILD_ROUND";
constexpr char kChildSyncEnv[] = "WALK_STORE_CRASH_CHILD_SYNC";
constexpr int kAnswersPerBatch = 2000;

WalkKey KeyOf(int round, int batch, int i) {
  WalkKey key;
  key.model = 1000 + static_cast<std::uint64_t>(round);
  key.from.x_decis = batch;
  key.from.surface = static_cast<std::uint32_t>(batch);
  key.to.x_decis = i;
  key.to.y_decis = -i;
  key.to.surface = static_cast<std::uint32_t>(i);
  return key;
}

StoredWalk WalkOf(int round, int batch, int i) {
  StoredWalk walk;
  walk.status = nav::WalkStatus::kOk;
  walk.method = nav::Method::kFineGrid;
  walk.seconds = round * 1e6 + batch * 1e3 + i + 0.125;
  walk.yards = walk.seconds * 7.0;
  walk.retried = i % 11 == 0;
  for (int k = 0; k < 3; ++k) {
    walk.zone_cells.push_back({batch, i, static_cast<std::uint16_t>(k + 1), walk.yards / 3});
  }
  return walk;
}

std::vector<std::pair<WalkKey, StoredWalk>> BatchOf(int round, int batch) {
  std::vector<std::pair<WalkKey, StoredWalk>> answers;
  answers.reserve(kAnswersPerBatch);
  for (int i = 0; i < kAnswersPerBatch; ++i) {
    answers.emplace_back(KeyOf(round, batch, i), WalkOf(round, batch, i));
  }
  return answers;
}

WalkStoreOptions OptionsFor(const std::string& dir) {
  WalkStoreOptions options;
  options.dir = dir;
  options.block_cache_bytes = 8 << 20;
  // Small memtables: the child flushes (and compacts) while it writes, so the kill also lands in
  // the middle of those.
  options.write_buffer_bytes = 512 << 10;
  return options;
}

// The writer: runs in the child process until it is killed.
int RunChild() {
  const std::string dir = std::getenv(kChildDirEnv);
  const int fd = std::atoi(std::getenv(kChildFdEnv));
  const int round = std::atoi(std::getenv(kChildRoundEnv));
  WalkStoreOptions options = OptionsFor(dir);
  options.sync_writes = std::string(std::getenv(kChildSyncEnv)) == "1";
  absl::StatusOr<std::unique_ptr<WalkStore>> store = WalkStore::Open(options);
  if (!store.ok()) {
    std::fprintf(stderr, "child: %s\n", store.status().ToString().c_str());
    return 3;
  }
  for (int batch = 0; batch < 100000; ++batch) {
    const absl::Status s = (*store)->PutBatch(BatchOf(round, batch));
    if (!s.ok()) {
      std::fprintf(stderr, "child: batch %d: %s\n", batch, s.ToString().c_str());
      return 4;
    }
    // Acknowledged: tell the parent. Four bytes are written whole (less than PIPE_BUF).
    const std::int32_t ack = batch;
    if (::write(fd, &ack, sizeof ack) != sizeof ack) return 5;
  }
  return 6;  // the parent should have killed us long before
}

// Starts this binary again as the writer of `round`; returns its pid and the pipe's read end.
pid_t StartChild(const std::string& dir, int round, bool sync, int* read_fd) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    ADD_FAILURE() << "pipe2: " << std::strerror(errno);
    return -1;
  }
  // Everything the child needs is built before fork: after it, only async-signal-safe calls.
  std::vector<std::string> env_strings = {std::string(kChildDirEnv) + "=" + dir,
                                          std::string(kChildFdEnv) + "=" + std::to_string(fds[1]),
                                          std::string(kChildRoundEnv) + "=" + std::to_string(round),
                                          std::string(kChildSyncEnv) + "=" + (sync ? "1" : "0")};
  std::vector<char*> env;
  for (char** e = environ; *e != nullptr; ++e) env.push_back(*e);
  for (std::string& s : env_strings) env.push_back(s.data());
  env.push_back(nullptr);
  char self[] = "/proc/self/exe";
  char* argv[] = {self, nullptr};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::fcntl(fds[1], F_SETFD, 0);  // the write end survives exec
    ::execve(self, argv, env.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  if (pid < 0) {
    ADD_FAILURE() << "fork: " << std::strerror(errno);
    ::close(fds[0]);
    return -1;
  }
  *read_fd = fds[0];
  return pid;
}

// Reads one acknowledgement; false at the end of the pipe.
bool ReadAck(int fd, std::int32_t* batch) {
  std::size_t got = 0;
  char* out = reinterpret_cast<char*>(batch);
  while (got < sizeof *batch) {
    const ssize_t n = ::read(fd, out + got, sizeof *batch - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    got += static_cast<std::size_t>(n);
  }
  return true;
}

// How many answers of batch `batch` of `round` the store holds; fails on any that differs.
int CountStored(const WalkStore& store, int round, int batch) {
  std::vector<WalkKey> keys;
  for (int i = 0; i < kAnswersPerBatch; ++i) keys.push_back(KeyOf(round, batch, i));
  std::vector<std::optional<StoredWalk>> got;
  const absl::Status s = store.MultiGet(keys, &got);
  EXPECT_TRUE(s.ok()) << s;
  if (!s.ok()) return -1;
  int stored = 0;
  for (int i = 0; i < kAnswersPerBatch; ++i) {
    if (!got[i].has_value()) continue;
    ++stored;
    EXPECT_EQ(*got[i], WalkOf(round, batch, i))
        << "round " << round << " batch " << batch << " answer " << i;
  }
  return stored;
}

TEST(WalkStoreCrashTest, SigkillMidBatchKeepsEveryAcknowledgedAnswer) {
  testing::TempDir tmp;
  const std::string dir = tmp.Sub("store");
  std::mt19937 rng(std::random_device{}());
  std::vector<int> acknowledged;  // per round: the last acknowledged batch
  for (int round = 0; round < 3; ++round) {
    const bool sync = round == 2;
    int read_fd = -1;
    const pid_t pid = StartChild(dir, round, sync, &read_fd);
    ASSERT_GT(pid, 0);
    const int kill_after = 10 + static_cast<int>(rng() % 30);
    std::int32_t last = -1, ack = -1;
    bool killed = false;
    while (ReadAck(read_fd, &ack)) {
      ASSERT_EQ(ack, last + 1) << "acknowledgements come in order";
      last = ack;
      if (!killed && ack >= kill_after) {
        // Somewhere inside the next batch (or a flush): sometimes at once, sometimes a little
        // later.
        if (rng() % 2 == 0) ::usleep(rng() % 3000);
        ASSERT_EQ(::kill(pid, SIGKILL), 0);
        killed = true;
      }
    }
    ::close(read_fd);  // acknowledgements sent before the kill were all read above
    int wstatus = 0;
    ASSERT_EQ(::waitpid(pid, &wstatus, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(wstatus) && WTERMSIG(wstatus) == SIGKILL)
        << "the writer ended on its own (exit " << (WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1)
        << ") before it was killed; see its stderr above";
    ASSERT_GE(last, kill_after);
    acknowledged.push_back(last);

    // Reopen, checking every table file, and look for every answer.
    absl::StatusOr<std::unique_ptr<WalkStore>> store = WalkStore::Open(OptionsFor(dir));
    ASSERT_TRUE(store.ok()) << "reopening after SIGKILL: " << store.status();
    for (int r = 0; r <= round; ++r) {
      for (int b = 0; b <= acknowledged[r]; ++b) {
        ASSERT_EQ(CountStored(**store, r, b), kAnswersPerBatch)
            << "round " << r << ": acknowledged batch " << b << " lost answers";
      }
    }
    // The batches after the last acknowledged one: each whole or absent, and none after an
    // absent one (the log replays in order up to the first torn record).
    int survived = 0;
    bool absent_seen = false;
    for (int b = last + 1; b <= last + 4; ++b) {
      const int stored = CountStored(**store, round, b);
      ASSERT_TRUE(stored == 0 || stored == kAnswersPerBatch)
          << "batch " << b << " is partly stored: " << stored << " of " << kAnswersPerBatch;
      if (stored == 0) absent_seen = true;
      ASSERT_FALSE(stored > 0 && absent_seen) << "batch " << b << " survived after a lost one";
      survived += stored > 0 ? 1 : 0;
    }
    absl::StatusOr<std::uint64_t> count = (*store)->CountAnswers(1000 + round);
    ASSERT_TRUE(count.ok()) << count.status();
    EXPECT_EQ(*count, static_cast<std::uint64_t>(last + 1 + survived) * kAnswersPerBatch);
    std::printf(
        "round %d (%s): killed after %d acknowledged batches; %d unacknowledged batch(es) "
        "also survived; %llu answers of the round stored\n",
        round, sync ? "synced writes" : "log, no sync", last + 1, survived,
        static_cast<unsigned long long>(*count));
    ASSERT_TRUE((*store)->Close().ok());
  }
}

}  // namespace
}  // namespace walk::store

int main(int argc, char** argv) {
  if (std::getenv(walk::store::kChildDirEnv) != nullptr) return walk::store::RunChild();
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
