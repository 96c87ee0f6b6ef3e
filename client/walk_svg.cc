#include "client/walk_svg.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <unordered_map>

#include "absl/strings/str_cat.h"

namespace walk::client {
namespace {

using walk::v1::Column;
using walk::v1::FloorsResponse;
using walk::v1::PathResponse;

constexpr double kMapPx = 900.0;     // the map's longer side
constexpr double kCaptionPx = 40.0;  // the caption's strip under everything
constexpr double kGapPx = 12.0;      // between the map and the legend
constexpr double kZoneTintOpacity = 0.2;

bool Has(const google::protobuf::RepeatedPtrField<std::string>& list, const char* name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// A column's kind of ground, by its top surface; the legend lists them in this order.
enum Ground : int {
  kPlain,
  kForest,
  kRoad,
  kBuilding,
  kWater,
  kSteep,
  kClimb,
  kHubA,
  kHubB,
  kNoSurface,
  kGroundCount
};

struct GroundStyle {
  const char* colour;
  const char* label;
};

constexpr std::array<GroundStyle, kGroundCount> kGroundStyles = {{
    {"#b9d99a", "plain ground"},
    {"#6f9e5a", "forest"},
    {"#d8c08a", "road"},
    {"#a7a3a0", "building / indoor"},
    {"#6fa8dc", "water"},
    {"#e6a05a", "steep"},
    {"#c0504d", "climb"},
    {"#9fc5e8", "hub of faction A"},
    {"#ea9999", "hub of faction B"},
    {"#3b3b3b", "no surface (wall, tree, void)"},
}};

// Later rules win: a hub's mark shows over whatever ground it is on, as it matters most to a
// faction's walk.
Ground GroundOf(const Column& column) {
  if (column.floors_size() == 0) return kNoSurface;
  const walk::v1::Floor& top = column.floors(column.floors_size() - 1);
  Ground ground = kPlain;
  if (Has(top.flags(), "forest")) ground = kForest;
  if (Has(top.marks(), "road")) ground = kRoad;
  if (Has(top.flags(), "building") || Has(top.flags(), "indoor")) ground = kBuilding;
  if (Has(top.flags(), "water")) ground = kWater;
  if (Has(top.flags(), "steep")) ground = kSteep;
  if (Has(top.flags(), "climb")) ground = kClimb;
  if (Has(top.marks(), "hub_a")) ground = kHubA;
  if (Has(top.marks(), "hub_b")) ground = kHubB;
  return ground;
}

bool IsLiftLanding(const Column& column) {
  for (const auto& floor : column.floors()) {
    if (Has(floor.marks(), "lift")) return true;
  }
  return false;
}

// The zone of a column's top surface; -1 where nothing stands.
int TopZone(const Column& column) {
  if (column.floors_size() == 0) return -1;
  return static_cast<int>(column.floors(column.floors_size() - 1).zone());
}

std::string Escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '<')
      out += "&lt;";
    else if (ch == '>')
      out += "&gt;";
    else if (ch == '&')
      out += "&amp;";
    else if (ch == '"')
      out += "&quot;";
    else
      out += ch;
  }
  return out;
}

std::string Px(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", value);
  return text;
}

// "x20", "x3".
std::string Times(double multiplier) {
  char text[32];
  std::snprintf(text, sizeof text, "x%g", multiplier);
  return text;
}

// World yards to the map's pixels. The map fills the drawing's top left; yards keep their
// sign in the world's frame, and only the box's corner is subtracted.
struct Frame {
  double column_yards = 1.0;
  std::uint32_t stride = 1;
  double min_x = 0.0, min_y = 0.0;
  double scale = 1.0;  // pixels per yard
  double width_px = 0.0, height_px = 0.0;

  double X(double x_yards) const { return (x_yards - min_x) * scale; }
  double Y(double y_yards) const { return (y_yards - min_y) * scale; }
  double Left(const Column& c) const { return X(static_cast<double>(c.column_x()) * column_yards); }
  double Top(const Column& c) const { return Y(static_cast<double>(c.column_y()) * column_yards); }
  double CellPx() const { return stride * column_yards * scale; }
};

// The box of the ground and the path, scaled so its longer side is kMapPx.
Frame FrameOf(const PathResponse& path, const FloorsResponse& ground, std::uint32_t stride) {
  Frame f;
  f.column_yards = ground.column_yards() > 0 ? ground.column_yards() : 1.0;
  f.stride = std::max<std::uint32_t>(stride, 1);
  double min_x = std::numeric_limits<double>::max(), min_y = min_x;
  double max_x = std::numeric_limits<double>::lowest(), max_y = max_x;
  auto extend = [&](double x, double y) {
    min_x = std::min(min_x, x);
    min_y = std::min(min_y, y);
    max_x = std::max(max_x, x);
    max_y = std::max(max_y, y);
  };
  for (const auto& c : ground.columns()) {
    // Signed arithmetic: column numbers are negative where the world's frame is.
    const double x = static_cast<double>(c.column_x()) * f.column_yards;
    const double y = static_cast<double>(c.column_y()) * f.column_yards;
    extend(x, y);
    extend(x + f.stride * f.column_yards, y + f.stride * f.column_yards);
  }
  for (const auto& p : path.points()) extend(p.x_yards(), p.y_yards());
  if (min_x > max_x) min_x = min_y = 0, max_x = max_y = 1;
  const double longer = std::max(max_x - min_x, max_y - min_y);
  f.min_x = min_x;
  f.min_y = min_y;
  f.scale = kMapPx / (longer > 0 ? longer : 1.0);
  f.width_px = (max_x - min_x) * f.scale;
  f.height_px = (max_y - min_y) * f.scale;
  return f;
}

// Path data covering the columns by key: one rectangle per run of neighbouring columns of equal
// key along a row (Floors lists columns row by row). Columns keyed -1 are left out.
std::map<int, std::string> RunPaths(const FloorsResponse& ground, const Frame& f,
                                    const std::vector<int>& keys) {
  std::map<int, std::string> paths;
  const auto& columns = ground.columns();
  const double cell = f.CellPx();
  int i = 0;
  while (i < columns.size()) {
    int j = i + 1;
    while (j < columns.size() && keys[j] == keys[i] &&
           columns[j].column_y() == columns[i].column_y() &&
           static_cast<std::int64_t>(columns[j].column_x()) ==
               static_cast<std::int64_t>(columns[j - 1].column_x()) + f.stride) {
      ++j;
    }
    if (keys[i] >= 0) {
      // A hair wider and taller than the run, so neighbouring runs leave no seam.
      const double width = cell * (j - i) + 0.05;
      absl::StrAppend(&paths[keys[i]], "M", Px(f.Left(columns[i])), " ", Px(f.Top(columns[i])), "h",
                      Px(width), "v", Px(cell + 0.05), "h-", Px(width), "z");
    }
    i = j;
  }
  return paths;
}

// A zone as this drawing shows it.
struct ZoneShown {
  DrawZone zone;
  bool known = false;    // in DrawOptions.zones: its name and levels are known
  bool exempt = false;   // an end's zone: the walk pays no danger in it
  bool hatched = false;  // the band prices it and it is not exempt
  std::string tint;
  std::string hatch;  // the pattern's id when hatched
};

constexpr std::array<const char*, 8> kZoneTints = {"#8e7cc3", "#f1c232", "#45818e", "#c27ba0",
                                                   "#3d85c6", "#e69138", "#6aa84f", "#a61c00"};

// The zones on top surfaces of the ground, and the ends' zones, by id. Tints go by rank, not by
// id, so the few zones of one drawing get different ones.
std::vector<ZoneShown> ZonesShown(const PathResponse& path, const FloorsResponse& ground,
                                  const DrawOptions& options) {
  std::map<std::uint32_t, ZoneShown> shown;
  for (const auto& c : ground.columns()) {
    if (const int zone = TopZone(c); zone > 0) shown[static_cast<std::uint32_t>(zone)];
  }
  std::vector<std::uint32_t> exempt;
  const walk::v1::WalkResponse& walk = path.walk();
  if (walk.has_from_end() && walk.from_end().zone() != 0) exempt.push_back(walk.from_end().zone());
  if (walk.has_to_end() && walk.to_end().zone() != 0) exempt.push_back(walk.to_end().zone());
  for (std::uint32_t id : exempt) shown[id].exempt = true;
  for (const DrawZone& zone : options.zones) {
    if (auto it = shown.find(zone.id); it != shown.end()) {
      it->second.zone = zone;
      it->second.known = true;
    }
  }
  std::vector<ZoneShown> zones;
  for (auto& [id, z] : shown) {
    z.zone.id = id;
    if (!z.known) z.zone.multiplier = 1.0;
    z.hatched = options.prices_danger && z.zone.multiplier > 1.0 && !z.exempt;
    if (z.hatched) z.hatch = z.zone.multiplier >= 10.0 ? "danger-high" : "danger-mid";
    z.tint = kZoneTints[zones.size() % kZoneTints.size()];
    zones.push_back(z);
  }
  return zones;
}

// The hatching of priced zones, denser for the higher multiplier, and the lift landing's symbol.
void WriteDefs(std::ostringstream& svg) {
  svg << "<defs>\n"
         "<pattern id=\"danger-mid\" width=\"10\" height=\"10\" patternUnits=\"userSpaceOnUse\" "
         "patternTransform=\"rotate(45)\"><rect width=\"1.5\" height=\"10\" fill=\"#cc0000\" "
         "fill-opacity=\"0.55\"/></pattern>\n"
         "<pattern id=\"danger-high\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
         "patternTransform=\"rotate(45)\"><rect width=\"1.5\" height=\"6\" fill=\"#cc0000\" "
         "fill-opacity=\"0.65\"/></pattern>\n"
         "<g id=\"lift-landing\"><rect x=\"-6\" y=\"-6\" width=\"12\" height=\"12\" rx=\"2\" "
         "fill=\"#444444\" stroke=\"white\" stroke-width=\"1.5\"/><path d=\"M-3.5 -1L0 "
         "-4.5L3.5 -1ZM-3.5 1L0 4.5L3.5 1Z\" fill=\"white\"/></g>\n"
         "</defs>\n";
}

// The ground, then the zones' tints and hatching, then roads and hubs again on top so no tint or
// hatching hides them. Records which kinds of ground it drew.
void WriteGround(std::ostringstream& svg, const FloorsResponse& ground, const Frame& f,
                 const std::vector<ZoneShown>& zones, std::array<bool, kGroundCount>* present) {
  const auto& columns = ground.columns();
  std::vector<int> keys(columns.size()), zone_keys(columns.size()), hatch_keys(columns.size());
  std::vector<int> top_keys(columns.size());
  std::map<int, const ZoneShown*> by_id;
  for (const ZoneShown& z : zones) by_id[static_cast<int>(z.zone.id)] = &z;
  for (int i = 0; i < columns.size(); ++i) {
    const Ground g = GroundOf(columns[i]);
    (*present)[g] = true;
    // Stacked floors (a bridge deck, a building's storeys) draw paler: up to 4 shades.
    const int stacked = std::min(std::max(columns[i].floors_size(), 1), 4);
    keys[i] = g * 8 + stacked;
    const int zone = TopZone(columns[i]);
    const auto it = by_id.find(zone);
    zone_keys[i] = it != by_id.end() ? zone : -1;
    hatch_keys[i] = it != by_id.end() && it->second->hatched ? zone : -1;
    top_keys[i] = g == kRoad || g == kHubA || g == kHubB ? g : -1;
  }
  svg << "<g id=\"ground\" shape-rendering=\"crispEdges\">\n";
  for (const auto& [key, d] : RunPaths(ground, f, keys)) {
    const int stacked = key % 8;
    svg << "<path fill=\"" << kGroundStyles[key / 8].colour << "\"";
    if (stacked > 1) svg << " fill-opacity=\"" << Px(1.0 - 0.18 * (stacked - 1)) << "\"";
    svg << " d=\"" << d << "\"/>\n";
  }
  svg << "</g>\n<g id=\"zones\" shape-rendering=\"crispEdges\">\n";
  for (const auto& [zone, d] : RunPaths(ground, f, zone_keys)) {
    svg << "<path data-zone=\"" << zone << "\" fill=\"" << by_id[zone]->tint << "\" fill-opacity=\""
        << Px(kZoneTintOpacity) << "\" d=\"" << d << "\"/>\n";
  }
  for (const auto& [zone, d] : RunPaths(ground, f, hatch_keys)) {
    svg << "<path data-zone=\"" << zone << "\" fill=\"url(#" << by_id[zone]->hatch << ")\" d=\""
        << d << "\"/>\n";
  }
  svg << "</g>\n<g id=\"roads-hubs\" shape-rendering=\"crispEdges\">\n";
  for (const auto& [g, d] : RunPaths(ground, f, top_keys)) {
    svg << "<path fill=\"" << kGroundStyles[g].colour << "\" d=\"" << d << "\"/>\n";
  }
  svg << "</g>\n";
}

// Lines where the top surface's zone changes between neighbouring columns (columns where nothing
// stands border nothing, so walls and trees inside a zone draw no lines), and each zone's id and
// multiplier on the column nearest its middle.
void WriteZoneBorders(std::ostringstream& svg, const FloorsResponse& ground, const Frame& f,
                      const std::vector<ZoneShown>& zones) {
  auto key = [](std::int64_t x, std::int64_t y) { return (x << 32) ^ (y & 0xffffffff); };
  std::unordered_map<std::int64_t, int> zone_at;
  for (const auto& c : ground.columns()) zone_at[key(c.column_x(), c.column_y())] = TopZone(c);
  const double cell = f.CellPx();
  std::string d;
  for (const auto& c : ground.columns()) {
    const int zone = TopZone(c);
    if (zone < 0) continue;
    const auto east = zone_at.find(key(std::int64_t{c.column_x()} + f.stride, c.column_y()));
    if (east != zone_at.end() && east->second >= 0 && east->second != zone) {
      d += "M" + Px(f.Left(c) + cell) + " " + Px(f.Top(c)) + "v" + Px(cell);
    }
    const auto south = zone_at.find(key(c.column_x(), std::int64_t{c.column_y()} + f.stride));
    if (south != zone_at.end() && south->second >= 0 && south->second != zone) {
      d += "M" + Px(f.Left(c)) + " " + Px(f.Top(c) + cell) + "h" + Px(cell);
    }
  }
  if (!d.empty()) {
    svg << "<path id=\"zone-borders\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1.5\" "
           "stroke-opacity=\"0.8\" d=\""
        << d << "\"/>\n";
  }
  for (const ZoneShown& z : zones) {
    double sum_x = 0, sum_y = 0;
    int count = 0;
    for (const auto& c : ground.columns()) {
      if (TopZone(c) != static_cast<int>(z.zone.id)) continue;
      sum_x += f.Left(c) + cell / 2, sum_y += f.Top(c) + cell / 2, ++count;
    }
    if (count == 0) continue;
    const double mid_x = sum_x / count, mid_y = sum_y / count;
    double best = std::numeric_limits<double>::max(), at_x = mid_x, at_y = mid_y;
    for (const auto& c : ground.columns()) {
      if (TopZone(c) != static_cast<int>(z.zone.id)) continue;
      const double x = f.Left(c) + cell / 2, y = f.Top(c) + cell / 2;
      const double distance = (x - mid_x) * (x - mid_x) + (y - mid_y) * (y - mid_y);
      if (distance < best) best = distance, at_x = x, at_y = y;
    }
    svg << "<text data-zone=\"" << z.zone.id << "\" x=\"" << Px(at_x) << "\" y=\"" << Px(at_y)
        << "\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"13\" "
           "font-weight=\"bold\" fill=\""
        << (z.hatched ? "#990000" : "#222222")
        << "\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">zone " << z.zone.id
        << (z.hatched ? absl::StrCat(" ", Times(z.zone.multiplier)) : std::string()) << "</text>\n";
  }
}

// A symbol on every lift landing the ground shows; whether there was one.
bool WriteLifts(std::ostringstream& svg, const FloorsResponse& ground, const Frame& f) {
  bool any = false;
  const double half = f.CellPx() / 2;
  for (const auto& c : ground.columns()) {
    if (!IsLiftLanding(c)) continue;
    svg << "<use class=\"lift\" xlink:href=\"#lift-landing\" x=\"" << Px(f.Left(c) + half)
        << "\" y=\"" << Px(f.Top(c) + half) << "\"/>\n";
    any = true;
  }
  return any;
}

void WritePath(std::ostringstream& svg, const PathResponse& path, const Frame& f) {
  if (path.points_size() > 0) {
    svg << "<polyline id=\"path\" fill=\"none\" stroke=\"#c00000\" stroke-width=\"3\" "
           "stroke-linejoin=\"round\" points=\"";
    for (const auto& p : path.points()) {
      svg << Px(f.X(p.x_yards())) << "," << Px(f.Y(p.y_yards())) << " ";
    }
    svg << "\"/>\n";
    const auto& a = path.points(0);
    const auto& b = path.points(path.points_size() - 1);
    svg << "<circle id=\"start\" cx=\"" << Px(f.X(a.x_yards())) << "\" cy=\""
        << Px(f.Y(a.y_yards()))
        << "\" r=\"7\" fill=\"#38761d\" stroke=\"white\" stroke-width=\"2\"/>\n";
    svg << "<circle id=\"goal\" cx=\"" << Px(f.X(b.x_yards())) << "\" cy=\"" << Px(f.Y(b.y_yards()))
        << "\" r=\"7\" fill=\"#990000\" stroke=\"white\" stroke-width=\"2\"/>\n";
  }
  for (const auto& fall : path.falls()) {
    svg << "<path class=\"fall\" d=\"M" << Px(f.X(fall.from().x_yards()) - 5) << " "
        << Px(f.Y(fall.from().y_yards()) - 5) << "l10 0l-5 10z\" fill=\"#7f6000\"/>\n";
  }
}

// One line of the legend: a 16 x 16 swatch drawn at the origin, its text, and a smaller second
// line (empty for none).
struct LegendRow {
  std::string swatch;
  std::string text;
  std::string note;
};

std::string Box(const std::string& fill, const std::string& extra = "") {
  return "<rect width=\"16\" height=\"16\" fill=\"" + fill + "\" stroke=\"#777777\" " +
         "stroke-width=\"0.5\"" + extra + "/>";
}

// What the legend says about a zone: its levels, and what the band charges there.
LegendRow ZoneRow(const ZoneShown& z, const DrawOptions& options) {
  LegendRow row;
  // The tint over plain ground, as most of a zone looks on the map.
  row.swatch = Box(kGroundStyles[kPlain].colour) + "<rect width=\"16\" height=\"16\" fill=\"" +
               z.tint + "\" fill-opacity=\"" + Px(kZoneTintOpacity) +
               "\" stroke=\"#333333\" stroke-width=\"1.5\"/>";
  if (z.hatched) row.swatch += "<rect width=\"16\" height=\"16\" fill=\"url(#" + z.hatch + ")\"/>";
  row.text = "zone " + std::to_string(z.zone.id);
  if (z.known) {
    if (!z.zone.name.empty()) row.text += " " + z.zone.name;
    row.text +=
        ", levels " + std::to_string(z.zone.min_level) + "-" + std::to_string(z.zone.max_level);
  } else {
    row.text += " (levels unknown)";
  }
  const bool priced = options.prices_danger && z.zone.multiplier > 1.0;
  if (priced) row.note = Times(z.zone.multiplier) + " in band " + std::to_string(options.band);
  if (z.exempt && options.prices_danger) {
    row.note += (row.note.empty() ? "" : ", but ") + std::string("exempt (an end's zone)");
  }
  return row;
}

std::vector<LegendRow> LegendRows(const PathResponse& path, const DrawOptions& options,
                                  const std::array<bool, kGroundCount>& present, bool lifts,
                                  const std::vector<ZoneShown>& zones) {
  std::vector<LegendRow> rows;
  for (int g = 0; g < kGroundCount; ++g) {
    if (present[g]) rows.push_back({Box(kGroundStyles[g].colour), kGroundStyles[g].label, ""});
  }
  if (lifts)
    rows.push_back({"<use xlink:href=\"#lift-landing\" x=\"8\" y=\"8\"/>", "lift landing", ""});
  for (const ZoneShown& z : zones) rows.push_back(ZoneRow(z, options));
  if (!zones.empty() && options.band > 0 && !options.prices_danger) {
    rows.push_back({"", "band " + std::to_string(options.band) + ": no zone costs extra",
                    "this profile ignores bands"});
  } else if (!zones.empty() && options.prices_danger) {
    const bool hatched =
        std::any_of(zones.begin(), zones.end(), [](const ZoneShown& z) { return z.hatched; });
    rows.push_back({"",
                    hatched ? "hatched: priced in band " + std::to_string(options.band)
                            : "band " + std::to_string(options.band) + " prices no zone here",
                    "the ends' zones are exempt"});
  }
  if (path.points_size() > 0) {
    LegendRow row{
        "<line x1=\"0\" y1=\"8\" x2=\"16\" y2=\"8\" stroke=\"#c00000\" "
        "stroke-width=\"3\"/>",
        "the path", ""};
    for (const auto& k : path.seconds_by_kind()) {
      if (k.kind() == "lift" && k.seconds() > 0) {
        char note[64];
        std::snprintf(note, sizeof note, "%.1f s of it riding lifts", k.seconds());
        row.note = note;
      }
    }
    rows.push_back(row);
    rows.push_back(
        {"<circle cx=\"8\" cy=\"8\" r=\"6\" fill=\"#38761d\" stroke=\"white\" "
         "stroke-width=\"1.5\"/>",
         "start", ""});
    rows.push_back(
        {"<circle cx=\"8\" cy=\"8\" r=\"6\" fill=\"#990000\" stroke=\"white\" "
         "stroke-width=\"1.5\"/>",
         "goal", ""});
  }
  if (path.falls_size() > 0) {
    rows.push_back({"<path d=\"M3 3l10 0l-5 10z\" fill=\"#7f6000\"/>", "fall", ""});
  }
  return rows;
}

constexpr double kLegendTitlePx = 28.0;
constexpr double kLegendRowPx = 20.0;
constexpr double kLegendNotePx = 14.0;
constexpr double kLegendPadPx = 10.0;

// Its size, estimated from the longest line at about 0.6 em a character.
struct LegendSize {
  double width = 0, height = 0;
};

LegendSize SizeOf(const std::vector<LegendRow>& rows) {
  std::size_t longest = 6;  // "Legend"
  double height = kLegendTitlePx + kLegendPadPx;
  for (const LegendRow& row : rows) {
    longest = std::max({longest, row.text.size(), row.note.size()});
    height += kLegendRowPx + (row.note.empty() ? 0.0 : kLegendNotePx);
  }
  return {2 * kLegendPadPx + 24 + 7.8 * static_cast<double>(longest), height};
}

void WriteLegend(std::ostringstream& svg, const std::vector<LegendRow>& rows, double x0, double y0,
                 const LegendSize& size) {
  svg << "<g id=\"legend\" font-family=\"sans-serif\">\n<rect x=\"" << Px(x0) << "\" y=\"" << Px(y0)
      << "\" width=\"" << Px(size.width) << "\" height=\"" << Px(size.height)
      << "\" fill=\"white\" stroke=\"#999999\"/>\n<text x=\"" << Px(x0 + kLegendPadPx) << "\" y=\""
      << Px(y0 + 20) << "\" font-size=\"14\" font-weight=\"bold\">Legend</text>\n";
  double y = y0 + kLegendTitlePx;
  for (const LegendRow& row : rows) {
    const double x = x0 + kLegendPadPx;
    if (!row.swatch.empty()) {
      svg << "<g transform=\"translate(" << Px(x) << "," << Px(y) << ")\">" << row.swatch
          << "</g>\n";
    }
    svg << "<text x=\"" << Px(x + 24) << "\" y=\"" << Px(y + 13) << "\" font-size=\"13\">"
        << Escape(row.text) << "</text>\n";
    y += kLegendRowPx;
    if (!row.note.empty()) {
      svg << "<text x=\"" << Px(x + 24) << "\" y=\"" << Px(y + 8)
          << "\" font-size=\"11\" fill=\"#990000\">" << Escape(row.note) << "</text>\n";
      y += kLegendNotePx;
    }
  }
  svg << "</g>\n";
}

}  // namespace

std::string DrawWalkSvg(const PathResponse& path, const FloorsResponse& ground,
                        const DrawOptions& options) {
  const Frame f = FrameOf(path, ground, options.stride);
  const std::vector<ZoneShown> zones = ZonesShown(path, ground, options);
  std::ostringstream map;
  std::array<bool, kGroundCount> present{};
  WriteGround(map, ground, f, zones, &present);
  WriteZoneBorders(map, ground, f, zones);
  const bool lifts = WriteLifts(map, ground, f);
  WritePath(map, path, f);

  const std::vector<LegendRow> rows = LegendRows(path, options, present, lifts, zones);
  const LegendSize legend = SizeOf(rows);
  const double legend_x = f.width_px + kGapPx;
  const double width = std::max(legend_x + legend.width + kGapPx,
                                16 + 8.5 * static_cast<double>(options.caption.size()));
  const double body = std::max(f.height_px, legend.height + 2 * kGapPx);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" "
         "width=\""
      << Px(width) << "\" height=\"" << Px(body + kCaptionPx) << "\" viewBox=\"0 0 " << Px(width)
      << " " << Px(body + kCaptionPx) << "\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  WriteDefs(svg);
  svg << map.str();
  WriteLegend(svg, rows, legend_x, kGapPx, legend);
  svg << "<text id=\"caption\" x=\"8\" y=\"" << Px(body + 26)
      << "\" font-family=\"sans-serif\" font-size=\"16\">" << Escape(options.caption)
      << "</text>\n</svg>\n";
  return svg.str();
}

}  // namespace walk::client
