#include "nav/layers/ground_layers.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "nav/grid/content_hash.h"
#include "nav/grid/grid_builder.h"
#include "nav/layers/hub_layer.h"
#include "nav/layers/road_layer.h"

namespace walk::nav {
namespace {

absl::StatusOr<std::optional<LayerSource>> ReadOne(const std::string& path) {
  if (path.empty()) return std::optional<LayerSource>();
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(path, ": cannot be read"));
  LayerSource source{
      path, std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>())};
  if (in.bad()) return absl::NotFoundError(absl::StrCat(path, ": cannot be read"));
  return std::optional<LayerSource>(std::move(source));
}

// INVALID_ARGUMENT when an area names a continent `world` lacks.
template <typename Area>
absl::Status CheckContinents(const std::string& file, const std::vector<Area>& areas,
                             const World& world) {
  for (const Area& area : areas) {
    if (world.FindContinent(area.continent) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat(file, ": ", area.label,
                       ": properties.continent: the world has no continent ", area.continent));
    }
  }
  return absl::OkStatus();
}

// The world's record of a layer laid from `source`.
WorldLayer RecordOf(const std::string& name, const LayerSource& source, std::string summary) {
  ContentHasher hasher;
  hasher.AddBytes(source.text.data(), source.text.size());
  return {name, std::filesystem::path(source.file).filename().string(), hasher.Finish(),
          std::move(summary)};
}

// Puts `record` in `world`'s list in place of the one of its name, or at its end.
void Record(WorldLayer record, World* world) {
  for (WorldLayer& layer : world->layers) {
    if (layer.name == record.name) {
      layer = std::move(record);
      return;
    }
  }
  world->layers.push_back(std::move(record));
}

// The layers parsed: what ApplyLayers lays once all are known to be sound.
struct Parsed {
  std::optional<ZoneLayer> zones;
  std::optional<MarkLayer> roads, hubs;
  std::optional<LiftLayer> lifts;
  std::optional<DistrictLayer> districts;
};

bool HasLayer(const World& world, const std::string& name) {
  for (const WorldLayer& layer : world.layers) {
    if (layer.name == name) return true;
  }
  return false;
}

absl::StatusOr<Parsed> ParseAll(const LayerSources& sources, const World& world) {
  Parsed parsed;
  if (sources.zones) {
    absl::StatusOr<ZoneLayer> layer = ParseZoneLayer(sources.zones->text, sources.zones->file);
    if (!layer.ok()) return layer.status();
    if (absl::Status s = CheckContinents(sources.zones->file, layer->areas, world); !s.ok())
      return s;
    parsed.zones = *std::move(layer);
  }
  const std::optional<LayerSource>* marks[] = {&sources.roads, &sources.hubs};
  std::optional<MarkLayer>* into[] = {&parsed.roads, &parsed.hubs};
  for (int k = 0; k < 2; ++k) {
    if (!*marks[k]) continue;
    const LayerSource& source = **marks[k];
    absl::StatusOr<MarkLayer> layer =
        k == 0 ? ParseRoadLayer(source.text, source.file) : ParseHubLayer(source.text, source.file);
    if (!layer.ok()) return layer.status();
    if (absl::Status s = CheckContinents(source.file, layer->areas, world); !s.ok()) return s;
    *into[k] = *std::move(layer);
  }
  if (sources.lifts) {
    absl::StatusOr<LiftLayer> layer = ParseLiftLayer(sources.lifts->text, sources.lifts->file);
    if (!layer.ok()) return layer.status();
    parsed.lifts = *std::move(layer);
  }
  if ((sources.lifts || sources.districts) && HasLayer(world, "districts")) {
    return absl::FailedPreconditionError(absl::StrCat(
        (sources.lifts ? sources.lifts : sources.districts)->file,
        ": the world already has its districts, which cut its links for good: lay lifts and "
        "districts on the world as built (rebuild it to change them)"));
  }
  if (sources.districts) {
    absl::StatusOr<DistrictLayer> layer =
        ParseDistrictLayer(sources.districts->text, sources.districts->file);
    if (!layer.ok()) return layer.status();
    for (const DistrictSpec& d : layer->districts) {
      if (world.FindContinent(d.continent) == nullptr) {
        return absl::InvalidArgumentError(absl::StrCat(sources.districts->file, ": ", d.Label(),
                                                       ": continent: the world has no continent ",
                                                       d.continent));
      }
    }
    parsed.districts = *std::move(layer);
  }
  return parsed;
}

// "1 zone", "2 zones".
std::string Count(std::uint64_t n, const char* one, const char* many) {
  return absl::StrCat(n, " ", n == 1 ? one : many);
}

std::uint64_t ColumnsOf(const std::vector<MarkColumns>& counted, std::uint8_t mark) {
  for (const MarkColumns& m : counted) {
    if (m.mark == mark) return m.columns;
  }
  return 0;
}

}  // namespace

absl::StatusOr<LayerSources> ReadLayerFiles(const LayerFiles& files) {
  LayerSources sources;
  const std::string* paths[] = {&files.zones, &files.roads, &files.hubs, &files.lifts,
                                &files.districts};
  std::optional<LayerSource>* into[] = {&sources.zones, &sources.roads, &sources.hubs,
                                        &sources.lifts, &sources.districts};
  for (int k = 0; k < 5; ++k) {
    absl::StatusOr<std::optional<LayerSource>> source = ReadOne(*paths[k]);
    if (!source.ok()) return source.status();
    *into[k] = *std::move(source);
  }
  return sources;
}

absl::StatusOr<LayersReport> ApplyLayers(const LayerSources& sources, World* world) {
  absl::StatusOr<Parsed> parsed = ParseAll(sources, *world);
  if (!parsed.ok()) return parsed.status();
  LayersReport report;
  if (parsed->zones) {
    report.zones = ApplyZoneLayer(*parsed->zones, world);
    std::uint64_t columns = 0;
    for (const ZoneColumns& z : *report.zones) columns += z.columns;
    report.applied.push_back(RecordOf("zones", *sources.zones,
                                      absl::StrCat(Count(report.zones->size(), "zone", "zones"),
                                                   ", ", Count(columns, "column", "columns"))));
  }
  if (parsed->roads) {
    report.road_columns = ColumnsOf(ApplyMarkLayer(*parsed->roads, world), kMarkRoad);
    report.applied.push_back(
        RecordOf("roads", *sources.roads,
                 absl::StrCat(Count(parsed->roads->areas.size(), "feature", "features"), ", ",
                              Count(*report.road_columns, "column", "columns"))));
  }
  if (parsed->hubs) {
    const std::vector<MarkColumns> counted = ApplyMarkLayer(*parsed->hubs, world);
    report.hub_a_columns = ColumnsOf(counted, kMarkHubA);
    report.hub_b_columns = ColumnsOf(counted, kMarkHubB);
    report.applied.push_back(
        RecordOf("hubs", *sources.hubs,
                 absl::StrCat(Count(parsed->hubs->areas.size(), "feature", "features"), ", ",
                              Count(*report.hub_a_columns, "column", "columns"), " of faction A, ",
                              *report.hub_b_columns, " of faction B")));
  }
  if (parsed->lifts) {
    report.lifts = ApplyLiftLayer(*parsed->lifts, world);
    std::size_t joined = 0;
    for (const LiftOutcome& lift : *report.lifts) joined += lift.joined ? 1 : 0;
    report.applied.push_back(RecordOf("lifts", *sources.lifts,
                                      absl::StrCat(Count(joined, "lift", "lifts"), " joined, ",
                                                   report.lifts->size() - joined, " refused")));
  }
  if (parsed->districts) {
    report.districts = ApplyDistrictLayer(*parsed->districts, world);
    std::uint64_t inside = 0, cut = 0, kept = 0;
    for (const DistrictOutcome& d : *report.districts) {
      inside += d.inside;
      cut += d.links_cut;
      kept += d.rides_kept;
    }
    report.applied.push_back(RecordOf(
        "districts", *sources.districts,
        absl::StrCat(Count(report.districts->size(), "district", "districts"), ", ",
                     Count(inside, "surface", "surfaces"), " inside, ", Count(cut, "link", "links"),
                     " cut, ", Count(kept, "ride", "rides"), " joining the sides")));
  }
  for (Continent& c : world->continents) FinishContinent(c);
  for (const WorldLayer& record : report.applied) Record(record, world);
  AssignContentIds(*world);
  return report;
}

}  // namespace walk::nav
