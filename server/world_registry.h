// The worlds walkd serves, by name, and how far each has got in loading.
//
// Worlds are declared at start (state kLoading) and loaded on a background thread; a world is
// served only once kReady. Reload loads again the worlds whose files changed, beside those
// serving, and swaps each in when ready (docs/operations.md, "Reloading worlds"). Thread safety:
// every method may be called from any thread; a served world is a shared_ptr to an immutable World,
// so a lookup never blocks a load for long.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "nav/abstract/abstract_router.h"
#include "nav/cch/subgoal_hierarchies.h"
#include "nav/cost/metric.h"
#include "nav/grid/build_stop.h"
#include "nav/grid/grid.h"
#include "nav/navmesh/lift_connections.h"
#include "nav/navmesh/navmesh.h"
#include "nav/navmesh/navmesh_ground.h"
#include "nav/navmesh/navmesh_walkers.h"
#include "nav/query/snap_cache.h"
#include "nav/search/jump_grid.h"
#include "nav/travel/travel_network.h"
#include "server/folder_stamp.h"
#include "server/walk_query.h"

namespace walk::server {

// The name walkd gives its embedded default world.
inline constexpr char kDefaultWorldName[] = "default";

enum class WorldState { kLoading, kReady, kFailed };

// One of a world's navmeshes as served (docs/navmesh.md), one a continent: the Detour navmesh
// with its polygons priced by the grid beside it, or, where the folder keeps only the navmesh's
// note, the content hash its saved answers are keyed by.
struct ServedNavMesh {
  std::optional<nav::NavMesh> navmesh;       // unset: saved answers only
  std::optional<nav::NavMeshGround> ground;  // set with `navmesh`
  std::uint64_t content_hash = 0;   // as its files hold it (before lift rides are appended)
  std::uint32_t map = 0;            // its map number (MMM.mmap; navmesh.bin is map 0)
  nav::ContinentId continent = 0;   // the continent it walks (navmesh.json; else the map number)
  nav::LiftConnectionCounts lifts;  // the grid's lift rides it had, and those appended at load
  std::string format;               // "mset", "mmaps"; empty when saved answers only
  std::string note;                 // what was loaded, for the log and Info

  bool saved_only() const { return !navmesh.has_value(); }
};

// A world ready to serve.
struct ServedWorld {
  std::string name;
  std::string source;  // where its grid came from (the grid file's note)
  nav::World world;
  // Per continent (in world.continents' order), counted once at load for Info.
  std::vector<std::uint64_t> columns;
  std::vector<std::uint32_t> max_floors;
  // The models a continent's answers are stored under (store/model_hash.h: the half of every
  // store key that is not the ends): its grid's, and its navmesh's (0: none).
  struct ContinentModels {
    nav::ContinentId continent = 0;
    std::uint64_t grid = 0;
    std::uint64_t navmesh = 0;
  };
  // Every profile's metric in every danger band, customized once at load, with the models of its
  // answers on each continent.
  struct MetricEntry {
    std::unique_ptr<nav::Metric> metric;
    // Per continent, by id: each continent's answers are keyed by its own content id, so a
    // continent rebuilt alone re-asks only its own walks.
    std::vector<ContinentModels> continents;
    std::uint64_t trip_model = 0;  // trips' model (TripModelHash): the network, every continent

    // The models of continent `id` (zeros when the world has no such continent).
    ContinentModels On(nav::ContinentId id) const {
      for (const ContinentModels& m : continents) {
        if (m.continent == id) return m;
      }
      return {.continent = id};
    }
  };
  std::vector<MetricEntry> metrics;
  // The abstract graph walks go over (walkgrid prepare), or null: every walk searches the fine
  // grid. `graph_note` says which, and why (for the log and Info).
  std::unique_ptr<nav::AbstractRouter> router;
  std::string graph_note;
  // How its grid was loaded: "mapped from IMAGE" or "read whole" (and why).
  std::string grid_note = "read whole";
  // The jump tables of its continents that are plain octile grids (MovingAI maps): their exact
  // walks go by jump points. `jump_grids.note()` says which, and why not.
  nav::JumpGrids jump_grids;
  // Their subgoal hierarchies, where within budget: exact walks there go by the hierarchy
  // (nav/cch/subgoal_hierarchies.h). `subgoal_hierarchies.note()` says which, and why not.
  nav::SubgoalHierarchies subgoal_hierarchies;
  // The world's navmeshes, one a continent at most, by continent: the navmesh backend is refused
  // on a continent without one (the hybrid walks the grid there), and on a world without any
  // the navmesh and hybrid backends are refused.
  std::vector<std::unique_ptr<ServedNavMesh>> navmeshes;
  // The world's travel network (travel.json beside its grid; the default world's is generated),
  // its nodes placed on the grid, or null: trips then walk. `travel_error` says why travel.json
  // was refused (trips are then refused too); `travel_source` where it came from.
  std::shared_ptr<const nav::TravelNetwork> travel;
  std::string travel_error;
  std::string travel_source;
  // The snaps of places asked before (nav/query/snap_cache.h): every snap walkd makes before a
  // walk (keys, table places, trips' ends) goes through it.
  std::unique_ptr<nav::SnapCache> snaps = std::make_unique<nav::SnapCache>();

  // True when the world has a grid (a world folder may hold a navmesh alone).
  bool has_grid() const { return !world.continents.empty(); }
  bool has_navmesh() const { return !navmeshes.empty(); }
  // The position in `navmeshes` of `continent`'s navmesh, or -1 when it has none.
  int NavMeshIndexOf(nav::ContinentId continent) const;
  // The backend a query that names none gets: the hybrid with both, else the one there is.
  BackendChoice DefaultBackend() const;

  // The metric of `profile` in `band`, or nullptr when either is unknown.
  const MetricEntry* MetricFor(const std::string& profile, std::uint32_t band) const;
  // nav::SnapPlace(continent, its frame, place) and nav::SnapSurface, through `snaps`.
  nav::Snap SnapOf(const nav::Continent& continent, const nav::Place& place) const {
    return snaps->SnapOf(continent, world.FrameOf(continent), place);
  }
  nav::SurfaceSnap SurfaceOf(const nav::Continent& continent, const nav::Place& place) const {
    return snaps->SurfaceOf(continent, world.FrameOf(continent), place);
  }
};

// What a reload did to one world.
enum class ReloadResult {
  kNone,       // no reload has found the world's files changed
  kReloaded,   // the new world serves
  kUnchanged,  // its files had not changed: nothing was loaded
  kFailed,     // the new world failed to load: the old one (if any) still serves
};

// One world's reload: the answer to a reload, and the last one in WorldStatus.
struct WorldReload {
  std::string name;
  ReloadResult result = ReloadResult::kNone;
  std::string error;     // why it failed
  std::string changed;   // the files that changed (server/folder_stamp.h)
  double seconds = 0.0;  // reading, setting up and swapping in the new world
  std::chrono::system_clock::time_point finished;
  // After the reload: the content id of the world serving (0: none serves) and its generation.
  std::uint64_t content_id = 0;
  std::uint64_t generation = 0;
};

struct WorldStatus {
  std::string name;
  std::string dir;
  WorldState state = WorldState::kLoading;
  std::string error;  // why it failed
  // Failed because walkd stopped before the world was loaded (StopLoading): nothing is wrong
  // with the world, and nothing half built of it was saved.
  bool stopped = false;
  std::shared_ptr<const ServedWorld> served;  // set when kReady
  // Loads that succeeded: 1 once the world first serves, one more per reload that succeeded.
  std::uint64_t generation = 0;
  // The last reload that found the world's files changed (result kNone: none yet), and how many
  // reloaded it or failed.
  WorldReload last_reload;
  std::uint64_t reloads = 0;
  std::uint64_t failed_reloads = 0;
};

class WorldRegistry {
 public:
  WorldRegistry() = default;
  ~WorldRegistry();
  WorldRegistry(const WorldRegistry&) = delete;
  WorldRegistry& operator=(const WorldRegistry&) = delete;

  // Declares the worlds under `worlds_dir` (each subfolder holding a grid file, a navmesh or a
  // navmesh's note, named by it), or
  // the embedded default world cached under `data_dir` when there are none. Returns the names.
  // Errors: INVALID_ARGUMENT when `worlds_dir` is given but is not a folder.
  absl::StatusOr<std::vector<std::string>> Discover(const std::string& worlds_dir,
                                                    const std::string& data_dir);

  // Loads every declared world on a background thread, calling `on_change` with each world's
  // status once it has loaded or failed.
  void StartLoading(std::function<void(const WorldStatus&)> on_change);
  // Waits for the loading thread (tests; shutdown).
  void JoinLoading();
  // Waits until the loading thread has loaded every world or `deadline` passes; true when it
  // has (or never started).
  bool WaitForLoadingUntil(std::chrono::system_clock::time_point deadline);
  // Abandons the loading (walkd stopping): the world being loaded stops within milliseconds
  // (its long steps ask a nav::BuildStop), the worlds after it are not begun, and each ends
  // kFailed with `stopped` set. Nothing half built is saved: a world's files are written whole
  // (staged, then renamed) or not at all. Returns at once; JoinLoading waits.
  void StopLoading() { stop_loading_ = true; }

  // Reloads `world` (empty: every world) once the first loading is over, on a thread of its
  // own, one reload after another: each world whose folder's files changed since it was loaded
  // (FolderStamp) is loaded again beside the one serving, by the same steps as the first load,
  // and swapped in once ready. Calls holding the old world finish on it; it is freed when the
  // last of them lets it go. A world that fails to load again keeps its old world serving (a
  // world that had failed stays failed), and its files are not tried again until they change.
  // `done` is called once, on the reloading thread, with every world's result, or with
  // NOT_FOUND (no world of that name; called before Reload returns) or UNAVAILABLE (walkd is
  // stopping: StopReloading).
  using ReloadDone = std::function<void(const absl::StatusOr<std::vector<WorldReload>>&)>;
  void Reload(const std::string& world, ReloadDone done);
  // Stops reloading for good (walkd stopping): reloads not begun end UNAVAILABLE, one under way
  // stops within milliseconds (as StopLoading stops a load) and keeps the old world. Returns at
  // once.
  void StopReloading();
  // Waits for the reloading thread to end (after StopReloading): `done` callbacks run no more.
  void JoinReloading();

  // The world of that name. Errors: NOT_FOUND (unknown name), UNAVAILABLE (loading or failed;
  // the message says which).
  absl::StatusOr<std::shared_ptr<const ServedWorld>> Find(const std::string& name) const;

  // The byte budget of each world's leg cache (legs of places into its abstract graph). Call
  // before StartLoading.
  void SetLegCacheBytes(std::uint64_t bytes) { leg_cache_bytes_ = bytes; }
  // The byte budget of each world's band metrics (nav/abstract/band_metrics.h; 0: none). Call
  // before StartLoading.
  void SetBandMetricBytes(std::uint64_t bytes) { band_metric_bytes_ = bytes; }
  // The profiles whose metrics each world customizes at load ("all": every prepared one); the
  // others on their first walk. Call before StartLoading.
  void SetProfilesAtLoad(std::vector<std::string> profiles) {
    profiles_at_load_ = std::move(profiles);
  }
  // Serve grids from mapped images in the data folder (nav/grid/grid_image.h).
  void SetMapGrids(bool map) { map_grids_ = map; }
  // Build the subgoal hierarchies of plain octile grids (nav/cch/subgoal_hierarchies.h). Call
  // before StartLoading.
  void SetSubgoalHierarchies(bool build) { subgoal_hierarchies_ = build; }
  // The bytes of navmesh tiles each world keeps resident (shared among its maps by their files'
  // size; nav/navmesh/tile_cache.h); 0 keeps every tile. Call before StartLoading.
  void SetNavMeshCacheBytes(std::uint64_t bytes) { navmesh_cache_bytes_ = bytes; }

  std::vector<WorldStatus> Snapshot() const;
  // True when every declared world is ready (and there is at least one).
  bool AllReady() const;
  // True when no world is still loading and at least one is ready (the others failed).
  bool SettledWithOneReady() const;
  int ReadyCount() const;
  // Worlds that failed to load, not counting those whose loading was stopped (StopLoading).
  int FailedCount() const;

 private:
  struct ReloadRequest {
    std::string world;  // empty: every world
    ReloadDone done;
  };
  void LoadOne(std::size_t index);
  // The world in `dir` read and set up to serve (ReadWorld, SetUpWorld). Errors: why it failed;
  // CANCELLED once the loading is stopped.
  absl::StatusOr<std::shared_ptr<ServedWorld>> LoadServed(const std::string& dir) const;
  // The reloading thread: runs the requests queued, one after another.
  void ReloadLoop();
  // Reloads world `index` when its files changed.
  WorldReload ReloadOne(std::size_t index);
  // The folder a world's stamp is taken of: its own, or the default world's cache.
  std::string StampDir(const std::string& dir) const;
  // The world in folder `dir` (empty: the default world) read, or generated, with its navmesh.
  absl::StatusOr<ServedWorld> ReadWorld(const std::string& dir) const;
  // Sets `served` up to answer walks: its abstract graph and router, jump grids, travel network
  // and metrics. CANCELLED once the loading is stopped.
  absl::Status SetUpWorld(const std::string& dir, ServedWorld& served) const;
  // Every profile and band's metric, with the models of its answers on each continent.
  absl::Status SetUpModels(ServedWorld& served) const;
  // The navmesh's models of `entry`.
  void AddNavMeshModels(const ServedWorld& served, ServedWorld::MetricEntry& entry) const;

  mutable std::mutex mu_;
  std::condition_variable loaded_all_;  // notified when the loading thread is done
  bool loading_ = false;                // guarded by mu_: the loading thread still runs
  std::vector<WorldStatus> worlds_;     // guarded by mu_
  std::vector<FolderStamp> stamps_;     // guarded by mu_: each world's files when it was loaded
  bool loaded_once_ = false;            // guarded by mu_: the first loading is over
  std::deque<ReloadRequest> reloads_;   // guarded by mu_: reloads not begun
  bool reloading_ = false;              // guarded by mu_: a reload is under way
  bool stop_reloading_ = false;         // guarded by mu_
  std::condition_variable reload_wake_;
  std::thread reloader_;  // started by the first Reload
  std::string data_dir_;
  std::uint64_t leg_cache_bytes_ = 256ull << 20;
  std::uint64_t band_metric_bytes_ = 0;
  std::vector<std::string> profiles_at_load_;
  bool map_grids_ = false;
  bool subgoal_hierarchies_ = true;
  std::uint64_t navmesh_cache_bytes_ = 0;
  std::atomic<bool> stop_loading_{false};
  nav::BuildStop load_stop_{&stop_loading_};  // what the loading's long steps ask
  std::thread loader_;
};

// Loads the default world (a 2 x 2-tile demo world) from its cache under `data_dir`, or
// generates it (and caches it) when the cache is missing, damaged or from another generator.
// CANCELLED (nothing cached) when `stop` says stop while it is generated.
absl::StatusOr<ServedWorld> LoadOrGenerateDefaultWorld(const std::string& data_dir,
                                                       const nav::BuildStop& stop = {});

// The folder the default world is cached in under `data_dir`.
std::string DefaultWorldDir(const std::string& data_dir);

}  // namespace walk::server
