#include "nav/live/world_set.h"

#include <cmath>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "nav/grid/number_text.h"
#include "nav/import/movingai.h"
#include "nav/live/layer_file.h"

namespace walk::nav::live {
namespace {

absl::Status Prefixed(absl::string_view field, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(field, ": ", s.message()));
}

absl::StatusOr<MovingAiMap> ParseMap(absl::string_view text) {
  absl::StatusOr<MovingAiMap> map = ParseMovingAiMap(text);
  if (!map.ok()) return Prefixed("map_text", map.status());
  return map;
}

// The layers of `source` from its parsed map: the source's cell size and origin first, then its
// layer text, which may set them only to the same values.
absl::StatusOr<Layers> LayersOf(const MovingAiMap& map, const LiveWorldSource& source) {
  if (source.cell_size < 0.0 || !std::isfinite(source.cell_size)) {
    return absl::InvalidArgumentError("cell_size: must be positive and finite (0: the default)");
  }
  if (source.origin && (!std::isfinite(source.origin->x) || !std::isfinite(source.origin->y))) {
    return absl::InvalidArgumentError("origin: must be finite");
  }
  const double size = source.cell_size > 0.0 ? source.cell_size : 1.0;
  absl::StatusOr<Layers> layers = Layers::FromMovingAi(map, size);
  if (!layers.ok()) return Prefixed("map_text", layers.status());
  if (source.origin) layers->set_origin(*source.origin);
  if (absl::Status s = ApplyLayerText(source.layer_text, &*layers); !s.ok()) {
    return Prefixed("layers", s);
  }
  const WorldFrame& frame = layers->frame();
  if (source.cell_size > 0.0 && frame.cell_size != source.cell_size) {
    return absl::InvalidArgumentError(absl::StrCat("cell_size: ", NumberText(source.cell_size),
                                                   " differs from the layer file's ",
                                                   NumberText(frame.cell_size)));
  }
  if (source.origin && (frame.origin.x != source.origin->x || frame.origin.y != source.origin->y)) {
    return absl::InvalidArgumentError(
        absl::StrCat("origin: (", NumberText(source.origin->x), ", ", NumberText(source.origin->y),
                     ") differs from the layer file's (", NumberText(frame.origin.x), ", ",
                     NumberText(frame.origin.y), ")"));
  }
  return layers;
}

absl::StatusOr<std::unique_ptr<LiveWorld>> BuildFromMap(const MovingAiMap& map,
                                                        const LiveWorldSource& source,
                                                        const LiveWorldOptions& options) {
  absl::StatusOr<Layers> layers = LayersOf(map, source);
  if (!layers.ok()) return layers.status();
  return LiveWorld::FromLayers(*std::move(layers), options);
}

std::uint64_t CellsOf(const LiveWorld& world) {
  return static_cast<std::uint64_t>(world.width()) * static_cast<std::uint64_t>(world.height());
}

}  // namespace

const char* WorldKindName(WorldKind kind) {
  return kind == WorldKind::kFolder ? "folder" : "created";
}

absl::StatusOr<std::unique_ptr<LiveWorld>> BuildLiveWorld(const LiveWorldSource& source,
                                                          const LiveWorldOptions& options) {
  absl::StatusOr<MovingAiMap> map = ParseMap(source.map_text);
  if (!map.ok()) return map.status();
  return BuildFromMap(*map, source, options);
}

LiveWorldSet::LiveWorldSet(const LiveWorldLimits& limits, const LiveWorldOptions& options)
    : limits_(limits), options_(options) {}

absl::Status LiveWorldSet::CheckName(absl::string_view name) const {
  if (name.empty()) return absl::InvalidArgumentError("name: required");
  if (name.size() > limits_.max_name_length) {
    return absl::ResourceExhaustedError(absl::StrCat("live-max-name-length: the name has ",
                                                     name.size(), " characters, over the ",
                                                     limits_.max_name_length, " allowed"));
  }
  if (name[0] == '.') return absl::InvalidArgumentError("name: must not start with '.'");
  for (char c : name) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') {
      return absl::InvalidArgumentError(
          absl::StrCat("name: '", absl::CHexEscape(absl::string_view(&c, 1)),
                       "' is not allowed (letters, digits, '-', '_' and '.')"));
    }
  }
  return absl::OkStatus();
}

absl::Status LiveWorldSet::Reserve(const std::string& name, std::uint64_t cells, WorldKind kind) {
  std::lock_guard<std::mutex> lock(mu_);
  if (worlds_.count(name) != 0 || reserved_.count(name) != 0) {
    return absl::AlreadyExistsError(absl::StrCat("name: a live world '", name, "' exists"));
  }
  if (kind == WorldKind::kCreated) {
    if (worlds_.size() + reserved_.size() >= limits_.max_worlds) {
      return absl::ResourceExhaustedError(
          absl::StrCat("live-max-worlds: walkd holds ", limits_.max_worlds,
                       " live worlds at most; drop one, or raise walkd's --live-max-worlds"));
    }
    if (cells_ + cells > limits_.max_cells) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "live-max-cells: the map's ", cells, " cells would pass the ", limits_.max_cells,
          " all live worlds may hold (", cells_, " held now); drop a world"));
    }
  }
  reserved_[name] = cells;
  cells_ += cells;
  return absl::OkStatus();
}

absl::StatusOr<LiveWorldEntry> LiveWorldSet::Add(
    const std::string& name, LiveWorldSource source, WorldKind kind,
    const std::function<absl::Status(const LiveWorldSource&)>& keep) {
  if (absl::Status s = CheckName(name); !s.ok()) return s;
  if (kind == WorldKind::kCreated) {
    if (source.map_text.size() > limits_.max_map_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat("live-max-map-bytes: the map is ",
                                                       source.map_text.size(), " bytes, over the ",
                                                       limits_.max_map_bytes, " allowed"));
    }
    if (source.layer_text.size() > limits_.max_layer_bytes) {
      return absl::ResourceExhaustedError(
          absl::StrCat("live-max-layer-bytes: the layers are ", source.layer_text.size(),
                       " bytes, over the ", limits_.max_layer_bytes, " allowed"));
    }
  }
  absl::StatusOr<MovingAiMap> map = ParseMap(source.map_text);
  if (!map.ok()) return map.status();
  const std::uint64_t cells = std::uint64_t{map->width} * map->height;
  if (kind == WorldKind::kCreated && cells > limits_.max_world_cells) {
    return absl::ResourceExhaustedError(
        absl::StrCat("live-max-world-cells: the map's ", map->width, " x ", map->height, " is ",
                     cells, " cells, over the ", limits_.max_world_cells, " a world may hold"));
  }
  if (absl::Status s = Reserve(name, cells, kind); !s.ok()) return s;
  absl::StatusOr<std::unique_ptr<LiveWorld>> world = BuildFromMap(*map, source, options_);
  if (world.ok() && keep != nullptr) {
    if (absl::Status kept = keep(source); !kept.ok()) world = kept;
  }
  std::lock_guard<std::mutex> lock(mu_);
  reserved_.erase(name);
  if (!world.ok()) {
    cells_ -= cells;
    return world.status();
  }
  LiveWorldEntry entry{name, std::shared_ptr<LiveWorld>(*std::move(world)),
                       kind, std::chrono::steady_clock::now(),
                       0,    std::make_shared<const LiveWorldSource>(std::move(source))};
  worlds_[name] = entry;
  return entry;
}

absl::StatusOr<LiveWorldEntry> LiveWorldSet::Reset(const std::string& name) {
  LiveWorldEntry before;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = worlds_.find(name);
    if (it == worlds_.end()) {
      return absl::NotFoundError(absl::StrCat("world: no live world named '", name, "'"));
    }
    before = it->second;
  }
  LiveWorldOptions options = options_;
  options.revisions_after = before.world->revision();
  absl::StatusOr<std::unique_ptr<LiveWorld>> world = BuildLiveWorld(*before.source, options);
  if (!world.ok()) return world.status();
  std::lock_guard<std::mutex> lock(mu_);
  auto it = worlds_.find(name);
  if (it == worlds_.end() || it->second.world != before.world) {
    return absl::NotFoundError(
        absl::StrCat("world: '", name, "' was dropped or reset while this reset built it"));
  }
  it->second.world = std::shared_ptr<LiveWorld>(*std::move(world));
  it->second.since = std::chrono::steady_clock::now();
  ++it->second.resets;
  return it->second;
}

absl::StatusOr<LiveWorldEntry> LiveWorldSet::Drop(const std::string& name) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = worlds_.find(name);
  if (it == worlds_.end()) {
    return absl::NotFoundError(absl::StrCat("world: no live world named '", name, "'"));
  }
  if (it->second.kind == WorldKind::kFolder) {
    return absl::FailedPreconditionError(absl::StrCat(
        "world: '", name, "' comes from --live-worlds and cannot be dropped (reset it instead)"));
  }
  LiveWorldEntry entry = std::move(it->second);
  cells_ -= CellsOf(*entry.world);
  worlds_.erase(it);
  return entry;
}

absl::StatusOr<std::shared_ptr<LiveWorld>> LiveWorldSet::Find(const std::string& name) const {
  if (name.empty()) return absl::InvalidArgumentError("world: required");
  std::lock_guard<std::mutex> lock(mu_);
  auto it = worlds_.find(name);
  if (it == worlds_.end()) {
    return absl::NotFoundError(absl::StrCat("world: no live world named '", name, "'"));
  }
  return it->second.world;
}

std::vector<LiveWorldEntry> LiveWorldSet::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<LiveWorldEntry> out;
  out.reserve(worlds_.size());
  for (const auto& [name, entry] : worlds_) out.push_back(entry);
  return out;
}

std::vector<std::string> LiveWorldSet::Names() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> out;
  for (const auto& [name, entry] : worlds_) out.push_back(name);
  return out;
}

std::size_t LiveWorldSet::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return worlds_.size();
}

std::uint64_t LiveWorldSet::cells() const {
  std::lock_guard<std::mutex> lock(mu_);
  return cells_;
}

}  // namespace walk::nav::live
