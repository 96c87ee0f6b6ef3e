// The demo world's triangle shapes: floor quads turned to face up, and vertical walls, added to
// a tile's TriangleMesh. Internal to nav/demo.
#pragma once

#include <cstdint>

#include "nav/demo/plane.h"
#include "nav/import/triangle_mesh.h"

namespace walk::nav::demo {

// Quads stop this short of column boundaries (yards), so that no column picks up a sliver of its
// neighbour's triangles: Recast would merge their areas, and a road or zone would bleed into the
// next column.
inline constexpr double kInset = 0.04;

// Adds triangle a, b, c turned counter-clockwise seen from above (an upward normal, Recast's
// convention), whichever way it was given.
void AddUp(TriangleMesh& mesh, std::uint32_t a, std::uint32_t b, std::uint32_t c, TriangleTag tag);

// Adds the vertex at plane point p and `height`; returns its index.
std::uint32_t Vertex(TriangleMesh& mesh, Vec2 p, double height);

// A horizontal-ish quad (corners in order round it), as two upward triangles.
void AddFloorQuad(TriangleMesh& mesh, Vec2 p0, Vec2 p1, Vec2 p2, Vec2 p3, double h0, double h1,
                  double h2, double h3, TriangleTag tag);

// A vertical quad from a to b, bottoms and tops given at each end.
void AddWall(TriangleMesh& mesh, Vec2 a, Vec2 b, double a_bottom, double b_bottom, double a_top,
             double b_top, TriangleTag tag);

}  // namespace walk::nav::demo
