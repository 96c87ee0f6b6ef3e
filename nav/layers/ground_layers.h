// A world's ground layers laid from their files, all or none: zones, roads, hubs (GeoJSON) and
// lifts (JSON), each file's format in its own header (zone_layer.h, road_layer.h, hub_layer.h,
// lift_layer.h) and one rasterization rule for all (column_raster.h). Every file is read and
// checked before anything changes, so a bad file leaves the world as it was. A layer replaces
// what the world had for it (a zones file replaces every zone, a lifts file every lift); the
// layers not given are left alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/grid/grid.h"
#include "nav/layers/district_layer.h"
#include "nav/layers/lift_layer.h"
#include "nav/layers/zone_layer.h"

namespace walk::nav {

// Where each layer's file is; an empty path leaves that layer as the world has it.
struct LayerFiles {
  std::string zones, roads, hubs, lifts, districts;
  bool empty() const {
    return zones.empty() && roads.empty() && hubs.empty() && lifts.empty() && districts.empty();
  }
};

// A layer file's contents and how messages name it.
struct LayerSource {
  std::string file;  // the path as given: errors name it, the world records its last part
  std::string text;
};

struct LayerSources {
  std::optional<LayerSource> zones, roads, hubs, lifts, districts;
};

// What laying the layers did.
struct LayersReport {
  std::vector<WorldLayer> applied;                // the records now in the world, in laying order
  std::optional<std::vector<ZoneColumns>> zones;  // columns per zone (a zones file)
  std::optional<std::uint64_t> road_columns;      // a roads file
  std::optional<std::uint64_t> hub_a_columns, hub_b_columns;  // a hubs file
  std::optional<std::vector<LiftOutcome>> lifts;  // a lifts file: each lift joined or refused
  std::optional<std::vector<DistrictOutcome>> districts;  // a districts file
};

// Reads the files `files` names. NOT_FOUND naming a file that cannot be read.
absl::StatusOr<LayerSources> ReadLayerFiles(const LayerFiles& files);

// Lays `sources` on `*world`: zones, then roads, then hubs, then lifts (landings are found on
// the world's surfaces, which the others leave in place), then districts (which cut links and
// rides, once: a world that has its districts takes neither districts nor lifts again,
// FAILED_PRECONDITION). Then finishes every continent again
// (regions, the ground kinds a metric bounds its A* by, rides by landing), records each layer
// in world->layers (replacing the record of the same name) and recomputes the content id.
// INVALID_ARGUMENT naming the file, the feature and the field for a bad file or a continent the
// world lacks; `*world` is then unchanged. A lift that cannot be joined is no error: the report
// says why.
absl::StatusOr<LayersReport> ApplyLayers(const LayerSources& sources, World* world);

}  // namespace walk::nav
