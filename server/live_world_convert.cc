#include "server/live_world_convert.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace walk::server {
namespace {

namespace live = nav::live;

// The map characters of the cell values a map may hold (Layers::FromMovingAi's alphabet), by
// CellArray code.
constexpr char kMapGlyph[] = {'.', 'F', '@', 'M', 'W', 'T', 'B', 'I'};
constexpr int kMapValues = sizeof(kMapGlyph);

absl::StatusOr<std::string> CellArrayText(const walk::v1::CellArray& cells) {
  if (cells.width() <= 0 || cells.height() <= 0) {
    return absl::InvalidArgumentError(absl::StrCat("map_cells: width and height must be positive (",
                                                   cells.width(), " x ", cells.height(), ")"));
  }
  const std::uint64_t count = std::uint64_t(cells.width()) * std::uint64_t(cells.height());
  if (cells.values().size() != count) {
    return absl::InvalidArgumentError(absl::StrCat("map_cells.values: ", cells.values().size(),
                                                   " values for ", cells.width(), " x ",
                                                   cells.height(), " cells"));
  }
  std::string text =
      absl::StrCat("type octile\nheight ", cells.height(), "\nwidth ", cells.width(), "\nmap\n");
  text.reserve(text.size() + count + cells.height());
  for (std::uint64_t i = 0; i < count; ++i) {
    const int code = static_cast<unsigned char>(cells.values()[i]);
    if (code >= kMapValues) {
      return absl::InvalidArgumentError(absl::StrCat(
          "map_cells.values[", i, "]: ", code, " at (", i % cells.width(), ", ", i / cells.width(),
          ") is not a map value (0 ground to 7 iron ore; buildings and gates go in the layers)"));
    }
    text.push_back(kMapGlyph[code]);
    if ((i + 1) % cells.width() == 0) text.push_back('\n');
  }
  return text;
}

// `text` with a MovingAI header when it has none.
std::string WithHeader(const std::string& text) {
  if (text.rfind("type ", 0) == 0) return text;
  std::vector<absl::string_view> rows = absl::StrSplit(text, '\n', absl::SkipEmpty());
  for (absl::string_view& row : rows) absl::ConsumeSuffix(&row, "\r");
  const std::size_t width = rows.empty() ? 0 : rows.front().size();
  return absl::StrCat("type octile\nheight ", rows.size(), "\nwidth ", width, "\nmap\n", text);
}

}  // namespace

absl::StatusOr<live::LiveWorldSource> ToLiveWorldSource(
    const walk::v1::CreateWorldRequest& request) {
  live::LiveWorldSource source;
  switch (request.map_case()) {
    case walk::v1::CreateWorldRequest::kMapText:
      source.map_text = WithHeader(request.map_text());
      break;
    case walk::v1::CreateWorldRequest::kMapCells: {
      absl::StatusOr<std::string> text = CellArrayText(request.map_cells());
      if (!text.ok()) return text.status();
      source.map_text = *std::move(text);
      break;
    }
    default:
      return absl::InvalidArgumentError("map_text, map_cells: one of them is required");
  }
  source.layer_text = request.layers();
  source.cell_size = request.cell_size();
  if (request.has_origin()) {
    source.origin = live::WorldPoint{request.origin().x(), request.origin().y()};
  }
  return source;
}

void ToProto(const live::LiveWorldEntry& entry, std::uint64_t fallbacks_waiting,
             walk::v1::LiveWorldInfo* out) {
  const live::LiveWorld& world = *entry.world;
  const live::LiveCounters c = world.Counters();
  out->set_name(entry.name);
  out->set_width(world.width());
  out->set_height(world.height());
  out->set_cell_size(world.cell_size());
  out->set_revision(c.revision);
  out->set_footprints(world.footprint_count());
  out->set_path_cache_entries(c.cache_entries);
  out->set_unit_routes(c.unit_routes);
  out->set_fallbacks_waiting(fallbacks_waiting);
  out->set_cells(std::uint64_t(world.width()) * std::uint64_t(world.height()));
  out->set_memory_bytes(world.MemoryBytes());
  out->set_age_seconds(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - entry.since).count());
  out->mutable_origin()->set_x(world.frame().origin.x);
  out->mutable_origin()->set_y(world.frame().origin.y);
  out->set_source(live::WorldKindName(entry.kind));
  out->set_resets(entry.resets);
}

}  // namespace walk::server
