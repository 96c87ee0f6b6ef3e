#include "server/world_registry.h"

#include <malloc.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <tuple>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "nav/abstract/abstract_graph_format.h"
#include "nav/cost/danger.h"
#include "nav/demo/demo_travel.h"
#include "nav/demo/demo_world.h"
#include "nav/grid/content_hash.h"
#include "nav/grid/grid_format.h"
#include "nav/grid/grid_image.h"
#include "nav/navmesh/world_navmesh.h"
#include "nav/travel/travel_file.h"
#include "store/model_hash.h"

namespace walk::server {
namespace {

// The embedded default world: a 2 x 2-tile demo world (nav/demo/demo_world.h) of the default seed.
nav::DemoOptions DefaultWorldOptions() {
  nav::DemoOptions options;
  options.tiles_x = 2;
  options.tiles_y = 2;
  return options;
}

// The default world's cache is reused only when its note names this generator and seed; bump
// the generator number whenever the demo generator changes what it makes.
std::string DefaultWorldNote() {
  return absl::StrCat("default-world:demo-generator=1:seed=", DefaultWorldOptions().seed,
                      ":tiles=2x2");
}

// The abstract graph of the world in `dir`: read from graph.walkgraph, or, for the default world
// (`prepare_if_missing`), built and cached there when missing or stale. Null (with a note) when
// the world has none: its walks then search the fine grid. CANCELLED (nothing cached) when `stop`
// says stop while it is built.
absl::StatusOr<std::unique_ptr<nav::AbstractGraph>> LoadGraph(const nav::World& world,
                                                              const std::string& dir,
                                                              bool prepare_if_missing,
                                                              const nav::BuildStop& stop,
                                                              std::string* note) {
  absl::StatusOr<nav::AbstractGraph> graph =
      nav::LoadAbstractGraph(world, dir, {.prices_on_first_use = true});
  if (graph.ok() && (graph->unprepared.empty() || !prepare_if_missing)) {
    // A stale or unprepared continent walks the fine grid; the others keep their graphs.
    *note = "loaded from " + dir;
    for (const std::string& why : graph->unprepared) {
      absl::StrAppend(note, "; ", why, " (it walks the fine grid)");
    }
    return std::make_unique<nav::AbstractGraph>(*std::move(graph));
  }
  if (!prepare_if_missing) {
    *note = absl::StrCat(graph.status().message(), "; walks search the fine grid");
    return nullptr;
  }
  nav::AbstractGraphOptions options;
  options.stop = stop;
  graph = nav::BuildAbstractGraph(world, options);
  if (absl::IsCancelled(graph.status())) return graph.status();
  if (!graph.ok()) {
    *note = absl::StrCat("could not prepare: ", graph.status().message());
    return nullptr;
  }
  if (absl::Status saved = nav::SaveAbstractGraph(*graph, dir); !saved.ok()) {
    std::cerr << "walkd: could not cache the default world's abstract graph: " << saved.message()
              << "\n";
  }
  *note = "prepared at start, cached in " + dir;
  return std::make_unique<nav::AbstractGraph>(*std::move(graph));
}

// One navmesh read from the world folder's files, as served: its lift rides appended (from the
// grid of its continent), its polygons priced by that grid.
absl::StatusOr<std::unique_ptr<ServedNavMesh>> ServeNavMesh(nav::WorldNavMeshMap read,
                                                            nav::NavMeshFormat format,
                                                            const nav::NavMeshNote* note,
                                                            const nav::World& world) {
  auto served = std::make_unique<ServedNavMesh>();
  served->map = read.map;
  served->continent = note != nullptr ? note->ContinentOf(read.map) : read.map;
  served->navmesh = std::move(read.navmesh);
  served->format = nav::NavMeshFormatName(format);
  served->content_hash = served->navmesh->content_hash();
  const bool priced = world.FindContinent(served->continent) != nullptr;
  if (priced) {
    absl::StatusOr<nav::LiftConnectionCounts> lifts =
        nav::AddMissingLiftConnections(*served->navmesh, world, served->continent);
    if (!lifts.ok()) return lifts.status();
    served->lifts = *lifts;
  }
  absl::StatusOr<nav::NavMeshGround> ground =
      nav::NavMeshGround::Classify(*served->navmesh, priced ? &world : nullptr, served->continent);
  if (!ground.ok()) return ground.status();
  served->ground = *std::move(ground);
  served->note = absl::StrCat(
      served->format, " navmesh ", nav::FormatId(served->content_hash), " (map ", served->map,
      ", continent ", served->continent, "): ", served->navmesh->tile_count(), " tiles, ",
      served->navmesh->polygon_count(), " polygons, ", served->ground->classes().size(),
      " pricing classes", served->ground->exact() ? "" : " (shared: not exact)",
      priced ? absl::StrCat(", ", served->lifts.added, " lift rides added")
             : ", no grid to price by");
  const nav::NavMeshNoteMap* entry = note != nullptr ? note->Find(read.map) : nullptr;
  if (entry != nullptr && entry->content_hash != 0 && entry->content_hash != served->content_hash) {
    served->note += "; navmesh.json names another navmesh (rewrite it with walkgrid)";
  }
  return served;
}

// A navmesh whose files are absent, known by its note: saved answers only.
std::unique_ptr<ServedNavMesh> SavedOnlyNavMesh(const nav::NavMeshNoteMap& entry) {
  auto served = std::make_unique<ServedNavMesh>();
  served->map = entry.map;
  served->continent = entry.continent;
  served->content_hash = entry.content_hash;
  served->note =
      absl::StrCat("saved answers only: no navmesh files beside ", nav::kWorldNavMeshNote,
                   " (navmesh ", nav::FormatId(served->content_hash), ", map ", entry.map, ")");
  return served;
}

// The navmeshes of the world folder `dir` priced by `world`'s grid, one a continent (by
// continent): its files (navmesh.bin or the maps of mmaps/), and, for a map of the note whose
// files are absent, the note alone (saved answers only). With `cache_bytes`, the tiles beyond
// them are kept on disk (NavMeshTileCache), the budget shared by the sizes of the maps' files.
// Errors: a damaged navmesh or note (naming the file), one Detour's areas cannot price, two maps on
// one continent.
absl::StatusOr<std::vector<std::unique_ptr<ServedNavMesh>>> LoadNavMeshes(
    const std::string& dir, const nav::World& world, std::uint64_t cache_bytes) {
  std::vector<std::unique_ptr<ServedNavMesh>> served;
  if (dir.empty()) return served;  // the default world has none
  absl::StatusOr<std::optional<nav::NavMeshNote>> note = nav::LoadNavMeshNote(dir);
  if (!note.ok()) return note.status();
  const nav::NavMeshNote* known = note->has_value() ? &**note : nullptr;
  nav::NavMeshFormat format = nav::NavMeshFormat::kMset;
  absl::StatusOr<std::map<std::uint32_t, std::uint64_t>> maps =
      nav::ListWorldNavMeshMaps(dir, &format);
  if (!maps.ok()) return maps.status();
  std::uint64_t total_bytes = 0;
  for (const auto& [map, bytes] : *maps) total_bytes += bytes;
  std::vector<std::uint32_t> maps_read;
  // Map by map, each trimmed to its share of the budget (by its files' size) before the next is
  // read: loading holds one map's tiles whole at most, beside the others' shares.
  for (const auto& [map, bytes] : *maps) {
    absl::StatusOr<nav::NavMesh> read = nav::ReadWorldNavMeshMap(dir, format, map);
    if (!read.ok()) return read.status();
    maps_read.push_back(map);
    absl::StatusOr<std::unique_ptr<ServedNavMesh>> one =
        ServeNavMesh(nav::WorldNavMeshMap{map, *std::move(read)}, format, known, world);
    if (!one.ok()) return one.status();
    if (cache_bytes > 0 && total_bytes > 0) {
      const ServedNavMesh* self = one->get();
      (*one)->navmesh->EnableTileCache(
          static_cast<std::uint64_t>(static_cast<double>(cache_bytes) * bytes / total_bytes),
          [self](dtNavMesh& mesh, int index) { self->ground->ApplyToTile(mesh, index); });
    }
    served.push_back(*std::move(one));
  }
  for (const nav::NavMeshNoteMap& entry :
       known != nullptr ? known->maps : std::vector<nav::NavMeshNoteMap>{}) {
    if (absl::c_linear_search(maps_read, entry.map) || entry.content_hash == 0) continue;
    served.push_back(SavedOnlyNavMesh(entry));
  }
  std::sort(served.begin(), served.end(), [](const auto& a, const auto& b) {
    return std::tie(a->continent, a->map) < std::tie(b->continent, b->map);
  });
  for (std::size_t i = 1; i < served.size(); ++i) {
    if (served[i]->continent == served[i - 1]->continent) {
      return absl::InvalidArgumentError(absl::StrCat(
          dir, ": navmesh maps ", served[i - 1]->map, " and ", served[i]->map,
          " both walk continent ", served[i]->continent, " (navmesh.json maps each to one)"));
    }
  }
  return served;
}

// The travel network of the world in `dir` (travel.json), or, for the default world (`dir`
// empty), the demo world's, its nodes placed on the grid. Nodes off every surface are logged.
void LoadTravel(const std::string& dir, ServedWorld* served) {
  if (!served->has_grid()) return;
  absl::StatusOr<nav::TravelNetwork> network;
  if (dir.empty()) {
    network = nav::DemoTravel(DefaultWorldOptions(), served->world);
    served->travel_source = "generated";
  } else {
    const std::string path = (std::filesystem::path(dir) / nav::kTravelFileName).string();
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return;
    network = nav::ReadTravelFile(path);
    served->travel_source = path;
  }
  if (!network.ok()) {
    served->travel_error = std::string(network.status().message());
    std::cerr << "walkd: travel refused: " << served->travel_error << "\n";
    return;
  }
  for (const std::string& problem : nav::PlaceNodes(served->world, &*network)) {
    std::cerr << "walkd: " << served->travel_source << ": " << problem << "\n";
  }
  served->travel = std::make_shared<const nav::TravelNetwork>(*std::move(network));
}

}  // namespace

int ServedWorld::NavMeshIndexOf(nav::ContinentId continent) const {
  for (std::size_t i = 0; i < navmeshes.size(); ++i) {
    if (navmeshes[i]->continent == continent) return static_cast<int>(i);
  }
  return -1;
}

BackendChoice ServedWorld::DefaultBackend() const {
  if (navmeshes.empty()) return BackendChoice::kGrid;
  return has_grid() ? BackendChoice::kHybrid : BackendChoice::kNavMesh;
}

std::string DefaultWorldDir(const std::string& data_dir) {
  return (std::filesystem::path(data_dir) / "default-world").string();
}

absl::StatusOr<ServedWorld> LoadOrGenerateDefaultWorld(const std::string& data_dir,
                                                       const nav::BuildStop& stop) {
  const std::string dir = DefaultWorldDir(data_dir);
  ServedWorld served;
  served.name = kDefaultWorldName;
  if (nav::HasGrid(dir)) {
    absl::StatusOr<nav::LoadedWorld> cached = nav::LoadWorld(dir);
    if (cached.ok() && cached->source == DefaultWorldNote()) {
      served.source = cached->source;
      served.world = std::move(cached->world);
      return served;
    }
    std::cerr << "walkd: regenerating the default world: "
              << (cached.ok() ? "cache is from another generator" : cached.status().message())
              << "\n";
  }
  nav::DemoOptions options = DefaultWorldOptions();
  options.voxelize.stop = stop;
  absl::StatusOr<nav::World> world = nav::GenerateDemoWorld(options);
  if (!world.ok()) return world.status();
  served.source = DefaultWorldNote();
  served.world = *std::move(world);
  if (absl::Status saved = nav::SaveWorld(served.world, served.source, dir); !saved.ok()) {
    // Serving does not need the cache; say so and go on.
    std::cerr << "walkd: could not cache the default world: " << saved.message() << "\n";
  }
  return served;
}

const ServedWorld::MetricEntry* ServedWorld::MetricFor(const std::string& profile,
                                                       std::uint32_t band) const {
  const nav::Profile* wanted = nav::FindProfile(profile);
  if (wanted == nullptr) return nullptr;
  for (const MetricEntry& entry : metrics) {
    if (entry.metric->profile().name == wanted->name && entry.metric->band() == band) return &entry;
  }
  return nullptr;
}

WorldRegistry::~WorldRegistry() {
  StopReloading();
  JoinReloading();
  StopLoading();  // nobody will read the worlds still loading
  JoinLoading();
}

absl::StatusOr<std::vector<std::string>> WorldRegistry::Discover(const std::string& worlds_dir,
                                                                 const std::string& data_dir) {
  std::vector<WorldStatus> found;
  if (!worlds_dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(worlds_dir, ec)) {
      return absl::InvalidArgumentError(absl::StrCat("--worlds: ", worlds_dir, " is not a folder"));
    }
    for (const auto& entry : std::filesystem::directory_iterator(worlds_dir, ec)) {
      const std::string path = entry.path().string();
      if (entry.is_directory() && (nav::HasGrid(path) || nav::HasNavMesh(path))) {
        WorldStatus w;
        w.name = entry.path().filename().string();
        w.dir = entry.path().string();
        found.push_back(std::move(w));
      }
    }
    std::sort(found.begin(), found.end(),
              [](const WorldStatus& a, const WorldStatus& b) { return a.name < b.name; });
  }
  if (found.empty()) {
    WorldStatus w;
    w.name = kDefaultWorldName;  // dir empty: the embedded default world
    found.push_back(std::move(w));
  }
  std::vector<std::string> names;
  for (const WorldStatus& w : found) names.push_back(w.name);
  std::lock_guard<std::mutex> lock(mu_);
  worlds_ = std::move(found);
  stamps_.assign(worlds_.size(), FolderStamp());
  data_dir_ = data_dir;
  return names;
}

absl::StatusOr<ServedWorld> WorldRegistry::ReadWorld(const std::string& dir) const {
  if (dir.empty()) return LoadOrGenerateDefaultWorld(data_dir_, load_stop_);
  absl::StatusOr<ServedWorld> loaded;
  if (!nav::HasGrid(dir)) {
    loaded = ServedWorld();  // a navmesh alone: no grid
    loaded->source = dir;
  } else {
    std::string grid_note = "read whole";
    const std::string name = std::filesystem::path(dir).filename().string();
    absl::StatusOr<nav::LoadedWorld> read =
        map_grids_ && !data_dir_.empty()
            ? nav::LoadWorldMapped(
                  dir,
                  (std::filesystem::path(data_dir_) / "grid-images" / (name + ".walkimage"))
                      .string(),
                  &grid_note)
            : nav::LoadWorld(dir);
    if (!read.ok()) return read.status();
    loaded = ServedWorld();
    loaded->grid_note = grid_note;
    loaded->source = read->source;
    loaded->world = std::move(read->world);
  }
  if (absl::Status stop = load_stop_.Check("loading the world"); !stop.ok()) return stop;
  absl::StatusOr<std::vector<std::unique_ptr<ServedNavMesh>>> navmeshes =
      LoadNavMeshes(dir, loaded->world, navmesh_cache_bytes_);
  if (!navmeshes.ok()) return navmeshes.status();
  loaded->navmeshes = *std::move(navmeshes);
  return loaded;
}

namespace {

// The zone ids the surfaces of continent `c` carry, sorted: the entries of a band's danger table
// that can price its walks.
std::vector<std::uint16_t> ZonesOn(const nav::Continent& c) {
  std::vector<bool> seen(65536, false);
  for (std::uint32_t s = 0; s < c.surface_count(); ++s) seen[c.zone[s]] = true;
  std::vector<std::uint16_t> zones;
  for (std::uint32_t z = 1; z < seen.size(); ++z) {
    if (seen[z]) zones.push_back(static_cast<std::uint16_t>(z));
  }
  return zones;
}

}  // namespace

absl::Status WorldRegistry::SetUpModels(ServedWorld& served) const {
  const nav::AbstractRouter* router = served.router.get();
  const std::uint64_t travel_hash =
      served.travel != nullptr ? nav::TravelContentHash(*served.travel) : 0;
  std::vector<std::vector<std::uint16_t>> zones;
  for (const nav::Continent& c : served.world.continents) zones.push_back(ZonesOn(c));
  for (const std::string& name : nav::ProfileNames()) {
    if (absl::Status stop = load_stop_.Check("setting the world up"); !stop.ok()) return stop;
    const bool over_graph = router != nullptr && router->HasProfile(name);
    for (std::uint32_t band : nav::kDangerBands) {
      ServedWorld::MetricEntry entry;
      entry.metric = std::make_unique<nav::Metric>(served.world, *nav::FindProfile(name), band);
      // A trip may ride to any continent: its model is every continent's.
      nav::ContentHasher every;
      for (std::size_t k = 0; k < served.world.continents.size(); ++k) {
        const nav::Continent& c = served.world.continents[k];
        const nav::ContinentGraph* graph =
            over_graph && router->HasContinent(c) ? router->graph().Find(c.id) : nullptr;
        ServedWorld::ContinentModels models;
        models.continent = c.id;
        models.grid = store::ModelHash(
            {c.content_id, entry.metric.get(), store::kWalkerAnswerVersion,
             graph != nullptr ? router->graph().Fingerprint(*graph) : 0, &zones[k]});
        every.AddU64(models.grid);
        entry.continents.push_back(models);
      }
      entry.trip_model = store::TripModelHash({travel_hash, every.Finish()});
      AddNavMeshModels(served, entry);
      served.metrics.push_back(std::move(entry));
    }
  }
  return absl::OkStatus();
}

void WorldRegistry::AddNavMeshModels(const ServedWorld& served,
                                     ServedWorld::MetricEntry& entry) const {
  for (const auto& navmesh : served.navmeshes) {
    // Keyed by its own content hash and the content id of the continent it walks (which prices
    // its polygons), so another continent rebuilt keeps its answers.
    const nav::Continent* c = served.world.FindContinent(navmesh->continent);
    const std::uint64_t model = store::NavMeshModelHash(
        {navmesh->content_hash, c != nullptr ? c->content_id : 0, entry.metric.get()});
    auto at = std::find_if(entry.continents.begin(), entry.continents.end(),
                           [&](const auto& m) { return m.continent == navmesh->continent; });
    if (at != entry.continents.end()) {
      at->navmesh = model;
    } else {
      entry.continents.push_back({.continent = navmesh->continent, .navmesh = model});
    }
  }
  std::sort(entry.continents.begin(), entry.continents.end(),
            [](const auto& a, const auto& b) { return a.continent < b.continent; });
}

absl::Status WorldRegistry::SetUpWorld(const std::string& dir, ServedWorld& served) const {
  constexpr char kWhat[] = "setting the world up";
  for (const nav::Continent& c : served.world.continents) {
    served.columns.push_back(c.CountColumns());
    served.max_floors.push_back(c.MaxFloors());
  }
  const std::string graph_dir = dir.empty() ? DefaultWorldDir(data_dir_) : dir;
  if (!served.has_grid()) {
    served.graph_note = "no grid";
  } else {
    absl::StatusOr<std::unique_ptr<nav::AbstractGraph>> graph =
        LoadGraph(served.world, graph_dir, /*prepare_if_missing=*/dir.empty(), load_stop_,
                  &served.graph_note);
    if (!graph.ok()) return graph.status();  // stopped
    if (*graph != nullptr) {
      const bool all = absl::c_linear_search(profiles_at_load_, "all");
      absl::StatusOr<std::unique_ptr<nav::AbstractRouter>> router = nav::AbstractRouter::Build(
          served.world, std::move(**graph), leg_cache_bytes_, load_stop_, band_metric_bytes_,
          all ? (*graph)->profiles : profiles_at_load_);
      if (!router.ok()) return router.status();  // stopped
      served.router = *std::move(router);
    }
  }
  if (absl::Status stop = load_stop_.Check(kWhat); !stop.ok()) return stop;
  served.jump_grids = nav::JumpGrids(served.world);
  if (subgoal_hierarchies_) {
    served.subgoal_hierarchies = nav::SubgoalHierarchies(served.world, served.jump_grids);
  }
  LoadTravel(dir, &served);
  return SetUpModels(served);
}

namespace {

// A served world's deleter: what the world held goes back to the system at once (glibc keeps
// freed memory in its arenas otherwise, and a reload would leave walkd as large as two worlds).
void FreeWorld(ServedWorld* served) {
  delete served;
  malloc_trim(0);
}

}  // namespace

absl::StatusOr<std::shared_ptr<ServedWorld>> WorldRegistry::LoadServed(
    const std::string& dir) const {
  if (absl::Status why = load_stop_.Check("loading the world"); !why.ok()) return why;
  absl::StatusOr<ServedWorld> loaded = ReadWorld(dir);
  if (!loaded.ok()) return loaded.status();
  // The world gets its final address first: the router keeps a reference to it.
  std::shared_ptr<ServedWorld> served(new ServedWorld(*std::move(loaded)), FreeWorld);
  absl::Status why = SetUpWorld(dir, *served);
  // What setting the world up read of a mapped grid (its columns counted, the router built)
  // need not stay resident.
  nav::ReleaseMappedPages(served->world);
  if (!why.ok()) return why;
  return served;
}

std::string WorldRegistry::StampDir(const std::string& dir) const {
  return dir.empty() ? DefaultWorldDir(data_dir_) : dir;
}

void WorldRegistry::LoadOne(std::size_t index) {
  std::string dir;
  {
    std::lock_guard<std::mutex> lock(mu_);
    dir = worlds_[index].dir;
  }
  // Taken before the files are read, so a change made while they are is seen by the next
  // reload; the default world's after (walkd writes its cache itself while it loads).
  absl::StatusOr<FolderStamp> stamp = StampFolder(StampDir(dir));
  absl::StatusOr<std::shared_ptr<ServedWorld>> served = LoadServed(dir);
  if (dir.empty()) stamp = StampFolder(StampDir(dir));
  std::lock_guard<std::mutex> lock(mu_);
  WorldStatus& w = worlds_[index];
  if (stamp.ok()) stamps_[index] = *std::move(stamp);
  if (served.ok()) {
    (*served)->name = w.name;
    w.served = *std::move(served);
    w.state = WorldState::kReady;
    w.generation = 1;
  } else {
    w.state = WorldState::kFailed;
    w.stopped = absl::IsCancelled(served.status()) && stop_loading_;
    w.error = std::string(served.status().message());
  }
}

void WorldRegistry::StartLoading(std::function<void(const WorldStatus&)> on_change) {
  std::size_t count;
  {
    std::lock_guard<std::mutex> lock(mu_);
    count = worlds_.size();
    loading_ = true;
  }
  loader_ = std::thread([this, count, on_change = std::move(on_change)] {
    for (std::size_t i = 0; i < count; ++i) {
      LoadOne(i);
      WorldStatus status;
      {
        std::lock_guard<std::mutex> lock(mu_);
        status = worlds_[i];
      }
      if (on_change) on_change(status);
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      loading_ = false;
      loaded_once_ = true;
    }
    loaded_all_.notify_all();
    reload_wake_.notify_all();
  });
}

void WorldRegistry::Reload(const std::string& world, ReloadDone done) {
  std::unique_lock<std::mutex> lock(mu_);
  if (!world.empty() && std::none_of(worlds_.begin(), worlds_.end(),
                                     [&world](const WorldStatus& w) { return w.name == world; })) {
    lock.unlock();
    done(absl::NotFoundError(absl::StrCat("world: no world named '", world, "'")));
    return;
  }
  if (stop_reloading_) {
    lock.unlock();
    done(absl::UnavailableError("walkd is stopping: nothing is reloaded"));
    return;
  }
  reloads_.push_back({world, std::move(done)});
  if (!reloader_.joinable()) reloader_ = std::thread([this] { ReloadLoop(); });
  lock.unlock();
  reload_wake_.notify_all();
}

void WorldRegistry::StopReloading() {
  std::deque<ReloadRequest> not_begun;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_reloading_ = true;
    not_begun.swap(reloads_);
    // A reload runs only once the first loading is over: stopping its load stops nothing else.
    if (reloading_) stop_loading_ = true;
  }
  reload_wake_.notify_all();
  for (ReloadRequest& request : not_begun) {
    request.done(absl::UnavailableError("walkd is stopping: the reload was not begun"));
  }
}

void WorldRegistry::JoinReloading() {
  if (reloader_.joinable()) reloader_.join();
}

void WorldRegistry::ReloadLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    reload_wake_.wait(lock,
                      [this] { return stop_reloading_ || (loaded_once_ && !reloads_.empty()); });
    if (stop_reloading_) return;  // StopReloading answered what was queued
    ReloadRequest request = std::move(reloads_.front());
    reloads_.pop_front();
    reloading_ = true;
    std::vector<std::size_t> asked;
    for (std::size_t i = 0; i < worlds_.size(); ++i) {
      if (request.world.empty() || request.world == worlds_[i].name) asked.push_back(i);
    }
    lock.unlock();
    std::vector<WorldReload> results;
    for (std::size_t i : asked) results.push_back(ReloadOne(i));
    request.done(results);
    lock.lock();
    reloading_ = false;
  }
}

WorldReload WorldRegistry::ReloadOne(std::size_t index) {
  std::string dir;
  WorldReload reload;
  FolderStamp before;
  {
    std::lock_guard<std::mutex> lock(mu_);
    dir = worlds_[index].dir;
    reload.name = worlds_[index].name;
    before = stamps_[index];
  }
  absl::StatusOr<FolderStamp> now = StampFolder(StampDir(dir));
  if (now.ok() && *now == before) {
    std::lock_guard<std::mutex> lock(mu_);
    reload.result = ReloadResult::kUnchanged;
    reload.generation = worlds_[index].generation;
    if (worlds_[index].served) reload.content_id = worlds_[index].served->world.content_id;
    return reload;
  }
  const auto started = std::chrono::steady_clock::now();
  absl::StatusOr<std::shared_ptr<ServedWorld>> served =
      now.ok() ? LoadServed(dir) : absl::StatusOr<std::shared_ptr<ServedWorld>>(now.status());
  if (now.ok()) reload.changed = ChangedFiles(before, *now);
  if (dir.empty() && served.ok()) now = StampFolder(StampDir(dir));
  std::shared_ptr<const ServedWorld> old;  // freed, when last, outside the lock
  std::lock_guard<std::mutex> lock(mu_);
  WorldStatus& w = worlds_[index];
  const bool stopped = absl::IsCancelled(served.status()) && stop_loading_;
  if (now.ok() && !stopped) stamps_[index] = *std::move(now);
  if (served.ok()) {
    (*served)->name = w.name;
    old = std::exchange(w.served, *std::move(served));
    w.state = WorldState::kReady;
    w.error.clear();
    ++w.generation;
    ++w.reloads;
    reload.result = ReloadResult::kReloaded;
  } else {
    if (w.state == WorldState::kFailed) w.error = std::string(served.status().message());
    ++w.failed_reloads;
    reload.result = ReloadResult::kFailed;
    reload.error = std::string(served.status().message());
  }
  reload.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  reload.finished = std::chrono::system_clock::now();
  reload.generation = w.generation;
  if (w.served) reload.content_id = w.served->world.content_id;
  w.last_reload = reload;
  return reload;
}

bool WorldRegistry::WaitForLoadingUntil(std::chrono::system_clock::time_point deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  return loaded_all_.wait_until(lock, deadline, [this] { return !loading_; });
}

void WorldRegistry::JoinLoading() {
  if (loader_.joinable()) loader_.join();
}

absl::StatusOr<std::shared_ptr<const ServedWorld>> WorldRegistry::Find(
    const std::string& name) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const WorldStatus& w : worlds_) {
    if (w.name != name) continue;
    switch (w.state) {
      case WorldState::kReady:
        return w.served;
      case WorldState::kLoading:
        return absl::UnavailableError(absl::StrCat("world: '", name, "' is still loading"));
      case WorldState::kFailed:
        return absl::UnavailableError(
            absl::StrCat("world: '", name, "' failed to load: ", w.error));
    }
  }
  return absl::NotFoundError(absl::StrCat("world: no world named '", name, "'"));
}

std::vector<WorldStatus> WorldRegistry::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return worlds_;
}

bool WorldRegistry::AllReady() const {
  std::lock_guard<std::mutex> lock(mu_);
  return !worlds_.empty() && std::all_of(worlds_.begin(), worlds_.end(), [](const WorldStatus& w) {
    return w.state == WorldState::kReady;
  });
}

bool WorldRegistry::SettledWithOneReady() const {
  std::lock_guard<std::mutex> lock(mu_);
  bool any_ready = false;
  for (const WorldStatus& w : worlds_) {
    if (w.state == WorldState::kLoading) return false;
    any_ready = any_ready || w.state == WorldState::kReady;
  }
  return any_ready;
}

int WorldRegistry::ReadyCount() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(std::count_if(worlds_.begin(), worlds_.end(), [](const WorldStatus& w) {
    return w.state == WorldState::kReady;
  }));
}

int WorldRegistry::FailedCount() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(std::count_if(worlds_.begin(), worlds_.end(), [](const WorldStatus& w) {
    return w.state == WorldState::kFailed && !w.stopped;  // a stopped load is not a bad world
  }));
}

}  // namespace walk::server
