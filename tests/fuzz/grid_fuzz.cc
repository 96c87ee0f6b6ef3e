// Grid files (nav/grid/grid_format.h): ParseGrid, as LoadWorld reads grid.walkgrid. A world it
// accepts must be what the file says: every derived array sized, and saved again, the same
// content id.
#include <cstddef>
#include <cstdint>
#include <string>

#include "nav/grid/grid_format.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace walk;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<nav::LoadedWorld> loaded = nav::ParseGrid(bytes, "fuzz/grid.walkgrid");
  if (!loaded.ok()) {
    const absl::StatusCode code = loaded.status().code();
    WALK_FUZZ_CHECK(code == absl::StatusCode::kDataLoss ||
                    code == absl::StatusCode::kFailedPrecondition);
    return 0;
  }
  const nav::World& world = loaded->world;
  WALK_FUZZ_CHECK(nav::ComputeContentId(world) == world.content_id);
  for (const nav::Continent& c : world.continents) {
    WALK_FUZZ_CHECK(c.region.size() == c.surface_count());
    WALK_FUZZ_CHECK(c.column_x.size() == c.surface_count());
    WALK_FUZZ_CHECK(c.tile_index.size() == std::size_t{c.tiles_x} * c.tiles_y);
  }
  return 0;
}
