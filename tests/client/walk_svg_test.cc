#include "client/walk_svg.h"

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace walk::client {
namespace {

// The ground, 10 x 6 columns of 2 yards in a frame of negative coordinates (columns -10..-1
// along x, -6..-1 along y), row by row as Floors answers:
//
//   y\x  -10 -9 -8 -7 -6 | -5 -4 -3 -2 -1
//   -6    .   A  .  .  . |  .  .  .  B  .     A, B: hubs of faction A and B
//   -5    .   .  .  .  . |  .  .  .  .  .
//   -4    .   .  .  .  . |  .  .  .  .  .
//   -3    =   =  =  =  = |  =  =  =  =  =     =: road
//   -2    .   .  .  .  . |  .  .  .  .  .
//   -1    .   .  .  .  . |  .  L  .  .  #     L: a lift landing (two floors); #: no surface
//         zone 3 (levels 1-6)  zone 7 (levels 35-40)
//
// The map spans x -20..0 and y -12..0 yards: 45 pixels a yard, 900 x 540 pixels.
walk::v1::FloorsResponse Ground() {
  walk::v1::FloorsResponse ground;
  ground.set_column_yards(2.0);
  for (int y = -6; y <= -1; ++y) {
    for (int x = -10; x <= -1; ++x) {
      walk::v1::Column* column = ground.add_columns();
      column->set_column_x(x);
      column->set_column_y(y);
      if (x == -1 && y == -1) continue;
      const int floors = x == -4 && y == -1 ? 2 : 1;
      for (int level = 0; level < floors; ++level) {
        walk::v1::Floor* floor = column->add_floors();
        floor->set_level(static_cast<std::uint32_t>(level));
        floor->set_z_yards(level * 10.0);
        floor->add_flags("terrain");
        floor->set_zone(x < -5 ? 3 : 7);
        if (y == -3) floor->add_marks("road");
        if (x == -9 && y == -6) floor->add_marks("hub_a");
        if (x == -2 && y == -6) floor->add_marks("hub_b");
        if (floors == 2) floor->add_marks("lift");
      }
    }
  }
  return ground;
}

walk::v1::PathResponse Path(std::uint32_t to_zone) {
  walk::v1::PathResponse path;
  walk::v1::WalkResponse* walk = path.mutable_walk();
  walk->set_status(walk::v1::WALK_STATUS_OK);
  walk->mutable_from_end()->set_zone(3);
  walk->mutable_to_end()->set_zone(to_zone);
  for (const auto& [x, y] : {std::pair{-19.0, -5.0}, {-7.0, -5.0}, {-11.0, -1.0}}) {
    walk::v1::PathPoint* p = path.add_points();
    p->set_x_yards(x);
    p->set_y_yards(y);
  }
  walk::v1::KindSeconds* lift = path.add_seconds_by_kind();
  lift->set_kind("lift");
  lift->set_seconds(20.0);
  walk::v1::Fall* fall = path.add_falls();
  fall->mutable_from()->set_x_yards(-7.0);
  fall->mutable_from()->set_y_yards(-5.0);
  fall->set_drop_yards(3.0);
  return path;
}

// Band 20 prices zone 7 (lowest level 35 > 20 + 10: x20) and not zone 3; zone 9 is the world's
// but not on this ground.
DrawOptions Options(bool prices_danger = true) {
  DrawOptions options;
  options.stride = 1;
  options.band = 20;
  options.prices_danger = prices_danger;
  options.zones = {{7, "High Moor", 35, 40, prices_danger ? 20.0 : 1.0},
                   {3, "Low Vale", 1, 6, 1.0},
                   {9, "Far Fen", 50, 55, prices_danger ? 20.0 : 1.0}};
  options.caption = "test -19,-5 -> -11,-1";
  return options;
}

int Count(const std::string& text, const std::string& what) {
  int count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

// The legend's text lines, in order.
std::vector<std::string> LegendLines(const std::string& svg) {
  const auto begin = svg.find("<g id=\"legend\"");
  const std::string legend = svg.substr(begin, svg.find("</g>\n<text id=\"caption\"") - begin);
  std::vector<std::string> lines;
  const std::regex text(R"re(<text [^>]*>([^<]*)</text>)re");
  for (std::sregex_iterator it(legend.begin(), legend.end(), text), end; it != end; ++it) {
    lines.push_back((*it)[1]);
  }
  return lines;
}

TEST(WalkSvgTest, LegendListsEveryKindDrawnAndNothingElse) {
  const std::string svg = DrawWalkSvg(Path(3), Ground(), Options());
  const std::vector<std::string> expected = {"Legend",
                                             "plain ground",
                                             "road",
                                             "hub of faction A",
                                             "hub of faction B",
                                             "no surface (wall, tree, void)",
                                             "lift landing",
                                             "zone 3 Low Vale, levels 1-6",
                                             "exempt (an end's zone)",
                                             "zone 7 High Moor, levels 35-40",
                                             "x20 in band 20",
                                             "hatched: priced in band 20",
                                             "the ends' zones are exempt",
                                             "the path",
                                             "20.0 s of it riding lifts",
                                             "start",
                                             "goal",
                                             "fall"};
  EXPECT_EQ(LegendLines(svg), expected);
  EXPECT_NE(svg.find(">test -19,-5 -&gt; -11,-1</text>"), std::string::npos) << "the caption";
}

TEST(WalkSvgTest, HatchesOnlyTheZoneTheBandPrices) {
  const std::string svg = DrawWalkSvg(Path(3), Ground(), Options());
  EXPECT_EQ(Count(svg, "<pattern id=\"danger-high\""), 1);
  EXPECT_EQ(Count(svg, "data-zone=\"7\" fill=\"url(#danger-high)\""), 1);
  EXPECT_EQ(Count(svg, "data-zone=\"3\" fill=\"url(#"), 0);
  // On the map once, in the legend's swatch of zone 7 once.
  EXPECT_EQ(Count(svg, "fill=\"url(#danger-"), 2);
  EXPECT_NE(svg.find(">zone 7 x20</text>"), std::string::npos);
  EXPECT_NE(svg.find(">zone 3</text>"), std::string::npos);
  // Both zones tinted, zone 9 nowhere.
  EXPECT_NE(svg.find("<path data-zone=\"3\" fill=\"#"), std::string::npos);
  EXPECT_NE(svg.find("<path data-zone=\"7\" fill=\"#"), std::string::npos);
  EXPECT_EQ(svg.find("data-zone=\"9\""), std::string::npos);
  EXPECT_EQ(svg.find("Far Fen"), std::string::npos);
}

TEST(WalkSvgTest, AnEndsZoneIsExemptAndNotHatched) {
  const std::string svg = DrawWalkSvg(Path(7), Ground(), Options());
  EXPECT_EQ(Count(svg, "fill=\"url(#danger-"), 0);
  const std::vector<std::string> lines = LegendLines(svg);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "x20 in band 20, but exempt (an end's zone)"),
            lines.end());
  // Zone 3 is the start's: exempt too, though band 20 charges nothing there anyway.
  EXPECT_EQ(std::count(lines.begin(), lines.end(), "exempt (an end's zone)"), 1);
  EXPECT_EQ(svg.find(">zone 7 x20</text>"), std::string::npos);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "band 20 prices no zone here"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "the ends' zones are exempt"), lines.end());
}

TEST(WalkSvgTest, AProfileThatIgnoresBandsHatchesNothing) {
  const std::string svg = DrawWalkSvg(Path(3), Ground(), Options(/*prices_danger=*/false));
  EXPECT_EQ(Count(svg, "url(#danger-"), 0);
  const std::vector<std::string> lines = LegendLines(svg);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "band 20: no zone costs extra"), lines.end());
  EXPECT_EQ(std::find(lines.begin(), lines.end(), "x20 in band 20"), lines.end());
}

TEST(WalkSvgTest, MarksTheLiftLandingAtItsColumn) {
  const std::string svg = DrawWalkSvg(Path(3), Ground(), Options());
  // Column (-4, -1): its centre (-7, -1) yards is (13, 11) yards from the map's corner.
  EXPECT_EQ(Count(svg, "<use class=\"lift\""), 1);
  EXPECT_NE(svg.find("<use class=\"lift\" xlink:href=\"#lift-landing\" x=\"585.00\" y=\"495.00\""),
            std::string::npos);
  EXPECT_EQ(Count(svg, "<g id=\"lift-landing\">"), 1);
}

TEST(WalkSvgTest, RoadsAndHubsAreDrawnOverTheZones) {
  const std::string svg = DrawWalkSvg(Path(3), Ground(), Options());
  const auto zones = svg.find("<g id=\"zones\"");
  const auto top = svg.find("<g id=\"roads-hubs\"");
  ASSERT_NE(zones, std::string::npos);
  ASSERT_NE(top, std::string::npos);
  EXPECT_LT(zones, top);
  // The road row y = -3 (6 yards below the corner) is one run across the map.
  EXPECT_NE(svg.find("M0.00 270.00h900.05v90.05h-900.05z", top), std::string::npos);
  EXPECT_NE(svg.find("<path fill=\"#9fc5e8\" d=\"M90.00 0.00h", top), std::string::npos);
  EXPECT_NE(svg.find("<path fill=\"#ea9999\" d=\"M720.00 0.00h", top), std::string::npos);
  // The border between the zones: x = -10 yards, 450 pixels, once a row.
  const auto borders = svg.find("<path id=\"zone-borders\"");
  ASSERT_NE(borders, std::string::npos);
  const std::string d = svg.substr(borders, svg.find("/>", borders) - borders);
  EXPECT_EQ(Count(d, "v90.00"), 6);
  for (const char* edge : {"M450.00 0.00v90.00", "M450.00 450.00v90.00"}) {
    EXPECT_NE(d.find(edge), std::string::npos) << edge;
  }
  EXPECT_EQ(Count(d, "M"), 6) << "no border but between the zones";
}

TEST(WalkSvgTest, NegativeCoordinatesMapInsideTheViewBox) {
  const std::string svg = DrawWalkSvg(Path(3), Ground(), Options());
  std::smatch m;
  ASSERT_TRUE(std::regex_search(svg, m, std::regex(R"re(viewBox="0 0 ([0-9.]+) ([0-9.]+)")re")));
  const double width = std::stod(m[1]), height = std::stod(m[2]);
  EXPECT_NE(svg.find("<circle id=\"start\" cx=\"45.00\" cy=\"315.00\""), std::string::npos);
  EXPECT_NE(svg.find("<circle id=\"goal\" cx=\"405.00\" cy=\"495.00\""), std::string::npos);
  EXPECT_NE(svg.find("points=\"45.00,315.00 585.00,315.00 405.00,495.00 \""), std::string::npos);

  // Every point the map draws (path data, circles, symbols, labels) lies on the 900 x 540 map.
  const auto map_at = svg.find("</defs>");  // symbols are drawn about their own origin
  const std::string map = svg.substr(map_at, svg.find("<g id=\"legend\"") - map_at);
  int points = 0;
  for (const std::regex& pair : {std::regex(R"re(M(-?[0-9.]+) (-?[0-9.]+))re"),
                                 std::regex(R"re(cx="(-?[0-9.]+)" cy="(-?[0-9.]+)")re"),
                                 std::regex(R"re( x="(-?[0-9.]+)" y="(-?[0-9.]+)")re"),
                                 std::regex(R"re((-?[0-9.]+),(-?[0-9.]+) )re")}) {
    for (std::sregex_iterator it(map.begin(), map.end(), pair), end; it != end; ++it) {
      const double x = std::stod((*it)[1]), y = std::stod((*it)[2]);
      EXPECT_GE(x, 0.0) << (*it)[0];
      EXPECT_LE(x, 900.0) << (*it)[0];
      EXPECT_GE(y, 0.0) << (*it)[0];
      EXPECT_LE(y, 540.0) << (*it)[0];
      ++points;
    }
  }
  EXPECT_GT(points, 20);

  // The legend lies right of the map and inside the drawing.
  ASSERT_TRUE(std::regex_search(
      svg, m,
      std::regex(
          R"re(<g id="legend"[^>]*>\n<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)" height="([0-9.]+)")re")));
  const double x = std::stod(m[1]), y = std::stod(m[2]);
  EXPECT_GT(x, 900.0);
  EXPECT_GE(y, 0.0);
  EXPECT_LE(x + std::stod(m[3]), width);
  EXPECT_LE(y + std::stod(m[4]), height);
}

}  // namespace
}  // namespace walk::client
