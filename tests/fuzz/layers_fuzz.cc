// Ground layer files (nav/layers/): every input is laid on a copy of the fuzz world
// (fuzz_support.h) as each of the five layer files in turn (zones, roads and hubs as GeoJSON,
// lifts and districts as JSON), through ApplyLayers, as walkgrid layers lays them. A file is
// refused whole, naming it (INVALID_ARGUMENT), and leaves the world as it was; one accepted
// leaves a sound world (every continent finished again, its content id recomputed).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "nav/layers/ground_layers.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace walk;
  const std::string text(fuzz::AsText(data, size));
  for (int kind = 0; kind < 5; ++kind) {
    nav::LayerSources sources;
    std::optional<nav::LayerSource>* slots[] = {&sources.zones, &sources.roads, &sources.hubs,
                                                &sources.lifts, &sources.districts};
    const char* names[] = {"zones.geojson", "roads.geojson", "hubs.geojson", "lifts.json",
                           "districts.json"};
    *slots[kind] = nav::LayerSource{names[kind], text};
    nav::World world = fuzz::FuzzWorld();
    absl::StatusOr<nav::LayersReport> report = nav::ApplyLayers(sources, &world);
    if (!report.ok()) {
      WALK_FUZZ_CHECK(report.status().code() == absl::StatusCode::kInvalidArgument);
      WALK_FUZZ_CHECK(world.content_id == fuzz::FuzzWorld().content_id);
      continue;
    }
    WALK_FUZZ_CHECK(nav::ComputeContentId(world) == world.content_id);
    for (const nav::Continent& c : world.continents) {
      WALK_FUZZ_CHECK(c.region.size() == c.surface_count());
      WALK_FUZZ_CHECK(c.lifts_into.size() == c.lifts.size());
      for (const nav::LiftRide& ride : c.lifts) {
        WALK_FUZZ_CHECK(ride.from < c.surface_count() && ride.to < c.surface_count());
      }
    }
  }
  return 0;
}
