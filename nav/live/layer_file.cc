#include "nav/live/layer_file.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace walk::nav::live {
namespace {

// One line's words and how to complain about them.
struct Line {
  std::size_t number = 0;
  std::vector<absl::string_view> words;

  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("layer line ", number, ": ", what));
  }
  absl::Status Expect(std::size_t count, absl::string_view usage) const {
    if (words.size() == count) return absl::OkStatus();
    return Error(absl::StrCat("'", words[0], "' takes ", count - 1, " values: ", usage));
  }
  absl::Status Number(std::size_t k, double* out) const {
    if (!absl::SimpleAtod(words[k], out) || !std::isfinite(*out)) {
      return Error(absl::StrCat("'", words[k], "' is not a number"));
    }
    return absl::OkStatus();
  }
  absl::Status Id(std::size_t k, EntityId* out) const {
    if (!absl::SimpleAtoi(words[k], out)) {
      return Error(absl::StrCat("'", words[k], "' is not an id (unsigned 32-bit)"));
    }
    return absl::OkStatus();
  }
  absl::Status Rect(std::size_t k, WorldRect* out) const {
    for (double* v : {&out->x0, &out->y0, &out->x1, &out->y1}) {
      if (absl::Status s = Number(k++, v); !s.ok()) return s;
    }
    if (out->x1 < out->x0 || out->y1 < out->y0) return Error("rectangle needs X0 <= X1, Y0 <= Y1");
    return absl::OkStatus();
  }
};

// Prefixes a status from Layers with the line.
absl::Status AtLine(const Line& line, const absl::Status& s) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat("layer line ", line.number, ": ", s.message()));
}

absl::Status ApplyLine(const Line& line, bool* placed, Layers* layers) {
  const absl::string_view key = line.words[0];
  if (key == "cell_size") {
    if (absl::Status s = line.Expect(2, "cell_size S"); !s.ok()) return s;
    if (*placed) return line.Error("cell_size must come before any placement");
    double size;
    if (absl::Status s = line.Number(1, &size); !s.ok()) return s;
    if (!(size > 0.0)) return line.Error("cell_size must be positive");
    layers->set_cell_size(size);
    return absl::OkStatus();
  }
  if (key == "origin") {
    if (absl::Status s = line.Expect(3, "origin X Y"); !s.ok()) return s;
    if (*placed) return line.Error("origin must come before any placement");
    WorldPoint origin;
    if (absl::Status s = line.Number(1, &origin.x); !s.ok()) return s;
    if (absl::Status s = line.Number(2, &origin.y); !s.ok()) return s;
    layers->set_origin(origin);
    return absl::OkStatus();
  }
  *placed = true;
  // Rectangles that must cover at least one cell.
  auto covering = [&](const WorldRect& rect, CellRect* cells) {
    *cells = layers->Covering(rect);
    if (cells->empty()) return line.Error("rectangle covers no cell of the map");
    return absl::OkStatus();
  };
  if (key == "ground" || key == "blocked" || key == "mountain" || key == "river" ||
      key == "forest" || key == "road" || key == "bridge" || key == "entrance") {
    if (absl::Status s = line.Expect(5, absl::StrCat(key, " X0 Y0 X1 Y1")); !s.ok()) return s;
    WorldRect rect;
    CellRect cells;
    if (absl::Status s = line.Rect(1, &rect); !s.ok()) return s;
    if (absl::Status s = covering(rect, &cells); !s.ok()) return s;
    if (key == "forest") {
      layers->AddForest(cells);
    } else if (key == "road") {
      layers->AddRoad(cells);
    } else if (key == "bridge" || key == "entrance") {
      layers->AddCrossing(cells,
                          key == "bridge" ? CrossingKind::kBridge : CrossingKind::kHillEntrance);
    } else {
      layers->SetTerrain(cells, key == "ground"     ? CellValue::kWalkable
                                : key == "blocked"  ? CellValue::kBlocked
                                : key == "mountain" ? CellValue::kMountain
                                                    : CellValue::kRiver);
    }
    return absl::OkStatus();
  }
  if (key == "tree" || key == "boulder" || key == "ore") {
    if (absl::Status s = line.Expect(3, absl::StrCat(key, " X Y")); !s.ok()) return s;
    WorldPoint p;
    if (absl::Status s = line.Number(1, &p.x); !s.ok()) return s;
    if (absl::Status s = line.Number(2, &p.y); !s.ok()) return s;
    const Cell c = layers->CellHolding(p);
    if (!layers->InBounds(c)) return line.Error("point is off the map");
    layers->SetResource(layers->Index(c), key == "tree"      ? CellValue::kTree
                                          : key == "boulder" ? CellValue::kBoulder
                                                             : CellValue::kIronOre);
    return absl::OkStatus();
  }
  if (key == "building") {
    if (absl::Status s = line.Expect(6, "building ID X0 Y0 X1 Y1"); !s.ok()) return s;
    EntityId id;
    WorldRect rect;
    if (absl::Status s = line.Id(1, &id); !s.ok()) return s;
    if (absl::Status s = line.Rect(2, &rect); !s.ok()) return s;
    return AtLine(line, layers->AddBuilding(id, rect, nullptr));
  }
  if (key == "gate") {
    if (absl::Status s = line.Expect(8, "gate ID OWNER X0 Y0 X1 Y1 open|shut"); !s.ok()) return s;
    EntityId id, owner;
    WorldRect rect;
    if (absl::Status s = line.Id(1, &id); !s.ok()) return s;
    if (absl::Status s = line.Id(2, &owner); !s.ok()) return s;
    if (absl::Status s = line.Rect(3, &rect); !s.ok()) return s;
    if (line.words[7] != "open" && line.words[7] != "shut") {
      return line.Error(absl::StrCat("gate state '", line.words[7], "' is not open or shut"));
    }
    return AtLine(line, layers->AddGate(id, owner, rect, line.words[7] == "open", nullptr));
  }
  if (key == "gap") {
    if (absl::Status s = line.Expect(6, "gap OWNER X0 Y0 X1 Y1"); !s.ok()) return s;
    EntityId owner;
    WorldRect rect;
    if (absl::Status s = line.Id(1, &owner); !s.ok()) return s;
    if (absl::Status s = line.Rect(2, &rect); !s.ok()) return s;
    return AtLine(line, layers->AddGap(owner, rect, nullptr));
  }
  return line.Error(absl::StrCat("unknown keyword '", key, "'"));
}

}  // namespace

absl::Status ApplyLayerText(absl::string_view text, Layers* layers) {
  bool placed = false;
  std::size_t number = 0;
  for (absl::string_view raw : absl::StrSplit(text, '\n')) {
    ++number;
    const std::size_t hash = raw.find('#');
    if (hash != absl::string_view::npos) raw = raw.substr(0, hash);
    Line line;
    line.number = number;
    line.words = absl::StrSplit(raw, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (line.words.empty()) continue;
    if (absl::Status s = ApplyLine(line, &placed, layers); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ApplyLayerFile(const std::string& path, Layers* layers) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot open"));
  std::ostringstream text;
  text << in.rdbuf();
  absl::Status s = ApplyLayerText(text.str(), layers);
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(path, ": ", s.message()));
}

}  // namespace walk::nav::live
