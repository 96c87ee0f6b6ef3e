#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "nav/import/movingai.h"
#include "tests/fuzz/fuzz_support.h"

namespace walk::fuzz {
namespace {

nav::World LoadFuzzWorld() {
  std::ifstream in(WALK_FUZZ_WORLD_MAP, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  absl::StatusOr<nav::MovingAiMap> map = nav::ParseMovingAiMap(text);
  absl::StatusOr<nav::World> world =
      map.ok() ? nav::WorldFromMovingAi(*map) : absl::StatusOr<nav::World>(map.status());
  if (!world.ok()) {
    std::fprintf(stderr, "fuzz world %s: %s\n", WALK_FUZZ_WORLD_MAP,
                 std::string(world.status().message()).c_str());
    std::abort();
  }
  return *std::move(world);
}

}  // namespace

const nav::World& FuzzWorld() {
  static const nav::World* world = new nav::World(LoadFuzzWorld());
  return *world;
}

}  // namespace walk::fuzz
