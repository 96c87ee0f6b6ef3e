#include "nav/import/triangle_mesh.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <string_view>

#include "absl/strings/str_cat.h"

namespace walk::nav {

std::uint32_t TriangleMesh::AddVertex(float x, float y, float z) {
  const std::uint32_t index = vertex_count();
  vertices.push_back(x);
  vertices.push_back(y);
  vertices.push_back(z);
  return index;
}

void TriangleMesh::AddTriangle(std::uint32_t a, std::uint32_t b, std::uint32_t c, TriangleTag tag) {
  indices.push_back(a);
  indices.push_back(b);
  indices.push_back(c);
  tags.push_back(tag);
}

void TriangleMesh::AddQuad(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d,
                           TriangleTag tag) {
  AddTriangle(a, b, c, tag);
  AddTriangle(a, c, d, tag);
}

void TriangleMesh::Bounds(float min[3], float max[3]) const {
  if (vertices.empty()) {
    std::fill(min, min + 3, 0.0f);
    std::fill(max, max + 3, 0.0f);
    return;
  }
  for (int axis = 0; axis < 3; ++axis) min[axis] = max[axis] = vertices[axis];
  for (std::size_t i = 0; i < vertices.size(); i += 3) {
    for (int axis = 0; axis < 3; ++axis) {
      min[axis] = std::min(min[axis], vertices[i + axis]);
      max[axis] = std::max(max[axis], vertices[i + axis]);
    }
  }
}

namespace {

// Splits off the next whitespace-separated token of `line`.
std::string_view NextToken(std::string_view& line) {
  std::size_t start = 0;
  while (start < line.size() && std::isspace(static_cast<unsigned char>(line[start]))) ++start;
  std::size_t end = start;
  while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
  const std::string_view token = line.substr(start, end - start);
  line.remove_prefix(end);
  return token;
}

bool ContainsWater(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return lower.find("water") != std::string::npos;
}

bool ParseFloat(std::string_view token, float* value) {
  if (!token.empty() && token.front() == '+') token.remove_prefix(1);
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), *value);
  return error == std::errc() && end == token.data() + token.size() && std::isfinite(*value);
}

}  // namespace

absl::StatusOr<TriangleMesh> ReadObj(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open mesh file ", path));

  TriangleMesh mesh;
  // The names of the current object, group and material: a face is water when one of them says so.
  bool water_object = false, water_group = false, water_material = false;
  std::vector<std::uint32_t> polygon;
  std::string text;
  std::uint64_t line_number = 0;
  auto error = [&](std::string_view what) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ":", line_number, ": ", std::string(what)));
  };
  while (std::getline(in, text)) {
    ++line_number;
    std::string_view line(text);
    const std::string_view keyword = NextToken(line);
    if (keyword == "v") {
      float xyz[3];
      for (float& coordinate : xyz) {
        if (!ParseFloat(NextToken(line), &coordinate)) {
          return error("a vertex needs three finite coordinates");
        }
      }
      mesh.AddVertex(xyz[0], xyz[1], xyz[2]);
    } else if (keyword == "f") {
      polygon.clear();
      for (std::string_view token = NextToken(line); !token.empty(); token = NextToken(line)) {
        const std::string_view vertex = token.substr(0, token.find('/'));
        long long index = 0;
        const auto [end, parse_error] =
            std::from_chars(vertex.data(), vertex.data() + vertex.size(), index);
        if (parse_error != std::errc() || end != vertex.data() + vertex.size() || index == 0) {
          return error(absl::StrCat("bad face vertex '", std::string(token), "'"));
        }
        const long long count = mesh.vertex_count();
        const long long resolved = index > 0 ? index - 1 : count + index;
        if (resolved < 0 || resolved >= count) {
          return error(
              absl::StrCat("face vertex ", index, " does not exist (", count, " vertices so far)"));
        }
        polygon.push_back(static_cast<std::uint32_t>(resolved));
      }
      if (polygon.size() < 3) return error("a face needs at least three vertices");
      TriangleTag tag;
      if (water_object || water_group || water_material) tag.flags = kFlagTerrain | kFlagWater;
      for (std::size_t i = 1; i + 1 < polygon.size(); ++i) {
        mesh.AddTriangle(polygon[0], polygon[i], polygon[i + 1], tag);
      }
    } else if (keyword == "o") {
      water_object = ContainsWater(line);
    } else if (keyword == "g") {
      water_group = ContainsWater(line);
    } else if (keyword == "usemtl") {
      water_material = ContainsWater(line);
    }
    // Everything else (vt, vn, s, mtllib, l, comments) says nothing about where one can stand.
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat("error reading ", path));
  return mesh;
}

}  // namespace walk::nav
