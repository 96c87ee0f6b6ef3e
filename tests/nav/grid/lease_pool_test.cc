#include "nav/grid/lease_pool.h"

#include <memory>
#include <optional>

#include "gtest/gtest.h"

namespace walk::nav {
namespace {

struct Buffer {
  int id = 0;
};

// As many objects as were leased at once are made, each reused once it is back.
TEST(LeasePoolTest, MakesOnlyWhatIsLeasedAtOnceAndReusesWhatComesBack) {
  LeasePool<Buffer> pool;
  int made = 0;
  auto make = [&made] { return std::make_unique<Buffer>(Buffer{++made}); };
  {
    LeasePool<Buffer>::Lease a = pool.Take(make);
    LeasePool<Buffer>::Lease b = pool.Take(make);
    EXPECT_NE(a->id, b->id);
    EXPECT_EQ(made, 2);
    EXPECT_EQ(pool.idle(), 0u);
  }
  EXPECT_EQ(pool.idle(), 2u);
  {
    LeasePool<Buffer>::Lease again = pool.Take(make);
    EXPECT_EQ(made, 2) << "an idle one is reused";
    std::optional<LeasePool<Buffer>::Lease> moved(std::move(again));
    EXPECT_EQ(pool.idle(), 1u);
  }
  EXPECT_EQ(pool.idle(), 2u) << "a moved lease comes back once";
}

TEST(LeasePoolTest, AFailedMakeLeasesNothing) {
  LeasePool<Buffer> pool;
  absl::StatusOr<LeasePool<Buffer>::Lease> lease =
      pool.TryTake([]() -> absl::StatusOr<std::unique_ptr<Buffer>> {
        return absl::ResourceExhaustedError("no memory");
      });
  EXPECT_EQ(lease.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(pool.idle(), 0u);
}

}  // namespace
}  // namespace walk::nav
