// A danger band takes band 0's walk only where that is exact: on every pair of a test world with
// a dangerous strip, a road and walls, the reused answer equals the band's full danger search.
#include "nav/query/band_zero_reuse.h"

#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "nav/cost/danger.h"
#include "nav/grid/grid_builder.h"
#include "nav/query/walk_pipeline.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

// 64 x 64 yards: zone 1 (levels 1-10) west, zone 3 (levels 5-12) east, and between them zone 2
// (levels 35-40), a strip 8 columns wide from the north edge down to row 47, which walks may
// go round to the south. A road runs along row 56; walls break up the west.
World DangerWorld() {
  std::vector<std::string> rows(64, std::string(64, '.'));
  for (int y = 8; y < 30; ++y) rows[y][12] = '@';
  for (int x = 4; x < 20; ++x) rows[40][x] = '@';
  World world = testing::AsciiWorld(rows);
  Continent& c = world.continents[0];
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    const std::uint32_t x = c.column_x[s], y = c.column_y[s];
    c.zone[s] = (x >= 28 && x < 36 && y < 48) ? 2 : (x < 32 ? 1 : 3);
    if (y == 56) c.marks[s] |= kMarkRoad;
  }
  world.zones = {{1, "west", 1, 10}, {2, "strip", 35, 40}, {3, "east", 5, 12}};
  FinishContinent(c);
  AssignContentIds(world);
  return world;
}

TEST(BandZeroReuseTest, EveryReusedAnswerEqualsTheBandsFullDangerSearch) {
  const World world = DangerWorld();
  const Profile& profile = *FindProfile("neutral");
  const Metric base(world, profile, 0);
  FineGridAStar astar;
  std::mt19937_64 random(17);
  std::uniform_real_distribution<double> coordinate(0.0, 64.0);
  std::vector<std::pair<Place, Place>> pairs;
  for (int i = 0; i < 300; ++i) {
    Place a, b;
    a.x_yards = coordinate(random);
    a.y_yards = coordinate(random);
    b.x_yards = coordinate(random);
    b.y_yards = coordinate(random);
    pairs.emplace_back(a, b);
  }
  for (std::uint32_t band : kDangerBands) {
    if (band == 0) continue;
    SCOPED_TRACE(band);
    const Metric priced(world, profile, band);
    int reused = 0, searched = 0;
    for (const auto& [a, b] : pairs) {
      absl::StatusOr<WalkAnswer> zero = AnswerWalk(world, base, a, b, astar);
      ASSERT_TRUE(zero.ok()) << zero.status();
      absl::StatusOr<WalkAnswer> full = AnswerWalk(world, priced, a, b, astar);
      ASSERT_TRUE(full.ok()) << full.status();
      EXPECT_GE(full->seconds, zero->seconds * (1.0 - 1e-12));  // danger never makes a walk cheaper
      if (!BandZeroAnswers(*zero, priced)) {
        ++searched;
        continue;
      }
      ++reused;
      ASSERT_EQ(zero->status, full->status);
      EXPECT_NEAR(zero->seconds, full->seconds, 1e-9 * full->seconds)
          << a.x_yards << "," << a.y_yards << " -> " << b.x_yards << "," << b.y_yards;
    }
    // Bands 10 to 30 price the strip and must search the pairs whose walks cross it; bands 40
    // and 50 price nothing on this world and take band 0's walk everywhere.
    EXPECT_GT(reused, 50);
    if (band <= 30) {
      EXPECT_GT(searched, 20);
    } else {
      EXPECT_EQ(searched, 0);
    }
  }
}

TEST(BandZeroReuseTest, TheEndsZonesAreExemptAndALiftIntoAZoneCounts) {
  const World world = DangerWorld();
  const Metric band10(world, *FindProfile("neutral"), 10);
  WalkAnswer walk;
  walk.status = WalkStatus::kOk;
  walk.from_zone = 1;
  walk.to_zone = 2;
  walk.zone_cells = {{0, 0, 1, 30.0}, {0, 0, 2, 12.0}};
  EXPECT_TRUE(BandZeroAnswers(walk, band10));
  walk.to_zone = 3;
  EXPECT_FALSE(BandZeroAnswers(walk, band10));
  // A lift ride into the strip walks no yards there, yet is priced by it.
  walk.zone_cells = {{0, 0, 1, 30.0}, {0, 0, 2, 0.0}, {0, 0, 3, 5.0}};
  EXPECT_FALSE(BandZeroAnswers(walk, band10));
  // No walk in band 0 is no walk in any band.
  WalkAnswer none;
  none.status = WalkStatus::kNoWalk;
  EXPECT_TRUE(BandZeroAnswers(none, band10));
}

}  // namespace
}  // namespace walk::nav
