// The navmesh formats: a built navmesh written as an all-tiles file and as an mmaps folder reads
// back the same, and damaged or foreign files are refused naming the file and what is wrong.
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "DetourNavMesh.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nav/navmesh/mmaps_folder.h"
#include "nav/navmesh/mset_file.h"
#include "nav/navmesh/navmesh_builder.h"
#include "nav/navmesh/world_navmesh.h"

namespace walk::nav {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;

// A flat 40 x 40 yard floor: 2 x 2 tiles of 32 yards at the default options.
TriangleMesh Floor() {
  TriangleMesh mesh;
  const std::uint32_t a = mesh.AddVertex(0, 0, 0), b = mesh.AddVertex(0, 0, 40),
                      c = mesh.AddVertex(40, 0, 40), d = mesh.AddVertex(40, 0, 0);
  mesh.AddQuad(a, b, c, d, TriangleTag{});
  return mesh;
}

std::string ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void WriteBytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

template <typename T>
void Poke(std::string* bytes, std::size_t offset, T value) {
  std::memcpy(bytes->data() + offset, &value, sizeof value);
}

class NavMeshFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("navmesh_format_test." + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    absl::StatusOr<NavMesh> built = BuildNavMesh(Floor(), NavMeshBuildOptions{});
    ASSERT_TRUE(built.ok()) << built.status();
    built_.emplace(*std::move(built));
    ASSERT_EQ(built_->tile_count(), 4u);
    ASSERT_GT(built_->polygon_count(), 0u);
    ASSERT_TRUE(WriteMsetFile(*built_, (dir_ / "all.bin").string()).ok());
    ASSERT_TRUE(WriteMmapsFolder(*built_, (dir_ / "mmaps").string()).ok());
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Refusal of the all-tiles file after `damage`: INVALID_ARGUMENT naming the file and `why`.
  void ExpectMsetRefused(const std::function<void(std::string*)>& damage, const std::string& why) {
    std::string bytes = ReadBytes(dir_ / "all.bin");
    damage(&bytes);
    const fs::path bad = dir_ / "bad.bin";
    WriteBytes(bad, bytes);
    absl::StatusOr<NavMesh> read = ReadMsetFile(bad.string());
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(read.status().message()),
                AllOf(HasSubstr(bad.string()), HasSubstr(why)));
  }
  // The same for the first .mmtile of the mmaps folder.
  void ExpectTileRefused(const std::function<void(std::string*)>& damage, const std::string& why) {
    const fs::path tile = dir_ / "mmaps" / "0000000.mmtile";
    std::string bytes = ReadBytes(tile);
    ASSERT_FALSE(bytes.empty());
    damage(&bytes);
    WriteBytes(tile, bytes);
    absl::StatusOr<NavMesh> read = ReadMmapsFolder((dir_ / "mmaps").string());
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(std::string(read.status().message()),
                AllOf(HasSubstr(tile.string()), HasSubstr(why)));
  }

  fs::path dir_;
  std::optional<NavMesh> built_;
};

TEST_F(NavMeshFormatTest, BothFormatsReadBackTheSameNavMesh) {
  absl::StatusOr<NavMesh> mset = ReadMsetFile((dir_ / "all.bin").string());
  ASSERT_TRUE(mset.ok()) << mset.status();
  absl::StatusOr<NavMesh> mmaps = ReadMmapsFolder((dir_ / "mmaps").string());
  ASSERT_TRUE(mmaps.ok()) << mmaps.status();
  for (const NavMesh* read : {&*mset, &*mmaps}) {
    EXPECT_EQ(read->tile_count(), built_->tile_count());
    EXPECT_EQ(read->polygon_count(), built_->polygon_count());
    EXPECT_EQ(read->off_mesh_count(), 0u);
    EXPECT_EQ(read->content_hash(), built_->content_hash());
  }
  EXPECT_TRUE(fs::exists(dir_ / "mmaps" / "000.mmap"));
  EXPECT_TRUE(fs::exists(dir_ / "mmaps" / "0000101.mmtile"));  // tile x 1, y 1
}

TEST_F(NavMeshFormatTest, ContentHashSeesTheTiles) {
  TriangleMesh mesh = Floor();
  mesh.vertices[1] = 1.0f;  // one corner raised: other polygons, heights, hash
  absl::StatusOr<NavMesh> other = BuildNavMesh(mesh, NavMeshBuildOptions{});
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_NE(other->content_hash(), built_->content_hash());
}

TEST_F(NavMeshFormatTest, WorldFolderHoldsOneFormat) {
  const std::string world = (dir_ / "world").string();
  ASSERT_TRUE(SaveWorldNavMesh(*built_, world, NavMeshFormat::kMset).ok());
  ASSERT_TRUE(SaveWorldNavMesh(*built_, world, NavMeshFormat::kMmaps).ok());
  EXPECT_FALSE(fs::exists(fs::path(world) / kWorldMsetFile));
  NavMeshFormat format = NavMeshFormat::kMset;
  absl::StatusOr<std::optional<NavMesh>> loaded = LoadWorldNavMesh(world, &format);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_TRUE(loaded->has_value());
  EXPECT_EQ(format, NavMeshFormat::kMmaps);
  EXPECT_EQ((*loaded)->content_hash(), built_->content_hash());
  absl::StatusOr<std::optional<NavMesh>> none = LoadWorldNavMesh((dir_ / "empty").string());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
}

TEST_F(NavMeshFormatTest, MsetRefusesBadMagic) {
  ExpectMsetRefused([](std::string* b) { (*b)[0] = 'X'; }, "bad magic");
}

TEST_F(NavMeshFormatTest, MsetRefusesOtherVersion) {
  ExpectMsetRefused([](std::string* b) { Poke<std::int32_t>(b, 4, 2); }, "all-tiles version 2");
}

TEST_F(NavMeshFormatTest, MsetRefusesOversizedTileCount) {
  ExpectMsetRefused([](std::string* b) { Poke<std::int32_t>(b, 8, 1 << 30); }, "tile count");
}

TEST_F(NavMeshFormatTest, MsetRefusesHostileMaxTilesBeforeAllocating) {
  // maxTiles is the 6th 4-byte field of the 40-byte header (after magic, version, count, origin).
  ExpectMsetRefused([](std::string* b) { Poke<std::int32_t>(b, 32, 1 << 30); }, "maxTiles");
}

TEST_F(NavMeshFormatTest, MsetRefusesTruncatedTile) {
  ExpectMsetRefused([](std::string* b) { b->resize(b->size() - 10); }, "truncated tile");
}

TEST_F(NavMeshFormatTest, MsetRefusesTileSizeBeyondTheFile) {
  // The first tile's data size (after its 4-byte ref) claims 2 GB.
  ExpectMsetRefused([](std::string* b) { Poke<std::int32_t>(b, 44, 0x7fffffff); },
                    "truncated tile");
}

TEST_F(NavMeshFormatTest, MsetRefusesCountsTheTileCannotHold) {
  // The first tile's Detour header: vertCount (offset 28 in dtMeshHeader) far past its bytes.
  ExpectMsetRefused([](std::string* b) { Poke<std::int32_t>(b, 48 + 28, 1 << 24); },
                    "its header needs");
}

TEST_F(NavMeshFormatTest, MsetRefusesPolygonNamingAMissingVertex) {
  ExpectMsetRefused(
      [](std::string* b) {
        // The first tile's data starts at 48; its polygons after the header and the vertices.
        std::int32_t vert_count;
        std::memcpy(&vert_count, b->data() + 48 + offsetof(dtMeshHeader, vertCount),
                    sizeof vert_count);
        const std::size_t polys = 48 + ((sizeof(dtMeshHeader) + 3) & ~std::size_t{3}) +
                                  ((12 * std::size_t(vert_count) + 3) & ~std::size_t{3});
        Poke<std::uint16_t>(b, polys + offsetof(dtPoly, verts), 60000);
      },
      "polygon 0 names vertex 60000");
}

// Where the arrays of the all-tiles file's first tile begin (its data starts at byte 48).
struct FirstTile {
  explicit FirstTile(const std::string& b) {
    std::memcpy(&header, b.data() + 48, sizeof header);
    auto align = [](std::size_t n) { return (n + 3) & ~std::size_t{3}; };
    verts = 48 + align(sizeof(dtMeshHeader));
    polys = verts + align(12 * std::size_t(header.vertCount));
    details = polys + align(sizeof(dtPoly) * header.polyCount) +
              align(sizeof(dtLink) * header.maxLinkCount);
    detail_tris = details + align(sizeof(dtPolyDetail) * header.detailMeshCount) +
                  align(12 * std::size_t(header.detailVertCount));
  }
  dtMeshHeader header;
  std::size_t verts, polys, details, detail_tris;
};

TEST_F(NavMeshFormatTest, MsetRefusesAVertexThatIsNotAFiniteNumberInRange) {
  ExpectMsetRefused([](std::string* b) { Poke<float>(b, FirstTile(*b).verts + 4, std::nanf("")); },
                    "vertex 0 has coordinate nan");
  ExpectMsetRefused([](std::string* b) { Poke<float>(b, FirstTile(*b).verts + 12, 1e30f); },
                    "vertex 1 has coordinate 1e+30");
  ExpectMsetRefused([](std::string* b) { Poke<float>(b, 48 + offsetof(dtMeshHeader, bmax), 1e9f); },
                    "bounds");
}

// Detour's closestPointOnPoly reads through a null pointer for a polygon whose detail mesh has no
// edge on the polygon's boundary (the fuzzer's first find): such a tile is refused.
TEST_F(NavMeshFormatTest, MsetRefusesADetailMeshWithoutABoundaryEdge) {
  ExpectMsetRefused(
      [](std::string* b) {
        const FirstTile tile(*b);
        dtPolyDetail detail;
        std::memcpy(&detail, b->data() + tile.details, sizeof detail);
        for (unsigned t = 0; t < detail.triCount; ++t) {
          (*b)[tile.detail_tris + 4 * (detail.triBase + t) + 3] = 0;  // the edge flags
        }
      },
      "polygon 0's detail mesh has no triangle on its boundary");
  ExpectMsetRefused(
      [](std::string* b) {
        Poke<unsigned char>(b, FirstTile(*b).details + offsetof(dtPolyDetail, triCount), 0);
      },
      "polygon 0's detail mesh has no triangle on its boundary");
}

// Detour's addTile writes the link before the array when a tile has room for none, into the
// tile's header or last polygon (the fuzzer's second find): refused.
TEST_F(NavMeshFormatTest, MsetRefusesATileWithoutRoomForALink) {
  ExpectMsetRefused(
      [](std::string* b) { Poke<std::int32_t>(b, 48 + offsetof(dtMeshHeader, maxLinkCount), 0); },
      "room for no link");
}

// A tile's position must agree with the navmesh's parameters: a tile placed where no walk can
// reach (the hostile probe's 2^31 - 1, -2^31), or whose own bounds lie away from the cell its
// position names (Detour would look for its polygons there: walks near them came back OFF_MAP),
// is refused naming the tile and its position.
void PlaceTile(std::string* bytes, std::size_t data_at, std::int32_t x, std::int32_t y) {
  Poke<std::int32_t>(bytes, data_at + offsetof(dtMeshHeader, x), x);
  Poke<std::int32_t>(bytes, data_at + offsetof(dtMeshHeader, y), y);
}

TEST_F(NavMeshFormatTest, MsetRefusesATilePlacedBeyondTheNavMeshesReach) {
  ExpectMsetRefused([](std::string* b) { PlaceTile(b, 48, INT32_MAX, INT32_MIN); },
                    "tile 0: position 2147483647,-2147483648 puts its cell at x ");
}

TEST_F(NavMeshFormatTest, MsetRefusesATileWhoseBoundsLieOutsideItsCell) {
  // Tile 0,0 moved to the free position 5,0: its bounds stay where tile 0,0 lies.
  ExpectMsetRefused([](std::string* b) { PlaceTile(b, 48, 5, 0); },
                    "tile 0: position 5,0 names the cell x 160 .. 192, z 0 .. 32 yards, but the "
                    "tile's bounds are x 0 .. 32, z 0 .. 32");
}

TEST_F(NavMeshFormatTest, MmtileRefusesATilePlacedBeyondTheNavMeshesReach) {
  ExpectTileRefused([](std::string* b) { PlaceTile(b, 20, INT32_MAX, INT32_MIN); },
                    "position 2147483647,-2147483648 puts its cell at x ");
}

TEST_F(NavMeshFormatTest, MmtileRefusesATileWhoseBoundsLieOutsideItsCell) {
  ExpectTileRefused([](std::string* b) { PlaceTile(b, 20, 0, -3); },
                    "position 0,-3 names the cell x 0 .. 32, z -96 .. -64 yards, but the tile's "
                    "bounds are x 0 .. 32, z 0 .. 32");
}

TEST_F(NavMeshFormatTest, MmtileRefusesBadMagic) {
  ExpectTileRefused([](std::string* b) { (*b)[0] = 'X'; }, "bad magic");
}

TEST_F(NavMeshFormatTest, MmtileDetourVersionMismatchSaysBothVersions) {
  ExpectTileRefused([](std::string* b) { Poke<std::uint32_t>(b, 4, 6); },
                    "built for version 6, this walkd reads version 7");
}

TEST_F(NavMeshFormatTest, TileDataOfAnotherDetourVersionSaysBoth) {
  // The Detour tile header's own version (after its magic), inside the .mmtile's data.
  ExpectTileRefused([](std::string* b) { Poke<std::int32_t>(b, 20 + 4, 8); },
                    "the tile is version 8, this walkd reads version 7");
}

TEST_F(NavMeshFormatTest, MmtileRefusesSizeMismatch) {
  ExpectTileRefused([](std::string* b) { b->push_back('\0'); }, "size mismatch");
}

TEST_F(NavMeshFormatTest, MmtileRefusesTruncatedHeader) {
  ExpectTileRefused([](std::string* b) { b->resize(12); }, "truncated");
}

TEST_F(NavMeshFormatTest, MmapRefusesWrongSize) {
  const fs::path mmap = dir_ / "mmaps" / "000.mmap";
  WriteBytes(mmap, ReadBytes(mmap) + "xx");
  absl::StatusOr<NavMesh> read = ReadMmapsFolder((dir_ / "mmaps").string());
  ASSERT_FALSE(read.ok());
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(read.status().message()),
              AllOf(HasSubstr(mmap.string()), HasSubstr("30 bytes")));
}

TEST_F(NavMeshFormatTest, MissingFilesAreNotFound) {
  EXPECT_EQ(ReadMsetFile((dir_ / "nothing.bin").string()).status().code(),
            absl::StatusCode::kNotFound);
  EXPECT_EQ(ReadMmapsFolder((dir_ / "nothing").string()).status().code(),
            absl::StatusCode::kNotFound);
}

TEST_F(NavMeshFormatTest, FilesLargerThanTheLimitsAreRefusedUnread) {
  // Sparse files: their size is refused before a byte is read (and no disk is used).
  const fs::path all = dir_ / "huge.bin";
  WriteBytes(all, ReadBytes(dir_ / "all.bin"));
  fs::resize_file(all, kMaxMsetFileBytes + 1);
  absl::StatusOr<NavMesh> read = ReadMsetFile(all.string());
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(read.status().message()),
              AllOf(HasSubstr(all.string()), HasSubstr("1073741825 bytes")));
  const fs::path tile = dir_ / "mmaps" / "0000000.mmtile";
  fs::resize_file(tile, kMaxMmapTileBytes + 1);
  read = ReadMmapsFolder((dir_ / "mmaps").string());
  EXPECT_EQ(read.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(read.status().message()),
              AllOf(HasSubstr(tile.string()), HasSubstr("67108865 bytes")));
}

TEST(NavMeshNoteTest, ReadsANoteAndRefusesWhatIsNotOne) {
  absl::StatusOr<NavMeshNote> note =
      ParseNavMeshNote(R"({"content_hash": "00ff00ff00ff00ff", "continent": 3, "format": "mmaps",)"
                       R"( "tiles": 4, "polygons": 12})",
                       "w/navmesh.json");
  ASSERT_TRUE(note.ok()) << note.status();
  ASSERT_EQ(note->maps.size(), 1u);  // the one-map form: map 0
  EXPECT_EQ(note->maps[0].map, 0u);
  EXPECT_EQ(note->maps[0].content_hash, 0x00ff00ff00ff00ffu);
  EXPECT_EQ(note->maps[0].continent, 3u);
  EXPECT_EQ(note->maps[0].tiles, 4u);
  EXPECT_EQ(note->ContinentOf(0), 3u);
  EXPECT_EQ(note->ContinentOf(7), 7u);  // a map it does not name walks its own number
  // The maps form: each map on a continent, the hash optional, the continent its number unless
  // given.
  note = ParseNavMeshNote(R"({"format": "mmaps", "maps": [{"map": 1, "continent": 0},)"
                          R"( {"map": 530, "content_hash": "00000000000000aa"}]})",
                          "w/navmesh.json");
  ASSERT_TRUE(note.ok()) << note.status();
  ASSERT_EQ(note->maps.size(), 2u);
  EXPECT_EQ(note->ContinentOf(1), 0u);
  EXPECT_EQ(note->ContinentOf(530), 530u);
  EXPECT_EQ(note->maps[1].content_hash, 0xaau);
  EXPECT_EQ(note->ContinentOf(0), 0u);
  for (const std::string bad :
       {R"({"content_hash": "0x0000000000000f"})", R"({"content_hash": "-000000000000001"})",
        R"({"content_hash": " 00000000000000f"})",
        R"({"content_hash": "00ff00ff00ff00ff", "tiles": 4294967296})",
        R"({"content_hash": "00ff00ff00ff00ff", "continent": -1})", R"([[[[]]]])", "{", "",
        R"({"maps": 3})", R"({"maps": [{"map": 1}, {"map": 1}]})",
        R"({"maps": [{"map": 1, "content_hash": "12"}]})", R"({"maps": [{"map": -2}]})"}) {
    absl::StatusOr<NavMeshNote> refused = ParseNavMeshNote(bad, "w/navmesh.json");
    EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(std::string(refused.status().message()), HasSubstr("w/navmesh.json")) << bad;
  }
  EXPECT_FALSE(ParseNavMeshNote(std::string(kMaxNavMeshNoteBytes + 1, ' '), "n").ok());
}

}  // namespace
}  // namespace walk::nav
