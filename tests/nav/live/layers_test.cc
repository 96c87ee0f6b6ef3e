// Layers and their composition: the one rasterization rule, the layer order, the two precedence
// rules (doorways reopen only their own structure; crossings outrank terrain but not buildings),
// forest and roads, the map alphabet and the layer file.
#include "nav/live/layers.h"

#include "gtest/gtest.h"
#include "nav/live/layer_file.h"
#include "nav/live/live_grid.h"
#include "tests/nav/live/ascii_live.h"

namespace walk::nav::live {
namespace {

using testing::AsciiLayers;
using testing::AsciiWorld;
using testing::DrawGrid;
using testing::DrawRows;

using Rows = std::vector<std::string>;

TEST(CellsCoveringTest, CountsCellsCoveredWithAreaNotCellsTouched) {
  // Edges exactly on cell boundaries claim nothing beyond them: 2 x 2, not 4 x 4.
  EXPECT_EQ(CellsCovering({4, 4, 6, 6}, 1.0, 10, 10), (CellRect{4, 4, 6, 6}));
  // Edges inside cells claim them: a 2 x 2 centred on a cell centre covers 3 x 3 cells.
  EXPECT_EQ(CellsCovering({4.5, 4.5, 6.5, 6.5}, 1.0, 10, 10), (CellRect{4, 4, 7, 7}));
  // No area, no cells.
  EXPECT_TRUE(CellsCovering({4, 4, 4, 6}, 1.0, 10, 10).empty());
  // Float noise on a boundary counts as on it.
  EXPECT_EQ(CellsCovering({0.1 + 0.2 - 0.3, 0, 3.0000000000001, 1}, 1.0, 10, 10),
            (CellRect{0, 0, 3, 1}));
  // World units: cells 2 units wide.
  EXPECT_EQ(CellsCovering({2, 2, 6, 6}, 2.0, 10, 10), (CellRect{1, 1, 3, 3}));
  // Clipped to the map.
  EXPECT_EQ(CellsCovering({-3, -3, 2, 2}, 1.0, 10, 10), (CellRect{0, 0, 2, 2}));
  EXPECT_TRUE(CellsCovering({20, 20, 30, 30}, 1.0, 10, 10).empty());
}

TEST(CellsCoveringTest, NeighbouringFootprintsLeaveTheirGapOpen) {
  auto world = AsciiWorld({"......"}, "building 1 0 0 2 1\nbuilding 2 3 0 5 1\n");
  EXPECT_EQ(DrawRows(*world), (Rows{"BB.BB."}));
}

TEST(CompositionTest, LayersApplyInOrderAndABuildingHidesWhatIsUnderIt) {
  // Terrain M, resources T (tree) B (boulder) I (ore), and a building over cells x 1..3, y 1..2.
  auto world =
      AsciiWorld({"....T....", "...MMMI..", "..BMMM...", "........."}, "building 7 1 1 4 3\n");
  EXPECT_EQ(DrawRows(*world), (Rows{"....T....", ".BBBMMI..", ".BBBMM...", "........."}));
  // Destroyed: the cells are recomposed from terrain and resources.
  const BlockerChange remove = BlockerChange::RemoveBuilding(7);
  ASSERT_TRUE(world->UpdateBlockers({&remove, 1}).ok());
  EXPECT_EQ(DrawRows(*world), (Rows{"....T....", "...MMMI..", "..oMMM...", "........."}));
}

TEST(CompositionTest, ADoorwayReopensOnlyItsOwnStructure) {
  // Wall segment 1 covers x 0..2, segment 2 x 3..6; gate 10 belongs to segment 1 but its rectangle
  // overlaps segment 2's first cell. Gate 11 names a structure that is not there.
  auto world = AsciiWorld({".......", ".......", "......."},
                          "building 1 0 1 3 2\n"
                          "building 2 3 1 7 2\n"
                          "gate 10 1 2 1 4 2 open\n"
                          "gate 11 99 0 1 1 2 open\n"
                          "gap 2 5 1 6 2\n");
  // Open: only segment 1's cell under the gate opens; the gap opens segment 2's cell 5.
  EXPECT_EQ(DrawRows(*world)[1], "BB.BB.B");
  const BlockerChange shut = BlockerChange::ShutGate(10);
  ASSERT_TRUE(world->UpdateBlockers({&shut, 1}).ok());
  EXPECT_EQ(DrawRows(*world)[1], "BBGGB.B");
  const BlockerChange open = BlockerChange::OpenGate(10);
  ASSERT_TRUE(world->UpdateBlockers({&open, 1}).ok());
  EXPECT_EQ(DrawRows(*world)[1], "BB.BB.B");
}

TEST(CompositionTest, ADoorwayShowsWhatLiesUnderTheStructure) {
  // Under the gate: a boulder (stays blocked) and forest floor (a passage: plain ground).
  auto world = AsciiWorld({"FFFF"}, "building 1 0 0 4 1\ngate 2 1 1 0 3 1 open\n");
  EXPECT_EQ(DrawRows(*world)[0], "B..B");
  auto boulder = AsciiWorld({"FBFF"}, "building 1 0 0 4 1\ngate 2 1 1 0 3 1 open\n");
  EXPECT_EQ(DrawRows(*boulder)[0], "Bo.B");
}

TEST(CompositionTest, ACrossingOutranksTerrainButNotWhatStandsOnIt) {
  auto world = AsciiWorld({"FFFFFFF", "RRRRRRR", "RRRRRRR", ".......", "^MMMMMM"},
                          "bridge 2 1 4 3\n"      // deck x 2..3 over the river
                          "building 5 3 1 4 2\n"  // a building on the deck
                          "tree 2.5 2.5\n"        // a tree on the deck
                          "entrance 1 0 2 1\n");  // a ramp inside the wood
  EXPECT_EQ(DrawRows(*world), (Rows{"f.fffff", "~~.B~~~", "~~T.~~~", ".......", ".MMMMMM"}));
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    EXPECT_TRUE(grid.Portal(grid.Index({2, 1})));
    EXPECT_TRUE(grid.Portal(grid.Index({0, 4})));  // '^': a hill entrance
    EXPECT_FALSE(grid.Portal(grid.Index({4, 1})));
  });
}

TEST(CompositionTest, ForestIsForLightUnitsAndNeverClaimsARoad) {
  auto world = AsciiWorld({"..FF=FF.."}, "road 6 0 7 1\n");
  EXPECT_EQ(DrawRows(*world)[0], "..ff.f...");
  world->Inspect([](const LiveGrid& grid, const Layers&) {
    EXPECT_TRUE(grid.Open(Cell{2, 0}, Passability::kLight));
    EXPECT_FALSE(grid.Open(Cell{2, 0}, Passability::kHeavy));
    EXPECT_TRUE(grid.Open(Cell{4, 0}, Passability::kHeavy));
    EXPECT_TRUE(grid.Open(Cell{6, 0}, Passability::kHeavy));
    // Heavy units price the forest's edge; light ones do not see it.
    EXPECT_TRUE(grid.flags()[grid.Index({1, 0})] & kHeavyNear);
    EXPECT_FALSE(grid.flags()[grid.Index({1, 0})] & kLightNear);
  });
}

TEST(CompositionTest, MapAlphabet) {
  auto world = AsciiWorld({".GS@OWRMTBIF=+^"});
  EXPECT_EQ(DrawRows(*world)[0], "...##~~MToIf...");
  auto map = ParseMovingAiMap(testing::MapText({"..x"}));
  ASSERT_TRUE(map.ok());
  absl::StatusOr<Layers> layers = Layers::FromMovingAi(*map);
  EXPECT_EQ(layers.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(layers.status().message().find("row 0 column 2"), std::string::npos) << layers.status();
}

TEST(LayerFileTest, DocumentedExampleApplies) {
  Layers layers = AsciiLayers({"..........", "..........", "..........", ".........."});
  const absl::Status s = ApplyLayerText(
      "# a 20 x 8 world-unit map of 2-unit cells\n"
      "cell_size 2\n"
      "river 0 4 20 6          # row 2\n"
      "bridge 8 4 12 6\n"
      "forest 0 0 8 4\n"
      "road 2 0 4 4\n"
      "tree 13 1\n"
      "boulder 15.5 1\n"
      "ore 19 7\n"
      "building 1 12 6 20 8\n"
      "gate 2 1 14 6 16 8 shut\n"
      "gap 1 18 6 20 8\n",
      &layers);
  ASSERT_TRUE(s.ok()) << s;
  LiveGrid grid(layers);
  EXPECT_EQ(DrawGrid(grid), (Rows{"f.ff..To..", "f.ff......", "~~~~..~~~~",
                                  "......BGBI"}));  // the gap reopens onto the ore
}

TEST(LayerFileTest, ErrorsNameTheLine) {
  struct Case {
    const char* text;
    absl::StatusCode code;
    const char* says;
  };
  const Case cases[] = {
      {"building 1 0 0 1 1\nwall 1 2 3 4\n", absl::StatusCode::kInvalidArgument,
       "layer line 2: unknown keyword 'wall'"},
      {"\n\nbuilding 1 0 0 x 1\n", absl::StatusCode::kInvalidArgument, "layer line 3: 'x'"},
      {"tree 1\n", absl::StatusCode::kInvalidArgument, "layer line 1: 'tree' takes 2 values"},
      {"tree 1 1\ncell_size 2\n", absl::StatusCode::kInvalidArgument,
       "layer line 2: cell_size must come before"},
      {"building 1 0 0 1 1\nbuilding 1 2 0 3 1\n", absl::StatusCode::kAlreadyExists,
       "layer line 2: entity 1 exists"},
      {"gate 3 1 0 0 1 1 ajar\n", absl::StatusCode::kInvalidArgument,
       "layer line 1: gate state 'ajar'"},
      {"ore 50 0\n", absl::StatusCode::kInvalidArgument, "layer line 1: point is off the map"},
      {"forest 20 20 30 30\n", absl::StatusCode::kInvalidArgument,
       "layer line 1: rectangle covers no cell"},
      {"building 1 3 0 1 1\n", absl::StatusCode::kInvalidArgument,
       "layer line 1: rectangle needs X0 <= X1"},
  };
  for (const Case& c : cases) {
    Layers layers = AsciiLayers({"....", "...."});
    const absl::Status s = ApplyLayerText(c.text, &layers);
    EXPECT_EQ(s.code(), c.code) << c.text << " -> " << s;
    EXPECT_NE(s.message().find(c.says), std::string::npos) << c.text << " -> " << s;
  }
}

TEST(LayersTest, BucketsFindFootprintsAcrossBucketBorders) {
  Layers layers(64, 64, 1.0);
  ASSERT_TRUE(layers.AddBuilding(1, {10, 10, 40, 12}, nullptr).ok());  // spans 3 buckets
  ASSERT_TRUE(layers.AddBuilding(2, {50, 50, 51, 51}, nullptr).ok());
  std::vector<const Footprint*> found;
  layers.FootprintsOverlapping({33, 0, 34, 64}, &found);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0]->id, 1u);
  layers.FootprintsOverlapping({0, 0, 64, 64}, &found);
  EXPECT_EQ(found.size(), 2u);
  CellRect vacated, occupied;
  ASSERT_TRUE(layers.MoveBuilding(1, {0, 0, 2, 2}, &vacated, &occupied).ok());
  EXPECT_EQ(vacated, (CellRect{10, 10, 40, 12}));
  layers.FootprintsOverlapping({33, 0, 34, 64}, &found);
  EXPECT_TRUE(found.empty());
  EXPECT_EQ(layers.RemoveBuilding(7, nullptr).code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace walk::nav::live
