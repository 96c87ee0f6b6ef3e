#include "server/grid_trimmer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"

namespace walk::server {
namespace {

constexpr std::uint64_t kMiB = 1 << 20;

TEST(GridTrimTriggerTest, LooksFirstThenOnceTheFileBackedPagesGrewByTheFullestWorldsRoom) {
  GridTrimTrigger trigger(512 * kMiB);
  EXPECT_TRUE(trigger.Due(0));
  // After a look at 1,000 MiB, the fullest world kept 100 MiB: 412 MiB of room.
  trigger.Looked(1000 * kMiB, 100 * kMiB);
  EXPECT_FALSE(trigger.Due(1000 * kMiB));
  EXPECT_FALSE(trigger.Due(1411 * kMiB));
  EXPECT_TRUE(trigger.Due(1412 * kMiB));
  // Pages handed back elsewhere (a world's load done) lower the base the growth counts from.
  EXPECT_FALSE(trigger.Due(600 * kMiB));
  EXPECT_FALSE(trigger.Due(1011 * kMiB));
  EXPECT_TRUE(trigger.Due(1012 * kMiB));
  // A world at or past its budget leaves no room: the next second looks again.
  trigger.Looked(1000 * kMiB, 600 * kMiB);
  EXPECT_TRUE(trigger.Due(1000 * kMiB));
}

// The figure the trigger reads follows a file mapped and read, and its pages handed back.
TEST(GridTrimTriggerTest, FileResidentBytesFollowAMappedFilesPages) {
  char path[] = "/tmp/walkd-grid-trimmer-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  constexpr std::size_t kBytes = 64 * kMiB;
  ASSERT_EQ(ftruncate(fd, kBytes), 0);
  void* mapped = mmap(nullptr, kBytes, PROT_READ, MAP_PRIVATE, fd, 0);
  ASSERT_NE(mapped, MAP_FAILED);
  const std::uint64_t before = FileResidentBytes();
  ASSERT_GT(before, 0u) << "no RssFile in /proc/self/status";
  const auto* bytes = static_cast<const volatile char*>(mapped);
  for (std::size_t i = 0; i < kBytes; i += 4096) (void)bytes[i];
  const std::uint64_t read = FileResidentBytes();
  EXPECT_GE(read, before + kBytes - 4 * kMiB);
  madvise(mapped, kBytes, MADV_DONTNEED);
  EXPECT_LE(FileResidentBytes(), read - kBytes + 4 * kMiB);
  munmap(mapped, kBytes);
  close(fd);
  unlink(path);
}

}  // namespace
}  // namespace walk::server
