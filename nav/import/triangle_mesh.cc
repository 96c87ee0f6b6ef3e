#include "nav/import/triangle_mesh.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "nav/grid/number_text.h"

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

// Reads an OBJ text line by line; the first fault ends it, naming the line.
class ObjParser {
 public:
  explicit ObjParser(const std::string& path) : path_(path) {}

  absl::StatusOr<TriangleMesh> Parse(std::string_view text);

 private:
  absl::Status Error(std::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(path_, ":", line_number_, ": ", std::string(what)));
  }
  absl::Status Vertex(std::string_view line);
  absl::Status Face(std::string_view line);

  const std::string& path_;
  std::uint64_t line_number_ = 0;
  TriangleMesh mesh_;
  // The names of the current object, group and material: a face is water when one says so.
  bool water_object_ = false, water_group_ = false, water_material_ = false;
  std::vector<std::uint32_t> polygon_;
};

absl::StatusOr<TriangleMesh> ObjParser::Parse(std::string_view text) {
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text.remove_prefix(newline == std::string_view::npos ? text.size() : newline + 1);
    ++line_number_;
    const std::string_view keyword = NextToken(line);
    absl::Status status;
    if (keyword == "v") {
      status = Vertex(line);
    } else if (keyword == "f") {
      status = Face(line);
    } else if (keyword == "o") {
      water_object_ = ContainsWater(line);
    } else if (keyword == "g") {
      water_group_ = ContainsWater(line);
    } else if (keyword == "usemtl") {
      water_material_ = ContainsWater(line);
    }
    // Everything else (vt, vn, s, mtllib, l, comments) says nothing about where one can stand.
    if (!status.ok()) return status;
  }
  return std::move(mesh_);
}

absl::Status ObjParser::Vertex(std::string_view line) {
  float xyz[3];
  for (float& coordinate : xyz) {
    if (!ParseFloat(NextToken(line), &coordinate)) {
      return Error("a vertex needs three finite coordinates");
    }
    if (std::abs(coordinate) > kMaxObjCoordinateYards) {
      return Error(absl::StrCat("coordinate ", NumberText(coordinate), " lies beyond +-",
                                NumberText(kMaxObjCoordinateYards),
                                " yards, the most a mesh may span"));
    }
  }
  if (mesh_.vertex_count() >= kMaxObjVertices) {
    return Error(
        absl::StrCat("more than ", kMaxObjVertices, " vertices, the most a mesh may have"));
  }
  mesh_.AddVertex(xyz[0], xyz[1], xyz[2]);
  return absl::OkStatus();
}

absl::Status ObjParser::Face(std::string_view line) {
  polygon_.clear();
  const std::uint64_t triangles = mesh_.triangle_count();
  for (std::string_view token = NextToken(line); !token.empty(); token = NextToken(line)) {
    const std::string_view vertex = token.substr(0, token.find('/'));
    long long index = 0;
    const auto [end, parse_error] =
        std::from_chars(vertex.data(), vertex.data() + vertex.size(), index);
    if (parse_error != std::errc() || end != vertex.data() + vertex.size() || index == 0) {
      return Error(absl::StrCat("bad face vertex '", std::string(token), "'"));
    }
    const long long count = mesh_.vertex_count();
    const long long resolved = index > 0 ? index - 1 : count + index;
    if (resolved < 0 || resolved >= count) {
      return Error(
          absl::StrCat("face vertex ", index, " does not exist (", count, " vertices so far)"));
    }
    // A polygon of k vertices is k - 2 triangles: refused as soon as they are too many.
    if (triangles + polygon_.size() >= std::uint64_t{kMaxObjTriangles} + 2) {
      return Error(
          absl::StrCat("more than ", kMaxObjTriangles, " triangles, the most a mesh may have"));
    }
    polygon_.push_back(static_cast<std::uint32_t>(resolved));
  }
  if (polygon_.size() < 3) return Error("a face needs at least three vertices");
  TriangleTag tag;
  if (water_object_ || water_group_ || water_material_) tag.flags = kFlagTerrain | kFlagWater;
  for (std::size_t i = 1; i + 1 < polygon_.size(); ++i) {
    mesh_.AddTriangle(polygon_[0], polygon_[i], polygon_[i + 1], tag);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<TriangleMesh> ParseObj(std::string_view text, const std::string& path) {
  return ObjParser(path).Parse(text);
}

absl::StatusOr<TriangleMesh> ReadObj(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open mesh file ", path));
  const std::streamoff size = in.tellg();
  if (size < 0) return absl::DataLossError(absl::StrCat("error reading ", path));
  if (static_cast<std::uint64_t>(size) > kMaxObjFileBytes) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", size, " bytes, more than the ",
                                                   kMaxObjFileBytes, " an OBJ mesh may have"));
  }
  std::string text(static_cast<std::size_t>(size), '\0');
  in.seekg(0);
  if (!in.read(text.data(), size)) return absl::DataLossError(absl::StrCat("error reading ", path));
  return ParseObj(text, path);
}

}  // namespace walk::nav
