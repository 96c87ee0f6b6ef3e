// The one rasterization rule of ground layers (nav/layers/column_raster.h): a column belongs to
// an area when its centre lies inside it (holes left out, half-open on the boundary), to a line
// when its centre lies within half the line's width; coordinates are the world's frame.
#include "nav/layers/column_raster.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "tests/nav/ascii_grid.h"

namespace walk::nav {
namespace {

using testing::AsciiWorld;
using testing::OpenWorld;
using Columns = std::set<std::pair<std::uint32_t, std::uint32_t>>;

Columns InPolygon(const World& world, const GeoPolygon& polygon) {
  Columns columns;
  ForEachColumnInPolygon(world.continents[0], world.FrameOf(world.continents[0]), polygon,
                         [&](std::uint32_t x, std::uint32_t y) {
                           EXPECT_TRUE(columns.insert({x, y}).second) << "visited twice";
                         });
  return columns;
}

Columns NearLine(const World& world, const GeoLine& line, double width_yards) {
  Columns columns;
  ForEachColumnNearLine(world.continents[0], world.FrameOf(world.continents[0]), line,
                        width_yards / 2.0, [&](std::uint32_t x, std::uint32_t y) {
                          columns.insert({x, y});
                        });
  return columns;
}

// The columns drawn as '#' in `rows` (row 0 at the top is the highest y, as maps are drawn).
Columns Drawn(const std::vector<std::string>& rows) {
  Columns columns;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (std::size_t x = 0; x < rows[r].size(); ++x) {
      if (rows[r][x] == '#') {
        columns.insert(
            {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(rows.size() - 1 - r)});
      }
    }
  }
  return columns;
}

GeoPolygon Rectangle(double x0, double y0, double x1, double y1) {
  return {{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}};
}

TEST(ColumnRasterTest, APolygonCoversTheColumnsWhoseCentresAreInsideItAndLeavesItsHoleOut) {
  const World world = OpenWorld(8, 7);
  GeoPolygon framed = Rectangle(1, 1, 7, 6);
  // The hole, wound the same way as the outer ring: even-odd needs no orientation.
  framed.rings.push_back({{3, 2}, {5, 2}, {5, 4}, {3, 4}});
  EXPECT_EQ(InPolygon(world, framed), Drawn({
                                          "........",
                                          ".######.",
                                          ".######.",
                                          ".##..##.",
                                          ".##..##.",
                                          ".######.",
                                          "........",
                                      }));
}

TEST(ColumnRasterTest, ABoundaryThroughCentresIsInsideOnTheWestAndSouthEdgesOnly) {
  const World world = OpenWorld(6, 6);
  // Every edge runs through a row or column of centres (x = 1.5 .. 4.5, y = 0.5 .. 2.5).
  EXPECT_EQ(InPolygon(world, Rectangle(1.5, 0.5, 4.5, 2.5)), Drawn({
                                                                 "......",
                                                                 "......",
                                                                 "......",
                                                                 "......",
                                                                 ".###..",
                                                                 ".###..",
                                                             }));
  // Two areas sharing an edge never both take a column, and together leave none out.
  const Columns west = InPolygon(world, Rectangle(0, 0, 2.5, 6));
  const Columns east = InPolygon(world, Rectangle(2.5, 0, 6, 6));
  EXPECT_EQ(west.size() + east.size(), 36u);
  for (const auto& column : west) EXPECT_EQ(east.count(column), 0u);
}

TEST(ColumnRasterTest, AnAreaBeyondTheMapCoversOnlyTheColumnsOnIt) {
  const World world = OpenWorld(4, 3);
  EXPECT_EQ(InPolygon(world, Rectangle(-1e300, -1e300, 1e300, 1e300)).size(), 12u);
  EXPECT_TRUE(InPolygon(world, Rectangle(10, 10, 20, 20)).empty());
  // A triangle: a diagonal edge through the centres of the main diagonal.
  const GeoPolygon triangle{{{{0, 0}, {4, 0}, {0, 4}}}};
  // Centres on the hypotenuse (its north-east edge) are outside.
  EXPECT_EQ(InPolygon(OpenWorld(4, 4), triangle), Drawn({
                                                      "....",
                                                      "#...",
                                                      "##..",
                                                      "###.",
                                                  }));
}

TEST(ColumnRasterTest, ARoadCoversCentresWithinHalfItsWidthExactlyAtTheBoundary) {
  const World world = OpenWorld(10, 7);
  const GeoLine line = {{2, 3}, {8, 3}};  // along y = 3: row centres 2.5 and 3.5 are 0.5 away
  // 1 yard wide: centres exactly 0.5 yards away are on the road; the round ends take nothing
  // beyond x = 2 and 8 ((1.5, 2.5) is 0.707 yards from (2, 3)).
  EXPECT_EQ(NearLine(world, line, 1.0), Drawn({
                                            "..........",
                                            "..........",
                                            "..........",
                                            "..######..",
                                            "..######..",
                                            "..........",
                                            "..........",
                                        }));
  // A hair narrower takes neither row.
  EXPECT_TRUE(NearLine(world, line, 0.999999).empty());
  // 3 yards wide: 1.5 reaches the centres of the next rows (1.5 away) exactly, and the ends'
  // rounding takes (1.5, 2.5) (0.707 away) but not (0.5, 2.5) (1.58 away).
  EXPECT_EQ(NearLine(world, line, 3.0), Drawn({
                                            "..........",
                                            "..........",
                                            "..######..",
                                            ".########.",
                                            ".########.",
                                            "..######..",
                                            "..........",
                                        }));
}

TEST(ColumnRasterTest, ANegativeOriginPutsFrameCoordinatesOnTheGridsOwnColumns) {
  World world = OpenWorld(10, 4);
  world.continents[0].origin_column_x =
      -40;  // grid column 0 is frame column -40: x from -40 to -30 yards
  world.continents[0].origin_column_y = 2;  // grid row 0 is frame row 2: y from 2 to 6 yards
  // Frame x in [-38, -35) is grid columns 2, 3, 4; frame y in [3, 5) is rows 1 and 2.
  EXPECT_EQ(InPolygon(world, Rectangle(-38, 3, -35, 5)), Drawn({
                                                             "..........",
                                                             "..###.....",
                                                             "..###.....",
                                                             "..........",
                                                         }));
  // The same rectangle in grid coordinates is off this world's frame.
  EXPECT_TRUE(InPolygon(world, Rectangle(2, 1, 5, 3)).empty());
  const Columns road = NearLine(world, {{-40, 4}, {-30, 4}}, 1.0);  // between rows 1 and 2
  EXPECT_EQ(road.size(), 20u);
  EXPECT_EQ(road.count({0, 1}), 1u);
  EXPECT_EQ(road.count({9, 2}), 1u);
}

TEST(ColumnRasterTest, ColumnsAreWideInYardsWhereTheWorldSaysSo) {
  World world = OpenWorld(6, 2);
  world.column_yards = 0.5;  // centres at x = 0.25, 0.75, ...
  EXPECT_EQ(InPolygon(world, Rectangle(0.5, 0, 1.5, 1)).size(), 4u);  // columns 1, 2 of rows 0, 1
}

// The rule written out plainly, for every column of the map: a column is near a line when its
// centre is within h of some segment whose box (widened by h) holds the centre.
Columns NearLineByBruteForce(const World& world, const GeoLine& line, double h) {
  const Continent& c = world.continents[0];
  const WorldFrame frame = world.FrameOf(world.continents[0]);
  Columns columns;
  for (std::size_t i = 0; i == 0 || i + 1 < line.size(); ++i) {
    const GeoPoint a = line[i], b = line[std::min(i + 1, line.size() - 1)];
    const double dx = b.x - a.x, dy = b.y - a.y, length2 = dx * dx + dy * dy;
    for (std::uint32_t y = 0; y < c.height_columns; ++y) {
      for (std::uint32_t x = 0; x < c.width_columns; ++x) {
        const double px = frame.CentreX(x), py = frame.CentreY(y);
        if (px < std::min(a.x, b.x) - h || px > std::max(a.x, b.x) + h) continue;
        if (py < std::min(a.y, b.y) - h || py > std::max(a.y, b.y) + h) continue;
        double t = length2 > 0.0 ? ((px - a.x) * dx + (py - a.y) * dy) / length2 : 0.0;
        t = std::clamp(t, 0.0, 1.0);
        const double ex = px - (a.x + t * dx), ey = py - (a.y + t * dy);
        if (ex * ex + ey * ey <= h * h) columns.insert({x, y});
      }
    }
  }
  return columns;
}

// The area rule written out plainly: a centre is inside when an odd number of the crossings of
// its row's centre line with the rings' edges lie at or west of it.
Columns InPolygonByBruteForce(const World& world, const GeoPolygon& polygon) {
  const Continent& c = world.continents[0];
  const WorldFrame frame = world.FrameOf(world.continents[0]);
  Columns columns;
  for (std::uint32_t y = 0; y < c.height_columns; ++y) {
    const double cy = frame.CentreY(y);
    std::vector<double> crossings;
    for (const auto& ring : polygon.rings) {
      for (std::size_t i = 0; i < ring.size(); ++i) {
        const GeoPoint a = ring[i], b = ring[(i + 1) % ring.size()];
        if ((a.y > cy) == (b.y > cy)) continue;
        const double t = (cy - a.y) / (b.y - a.y);
        crossings.push_back(a.x + t * (b.x - a.x));
      }
    }
    for (std::uint32_t x = 0; x < c.width_columns; ++x) {
      const double cx = frame.CentreX(x);
      const auto west = std::count_if(crossings.begin(), crossings.end(),
                                      [&](double crossing) { return crossing <= cx; });
      if (west % 2 == 1) columns.insert({x, y});
    }
  }
  return columns;
}

// Coordinates on a lattice of quarter yards half the time, so centres fall exactly on
// boundaries, and anywhere the rest.
double RandomCoordinate(std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> any(lo, hi);
  return rng() % 2 ? std::round(any(rng) * 4.0) / 4.0 : any(rng);
}

TEST(ColumnRasterTest, LinesCoverWhatThePlainRuleCoversOnRandomLines) {
  std::mt19937 rng(7);
  int covered = 0;
  for (int round = 0; round < 600; ++round) {
    World world = OpenWorld(1 + static_cast<int>(rng() % 40), 1 + static_cast<int>(rng() % 30));
    world.column_yards = std::array<double, 3>{1.0, 0.5, 2.5}[rng() % 3];
    world.continents[0].origin_column_x = static_cast<std::int64_t>(rng() % 7) - 3;
    world.continents[0].origin_column_y = static_cast<std::int64_t>(rng() % 7) - 3;
    const double span = 45.0 * world.column_yards;
    GeoLine line(1 + rng() % 8);
    for (GeoPoint& p : line) {
      p = {RandomCoordinate(rng, -span / 4, span), RandomCoordinate(rng, -span / 4, span)};
      if (rng() % 5 == 0 && &p != &line[0]) p = (&p)[-1];  // a segment of no length
    }
    const double width = rng() % 4 == 0 ? 0.5 * (rng() % 12) : RandomCoordinate(rng, 0.01, span);
    Columns visited;
    ForEachColumnNearLine(world.continents[0], world.FrameOf(world.continents[0]), line,
                          width / 2.0, [&](std::uint32_t x, std::uint32_t y) {
                            EXPECT_TRUE(visited.insert({x, y}).second) << "visited twice";
                          });
    const Columns expected = NearLineByBruteForce(world, line, width / 2.0);
    ASSERT_EQ(visited, expected) << "round " << round << ", width " << width;
    covered += !expected.empty();
  }
  EXPECT_GT(covered, 300);  // most rounds cover something
}

TEST(ColumnRasterTest, AreasCoverWhatThePlainRuleCoversOnRandomPolygons) {
  std::mt19937 rng(11);
  for (int round = 0; round < 400; ++round) {
    World world = OpenWorld(1 + static_cast<int>(rng() % 40), 1 + static_cast<int>(rng() % 30));
    world.continents[0].origin_column_x = static_cast<std::int64_t>(rng() % 5) - 2;
    GeoPolygon polygon;
    polygon.rings.resize(1 + rng() % 3);
    for (auto& ring : polygon.rings) {
      ring.resize(3 + rng() % 9);
      for (GeoPoint& p : ring) p = {RandomCoordinate(rng, -10, 45), RandomCoordinate(rng, -10, 35)};
    }
    ASSERT_EQ(InPolygon(world, polygon), InPolygonByBruteForce(world, polygon)) << round;
  }
}

// A wide line of many vertices costs the rows its segments span and the columns it covers: a
// zigzag of 20,000 vertices, 1,000 yards wide, over a 512 x 512 map covers every column once.
TEST(ColumnRasterTest, AWideZigzagOfManyVerticesCoversEachColumnOnce) {
  const World world = OpenWorld(512, 512);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> coordinate(0.0, 512.0);
  GeoLine line(20000);
  for (GeoPoint& p : line) p = {coordinate(rng), coordinate(rng)};
  std::vector<std::uint8_t> seen(512 * 512, 0);
  std::uint64_t visits = 0;
  ForEachColumnNearLine(world.continents[0], world.FrameOf(world.continents[0]), line, 500.0,
                        [&](std::uint32_t x, std::uint32_t y) {
                          ++visits;
                          ++seen[y * 512 + x];
                        });
  EXPECT_EQ(visits, 512u * 512u);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 512 * 512);
}

}  // namespace
}  // namespace walk::nav
