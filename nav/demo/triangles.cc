#include "nav/demo/triangles.h"

#include <cstddef>
#include <utility>

namespace walk::nav::demo {

void AddUp(TriangleMesh& mesh, std::uint32_t a, std::uint32_t b, std::uint32_t c, TriangleTag tag) {
  const float* va = &mesh.vertices[3 * std::size_t{a}];
  const float* vb = &mesh.vertices[3 * std::size_t{b}];
  const float* vc = &mesh.vertices[3 * std::size_t{c}];
  const double e0x = double{vb[0]} - va[0], e0z = double{vb[2]} - va[2];
  const double e1x = double{vc[0]} - va[0], e1z = double{vc[2]} - va[2];
  const double ny = e0z * e1x - e0x * e1z;
  if (ny < 0.0) std::swap(b, c);
  mesh.AddTriangle(a, b, c, tag);
}

std::uint32_t Vertex(TriangleMesh& mesh, Vec2 p, double height) {
  return mesh.AddVertex(static_cast<float>(p.x), static_cast<float>(height),
                        static_cast<float>(p.y));
}

void AddFloorQuad(TriangleMesh& mesh, Vec2 p0, Vec2 p1, Vec2 p2, Vec2 p3, double h0, double h1,
                  double h2, double h3, TriangleTag tag) {
  const std::uint32_t a = Vertex(mesh, p0, h0), b = Vertex(mesh, p1, h1);
  const std::uint32_t c = Vertex(mesh, p2, h2), d = Vertex(mesh, p3, h3);
  AddUp(mesh, a, b, c, tag);
  AddUp(mesh, a, c, d, tag);
}

void AddWall(TriangleMesh& mesh, Vec2 a, Vec2 b, double a_bottom, double b_bottom, double a_top,
             double b_top, TriangleTag tag) {
  const std::uint32_t v0 = Vertex(mesh, a, a_bottom), v1 = Vertex(mesh, b, b_bottom);
  const std::uint32_t v2 = Vertex(mesh, b, b_top), v3 = Vertex(mesh, a, a_top);
  mesh.AddTriangle(v0, v1, v2, tag);
  mesh.AddTriangle(v0, v2, v3, tag);
}

}  // namespace walk::nav::demo
