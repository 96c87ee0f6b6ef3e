// The fields of a world that its grid file holds, listed once, in file order (docs/formats.md).
// SaveWorld and LoadWorld (grid_format.cc), ComputeContentId and Continent::MemoryBytes
// (grid.cc) each walk these lists with a visitor, so a field listed here is saved, loaded,
// hashed into the content id (when it decides answers) and counted alike.
//
// The walks take a World or a Continent, const or not (the visitor's members take what they
// need), and call these members of the visitor `v`, in file order:
//
//   v.Part(part, fields)      fields() reads or writes the fields of one GridPart
//   v.Value(x)                a number that decides answers: saved and hashed
//   v.Stored(x)               a number or string saved but not hashed (it decides no answer)
//   v.Note()                  the file's free note of where the grid came from (not in World)
//   v.Count(items)            how many items follow (u32 in the file, u64 in the hash)
//   v.StoredCount(items)      how many items follow, saved but not hashed (a list that decides
//                             no answer: its items' fields are all Stored)
//   v.Items(items, fields)    each item in turn, fields(item) naming its fields; the count
//                             comes from the Count just before (for tiles, before the
//                             SurfaceCount)
//   v.SurfaceCount(c)         continent c's surface count: saved, not hashed (each per-surface
//                             array's length is)
//   v.TileArray(values)       a tile's first_surface: kColumnsPerTile + 1 entries, no count in
//                             the file, its length in the hash
//   v.SurfaceArray(values)    a per-surface array: SurfaceCount entries, no count in the file,
//                             its length in the hash
//
// What the walks leave out is derived, never stored: a surface's column and level, the regions,
// a continent's tile index, its rides by landing and its ground kinds (grid_builder.h,
// FinishContinent).
#pragma once

#include <cstdint>

#include "nav/grid/grid.h"

namespace walk::nav {

// The parts of a grid file, in order. Visitors may act on a part as a whole (the loader names
// the part a truncated file ends in, and checks each part once read).
enum class GridPart : std::uint8_t {
  kHeader,           // the world's column size, its note, how many continents
  kContinentHeader,  // a continent's id and extent, how many tiles and surfaces
  kTiles,            // its tiles: where each lies and which surfaces each column holds
  kSurfaces,         // its per-surface arrays
  kLifts,            // its lift rides
  kZones,            // the world's zones
  kLayers,           // the ground layers it carries (names and files; not hashed)
};

// Walks continent `c`'s fields (see the top of this file). C is Continent or const Continent.
template <typename C, typename Visitor>
void VisitContinentFields(C& c, Visitor& v) {
  v.Part(GridPart::kContinentHeader, [&] {
    v.Value(c.id);
    v.Value(c.origin_column_x);
    v.Value(c.origin_column_y);
    v.Stored(c.source);
    v.Value(c.tiles_x);
    v.Value(c.tiles_y);
    v.Value(c.width_columns);
    v.Value(c.height_columns);
    v.Count(c.tiles);
    v.SurfaceCount(c);
  });
  v.Part(GridPart::kTiles, [&] {
    v.Items(c.tiles, [&](auto& tile) {
      v.Value(tile.tile_x);
      v.Value(tile.tile_y);
      v.TileArray(tile.first_surface);
    });
  });
  v.Part(GridPart::kSurfaces, [&] {
    v.SurfaceArray(c.height_yards);
    v.SurfaceArray(c.headroom_yards);
    v.SurfaceArray(c.flags);
    v.SurfaceArray(c.zone);
    v.SurfaceArray(c.marks);
    v.SurfaceArray(c.links);
  });
  v.Part(GridPart::kLifts, [&] {
    v.Count(c.lifts);
    v.Items(c.lifts, [&](auto& lift) {
      v.Value(lift.from);
      v.Value(lift.to);
      v.Value(lift.shaft_yards);
      v.Value(lift.wait_seconds);
      v.Value(lift.shaft_yards_per_second);
    });
  });
}

// Walks `world`'s fields, its continents' included (see the top of this file). W is World or
// const World. The world's content id is not among them: the file keeps it before them, and it
// is their hash (a continent's through its own content id: ComputeContinentContentId).
template <typename W, typename Visitor>
void VisitWorldFields(W& world, Visitor& v) {
  v.Part(GridPart::kHeader, [&] {
    v.Value(world.column_yards);
    v.Note();
    v.Count(world.continents);
  });
  v.Items(world.continents, [&](auto& continent) { VisitContinentFields(continent, v); });
  v.Part(GridPart::kZones, [&] {
    v.Count(world.zones);
    v.Items(world.zones, [&](auto& zone) {
      v.Value(zone.id);
      // A zone's levels decide only the danger bands' prices, which the model hash keys by the
      // band's danger table (store/model_hash.h): not the grid's content id, so band 0's answers
      // outlive a change of level.
      v.Stored(zone.min_level);
      v.Stored(zone.max_level);
      v.Stored(zone.name);
    });
  });
  v.Part(GridPart::kLayers, [&] {
    v.StoredCount(world.layers);
    v.Items(world.layers, [&](auto& layer) {
      v.Stored(layer.name);
      v.Stored(layer.file);
      v.Stored(layer.hash);
      v.Stored(layer.summary);
    });
  });
}

}  // namespace walk::nav
