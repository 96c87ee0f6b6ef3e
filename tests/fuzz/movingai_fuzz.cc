// MovingAI maps and scenarios (nav/import/movingai.h): every input is parsed both as a map and
// as a scenario file. A map of at most 128 x 128 cells is also made into a world.
#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "nav/import/movingai.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace walk;
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<nav::MovingAiMap> map = nav::ParseMovingAiMap(text);
  WALK_FUZZ_CHECK(fuzz::OkOr(map.status(), absl::StatusCode::kInvalidArgument));
  if (map.ok()) {
    const std::uint64_t cells = std::uint64_t{map->width} * map->height;
    WALK_FUZZ_CHECK(map->width >= 1 && map->width <= nav::kMaxMovingAiSide);
    WALK_FUZZ_CHECK(map->height >= 1 && map->height <= nav::kMaxMovingAiSide);
    WALK_FUZZ_CHECK(cells <= nav::kMaxMovingAiCells && map->cells.size() == cells);
    if (map->width <= 128 && map->height <= 128) {
      absl::StatusOr<nav::World> world = nav::WorldFromMovingAi(*map);
      WALK_FUZZ_CHECK(world.ok());
      WALK_FUZZ_CHECK(world->continents.size() == 1);
      WALK_FUZZ_CHECK(world->continents[0].width_columns == map->width);
    }
  }
  absl::StatusOr<nav::ScenarioFile> scenarios = nav::ParseScenarios(text, "fuzz.scen");
  WALK_FUZZ_CHECK(fuzz::OkOr(scenarios.status(), absl::StatusCode::kInvalidArgument));
  if (scenarios.ok()) {
    for (const nav::Scenario& s : scenarios->scenarios) {
      WALK_FUZZ_CHECK(s.start_x < s.map_width && s.goal_x < s.map_width);
      WALK_FUZZ_CHECK(s.start_y < s.map_height && s.goal_y < s.map_height);
      WALK_FUZZ_CHECK(s.optimal_length >= 0.0);
      WALK_FUZZ_CHECK(scenarios->Tolerance(s.optimal_length) > 0.0);
    }
  }
  return 0;
}
