// The model: everything that decides a walk's answer, hashed into the half of every store key
// that is not the ends. Nothing that does not change an answer goes in (not a world's folder
// name, not a log setting, not the source code), so an unchanged model keeps its answers and a
// changed one can never return a stale answer. docs/store.md lists what goes in.
#pragma once

#include <cstdint>
#include <vector>

#include "nav/cost/metric.h"

namespace walk::store {

// The walker's answer version: bump it whenever the walker answers differently for the same
// ends on the same grid (a fix in snapping, settling, searching or measuring). Old answers stop
// matching.
inline constexpr std::uint32_t kWalkerAnswerVersion = 4;

struct ModelInputs {
  // nav::Continent::content_id of the continent walked (a world's answers are keyed per
  // continent, so a continent rebuilt alone re-asks only its own walks).
  std::uint64_t grid_content_id = 0;
  const nav::Metric* metric = nullptr;  // cost model, profile, band and its danger table
  std::uint32_t walker_answer_version = kWalkerAnswerVersion;
  // nav::AbstractGraph::Fingerprint() when walks of this profile go over the world's abstract
  // graph (its cell side and entrance spacing decide answers), 0 when the fine grid answers.
  std::uint64_t abstract_graph = 0;
  // The zones the continent holds, sorted (null: every zone): only their entries of the band's
  // danger table are hashed, so relevelling a zone re-asks only the continents that hold it.
  const std::vector<std::uint16_t>* zones = nullptr;
};

// The model hash of `inputs`: stable across runs, machines and builds.
std::uint64_t ModelHash(const ModelInputs& inputs);

// The navmesh backend's answer version: bump it whenever a navmesh walk answers differently for
// the same ends on the same navmesh and grid (snapping, the classes polygons get, pricing,
// measuring). Old answers stop matching.
inline constexpr std::uint32_t kNavMeshAnswerVersion =
    2;  // 2: ends without a height on the usual floor

// What decides a navmesh walk's answer. The pricing classes are a function of the navmesh, the
// grid beside it and kNavMeshAnswerVersion, so the grid's content id stands for them: a walkd
// without the navmesh files still knows the model of the answers they gave (saved answers).
struct NavMeshModelInputs {
  std::uint64_t navmesh_content_hash = 0;  // nav::NavMesh::content_hash
  std::uint64_t grid_content_id = 0;       // its continent's content id (it is priced by); 0: none
  const nav::Metric* metric = nullptr;     // cost model, profile, band and its danger table
  std::uint32_t answer_version = kNavMeshAnswerVersion;
};

// The model hash of a navmesh walk's answers: never equal to a grid walk's.
std::uint64_t NavMeshModelHash(const NavMeshModelInputs& inputs);

// The trip search's answer version: bump it whenever a trip answers differently for the same
// question on the same network and walks (the search, how legs are priced or joined).
inline constexpr std::uint32_t kTripAnswerVersion = 1;

// What decides a trip's answer: the travel network as placed, the walks it joins (the grid's
// model of the profile and band) and the trip search's version.
struct TripModelInputs {
  std::uint64_t travel_content_hash = 0;  // nav::TravelContentHash; 0 without a network
  // The grid's models of the profile and band on every continent, hashed together (a trip may
  // ride to any of them).
  std::uint64_t grid_model = 0;
  std::uint32_t answer_version = kTripAnswerVersion;
};

// The model hash of a trip's answers: never equal to a walk's.
std::uint64_t TripModelHash(const TripModelInputs& inputs);

}  // namespace walk::store
