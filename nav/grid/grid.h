// The walking grid: a world of continents, a continent of tiles, a tile of 256 x 256 columns, a
// column a stack of surfaces (lowest first, at most 31), each surface with links to the surfaces
// of its 8 neighbouring columns.
//
// Layout (RoutingKit style, parallel arrays): a continent's surfaces are numbered densely, tile
// by tile (in the order of `tiles`), column by column (row-major inside the tile), lowest level
// first. `Tile::first_surface[c] .. first_surface[c + 1]` are the surfaces of local column c.
// A 2D map is the special case of at most one surface per column; nothing here is 2D-only.
//
// Thread safety: a World is immutable once built or loaded, and safe to share across threads.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "nav/grid/array.h"
#include "nav/grid/ids.h"
#include "nav/grid/surface.h"
#include "nav/grid/world_frame.h"

namespace walk::nav {

// One tile: which surfaces each of its columns holds.
struct Tile {
  std::uint32_t tile_x = 0;  // in tiles, from the continent's origin
  std::uint32_t tile_y = 0;
  // kColumnsPerTile + 1 continent-wide surface ids; column (cx, cy) is index cy * 256 + cx.
  Array<SurfaceId> first_surface;
};

// A lift car's timing where its builder names none: the cost model's (nav/cost/cost_model.h),
// so the demo world's lifts price as they always have.
inline constexpr float kDefaultLiftWaitSeconds = 15.0f;
inline constexpr float kDefaultLiftShaftYardsPerSecond = 4.0f;

// A lift ride: from one landing to another, any two surfaces of the continent (a shaft in one
// column, or a car between two columns: a lifts layer, nav/layers/lift_layer.h). Each direction
// of a lift is its own ride. A ride carries its own timing, which prices it (Metric::LiftSeconds).
struct LiftRide {
  SurfaceId from = kInvalidId;
  SurfaceId to = kInvalidId;
  float shaft_yards = 0.0f;  // the length ridden: the straight line between the landings
  float wait_seconds = kDefaultLiftWaitSeconds;  // waiting for and boarding the car
  float shaft_yards_per_second = kDefaultLiftShaftYardsPerSecond;  // the car's speed (> 0)
};

// A zone: an area with a level range, for danger bands.
struct Zone {
  std::uint16_t id = 0;  // as in Continent::zone; 0 means "no zone"
  std::string name;
  std::uint16_t min_level = 0;
  std::uint16_t max_level = 0;
};

// A ground layer a world carries (nav/layers/): which file it came from. Kept in the grid file
// but not in the content id (what a layer changes, the surfaces' areas and the lifts, is).
struct WorldLayer {
  std::string name;        // "zones", "roads", "hubs" or "lifts"
  std::string file;        // the file's name, as it was given
  std::uint64_t hash = 0;  // a hash of the file's bytes (nav/grid/content_hash.h)
  std::string summary;     // what it laid: "4 zones, 1024 columns"
};

// A landmass. Walks never leave it.
struct Continent {
  ContinentId id = 0;
  // Where its grid lies in the frame its places are named in (nav/grid/world_frame.h): the frame
  // column and row of its column 0. Each continent has its own (a mesh's continent answers in
  // that mesh's coordinates); 0 for MovingAI maps and the demo world.
  std::int64_t origin_column_x = 0;
  std::int64_t origin_column_y = 0;
  // A hash of everything of this continent that decides its answers (ComputeContinentContentId):
  // the store keys its answers by it, so a continent rebuilt alone re-asks only its own walks.
  // Derived, never stored. 0 until computed (AssignContentIds).
  std::uint64_t content_id = 0;
  // Where it was built from ("mesh:Dungeon.obj"): a note for operators, decides no answer.
  std::string source;
  // Tiles along x and y; columns span tiles_x * 256 by tiles_y * 256.
  std::uint32_t tiles_x = 0;
  std::uint32_t tiles_y = 0;
  // The extent that is "on the map", in columns (<= tiles_x * 256, tiles_y * 256). A MovingAI
  // map 49 wide has width_columns 49 inside one tile.
  std::uint32_t width_columns = 0;
  std::uint32_t height_columns = 0;

  std::vector<Tile> tiles;
  // tiles_x * tiles_y entries: index into `tiles`, or kInvalidId where the tile is absent.
  std::vector<std::uint32_t> tile_index;

  // Per surface (parallel arrays, surface_count() entries).
  // (Arrays: their own memory, or a view of a mapped grid image, nav/grid/array.h.)
  Array<float> height_yards;
  Array<float> headroom_yards;  // room above the surface; +inf under open sky
  Array<std::uint8_t> flags;    // SurfaceFlag bits
  Array<std::uint16_t> zone;    // zone id, 0 = none
  Array<std::uint8_t> marks;    // AreaMark bits
  Array<LinkSet> links;
  Array<std::uint16_t> column_x;  // the surface's column, continent-wide
  Array<std::uint16_t> column_y;
  Array<std::uint8_t> level;  // its place in the column's stack, 0 = lowest

  // Lift rides, sorted by `from`, then `to`; both landings of every ride carry kMarkLift.
  std::vector<LiftRide> lifts;
  // Derived (FinishContinent): the indices of `lifts` sorted by `to`, then `from`.
  std::vector<std::uint32_t> lifts_into;

  // Regions: connected sets of surfaces (links taken either way). Computed by ComputeRegions.
  Array<RegionId> region;
  std::vector<std::uint32_t> region_size;  // surfaces per region
  // Which ground kinds occur: bit (flags | (road ? 256 : 0)) is set when some surface has them.
  // Lets a metric know the cheapest ground this continent really has (the A* bound).
  std::array<std::uint64_t, 8> ground_present{};
  // Per block of 16 x 16 columns, how many blocks away the nearest road or lift landing lies
  // (nav/grid/road_distance.h). Derived, like the regions.
  std::vector<std::uint16_t> road_blocks;
  std::uint32_t road_blocks_x = 0;

  std::uint32_t surface_count() const { return static_cast<std::uint32_t>(height_yards.size()); }
  // Its frame, in columns of `column_yards` (the world's).
  WorldFrame Frame(double column_yards) const {
    return {column_yards, origin_column_x, origin_column_y};
  }
  std::uint32_t region_count() const { return static_cast<std::uint32_t>(region_size.size()); }

  // True when column (x, y) lies inside the continent's on-map extent.
  bool OnMap(std::int64_t x, std::int64_t y) const {
    return x >= 0 && y >= 0 && x < width_columns && y < height_columns;
  }

  // The tile holding column (x, y), or nullptr where that tile is absent. (x, y) must be on map.
  const Tile* TileAt(std::uint32_t x, std::uint32_t y) const {
    const std::uint32_t t = tile_index[(y / kTileColumns) * tiles_x + x / kTileColumns];
    return t == kInvalidId ? nullptr : &tiles[t];
  }

  // The surfaces of column (x, y): [*first, *end). Empty where the tile is absent.
  void ColumnSurfaces(std::uint32_t x, std::uint32_t y, SurfaceId* first, SurfaceId* end) const {
    const Tile* tile = TileAt(x, y);
    if (tile == nullptr) {
      *first = *end = 0;
      return;
    }
    const std::uint32_t c = (y % kTileColumns) * kTileColumns + x % kTileColumns;
    *first = tile->first_surface[c];
    *end = tile->first_surface[c + 1];
  }

  // The surface a link of `from` in `direction` leads to. The link must exist.
  SurfaceId LinkTarget(SurfaceId from, int direction) const {
    const std::uint32_t nx = static_cast<std::uint32_t>(column_x[from] + kDirectionDx[direction]);
    const std::uint32_t ny = static_cast<std::uint32_t>(column_y[from] + kDirectionDy[direction]);
    const Tile& tile = tiles[tile_index[(ny / kTileColumns) * tiles_x + nx / kTileColumns]];
    return tile.first_surface[(ny % kTileColumns) * kTileColumns + nx % kTileColumns] +
           LinkLevel(links[from][direction]);
  }

  // The lift rides leaving `from` (a surface marked kMarkLift): [*first, *end) of `lifts`.
  void LiftsFrom(SurfaceId from, const LiftRide** first, const LiftRide** end) const;
  // The lift rides arriving at `to`: [*first, *end) of `lifts_into`, indices into `lifts`.
  void LiftsInto(SurfaceId to, const std::uint32_t** first, const std::uint32_t** end) const;
  // The ride from `from` to `to`, or nullptr.
  const LiftRide* FindRide(SurfaceId from, SurfaceId to) const;

  // Columns with at least one surface, and the most surfaces in one column.
  std::uint64_t CountColumns() const;
  std::uint32_t MaxFloors() const;
  // Bytes held by the arrays above.
  std::uint64_t MemoryBytes() const;
};

// A world: continents sharing one column size.
struct World {
  // Width of a column, yards. MovingAI maps use 1 (one cell, one yard).
  double column_yards = 1.0;
  std::vector<Continent> continents;  // sorted by id, ids unique
  std::vector<Zone> zones;            // sorted by id, ids unique, none is 0
  // The ground layers applied to it, in the order they were first applied (one per name).
  std::vector<WorldLayer> layers;
  // A hash of everything above that decides answers: the column size, every continent's content
  // id and the zones (ComputeContentId). 0 until computed.
  std::uint64_t content_id = 0;

  // The continent with that id, or nullptr.
  const Continent* FindContinent(ContinentId id) const;
  // The zone with that id, or nullptr.
  const Zone* FindZone(std::uint16_t id) const;
  // The frame continent `c` (one of this world's) names its places in.
  WorldFrame FrameOf(const Continent& c) const { return c.Frame(column_yards); }
  std::uint64_t MemoryBytes() const;
};

// The hash of everything of continent `c` that decides its answers: the column size, its id,
// origin, extent, tiles, surfaces (heights, headroom, flags, areas), links and lifts. Regions are
// derived from links and are not hashed. The world's name and where it was read from are not in
// it, nor any other continent.
std::uint64_t ComputeContinentContentId(const Continent& c, double column_yards);

// The hash of everything in `world` that decides answers: the column size, each continent's
// content id (computed afresh) and the zones' ids.
std::uint64_t ComputeContentId(const World& world);

// Sets every continent's content id and the world's.
void AssignContentIds(World& world);

// Formats a 64-bit id as 16 lower-case hex digits.
std::string FormatId(std::uint64_t id);

}  // namespace walk::nav
