// What walkd is asked and what it answers, in plain C++: a walk (WalkQuery), a block of pairs
// (WalkPairs), and their answers (WalkResult, BlockAnswer). No proto type here: the gRPC handlers
// convert at the server's edge (server/proto_convert.h), and StoreFirstAnswerer speaks only these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "nav/grid/ids.h"
#include "nav/query/answer.h"
#include "nav/search/method.h"

namespace walk::server {

// Which backend a query asks for (WalkRequest.backend): the world's default, the grid, the
// navmesh, or the hybrid of the two (docs/navmesh.md).
enum class BackendChoice : std::uint8_t { kDefault, kGrid, kNavMesh, kHybrid };
const char* BackendChoiceName(BackendChoice choice);  // "default", "grid", "navmesh", "hybrid"

// Which backend a hybrid walk took, and why (BatchSummary counts them by band).
enum class HybridChoice : std::uint8_t {
  kNone,           // not a hybrid walk
  kNavMesh,        // the navmesh's walk
  kNavMeshNone,    // the grid's: the navmesh has no walk (or no saved answer)
  kNavMeshDetour,  // the grid's: the navmesh's walk costs more than the slack allows
};
const char* HybridChoiceName(HybridChoice choice);  // "", "navmesh", "navmesh_none", ...

// One walk asked: a WalkRequest, a PathRequest's walk, a Table cell, or a pair of a block.
struct WalkQuery {
  std::string world;
  // Both required: nullopt when the request named no place.
  std::optional<nav::Place> from;
  std::optional<nav::Place> to;
  std::string profile;  // empty: the default profile
  std::uint32_t band = 0;
  // kAuto, or a search forced for diagnostics.
  nav::SearchMode search = nav::SearchMode::kAuto;
  // The number of a search the request named that this walkd does not know (a newer client's):
  // Validate refuses it.
  std::optional<std::int32_t> unknown_search;
  BackendChoice backend = BackendChoice::kDefault;
  // As unknown_search, for the backend.
  std::optional<std::int32_t> unknown_backend;
  // Also find the way (Path). A path is always routed; its walk is still kept in the store.
  bool want_path = false;

  // Checks the fields that need no world: world, from, to, a known profile, a danger band, a
  // known search. INVALID_ARGUMENT names the field after `field_prefix` ("walk." for a
  // PathRequest's walk, "block." for a block's pairs, "" for a WalkRequest).
  absl::Status Validate(absl::string_view field_prefix) const;
};

// Pairs of one world, profile, band and pair of continents, in columns (a PairBlock): entry i of
// every column belongs to pair i, walked as a WalkQuery with search auto. It borrows its columns,
// which must outlive it.
struct WalkPairs {
  std::string world;
  std::string profile;
  std::uint32_t band = 0;
  BackendChoice backend = BackendChoice::kDefault;
  std::optional<std::int32_t> unknown_backend;
  nav::ContinentId from_continent = 0;
  nav::ContinentId to_continent = 0;
  std::span<const std::uint64_t> index;                // the caller's number of each pair
  std::span<const double> from_x, from_y, to_x, to_y;  // yards
  // Heights, yards: one a pair, or empty when no end names one; NaN: that end names none.
  std::span<const double> from_z, to_z;

  std::size_t size() const { return index.size(); }

  // The first column whose length is not size() (from_z and to_z may also be empty), as an
  // INVALID_ARGUMENT naming it ("block.from_y: ..."); OK when every column fits.
  absl::Status CheckColumns() const;

  // Pair i's places and walk. Require i < size() and CheckColumns() OK.
  nav::Place From(std::size_t i) const;
  nav::Place To(std::size_t i) const;
  WalkQuery Query(std::size_t i) const;
};

// One walk answered.
struct WalkResult {
  nav::WalkAnswer answer;   // with its way when the query wanted one
  std::uint32_t band = 0;   // the query's
  std::uint64_t model = 0;  // the model that decided it (store/model_hash.h)
  bool stored = false;      // the walk store answered it: no search ran
  nav::WorldFrame frame;    // the world's, which the reply's columns are given in
  // For a hybrid walk, which backend it took (the answer's method says which answered).
  HybridChoice hybrid = HybridChoice::kNone;
};

// One pair of a block answered: its entries of an AnswerBlock's columns.
struct BlockAnswer {
  std::uint64_t index = 0;
  // OK, or why the pair was refused (the fields below are then left as they are).
  absl::Status error;
  nav::WalkStatus status = nav::WalkStatus::kNoWalk;
  nav::Method method = nav::Method::kTrivial;
  double seconds = 0.0;  // 0 unless status is kOk
  double yards = 0.0;    // 0 unless status is kOk
  bool stored = false;
  bool from_band_zero = false;  // nav::WalkAnswer::from_band_zero
  std::uint64_t model = 0;
  HybridChoice hybrid = HybridChoice::kNone;
};

// Pair `index` refused with `why` (not OK).
BlockAnswer RefusedBlockAnswer(std::uint64_t index, const absl::Status& why);

}  // namespace walk::server
