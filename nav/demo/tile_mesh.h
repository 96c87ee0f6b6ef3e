// One tile's triangles, made on demand from the demo world's plan, so that a world of any size
// never holds more than one tile's triangles. Internal to nav/demo.
#pragma once

#include <cstdint>

#include "nav/demo/plan.h"
#include "nav/import/triangle_mesh.h"

namespace walk::nav::demo {

// The triangles of tile (tx, ty) (inside the plan's world) and 4 columns around it (the
// voxelizer uses 3 of them for its filters): a quad per column of open ground or water (a mesa's
// raised by its cliff, walled where it faces lower ground), trees, and the buildings, bridge
// decks and lift balconies that reach into it.
TriangleMesh TileMesh(const Plan& plan, std::uint32_t tx, std::uint32_t ty);

}  // namespace walk::nav::demo
