// One search thread's navmesh walkers, one per navmesh it has walked on, made on first use (a
// walker's Detour node pool is allocated once, then reused by every walk on that navmesh).
// Not thread-safe: each search thread owns one (nav::Searchers).
#pragma once

#include <map>
#include <memory>

#include "absl/status/statusor.h"
#include "nav/navmesh/navmesh.h"
#include "nav/navmesh/navmesh_walker.h"

namespace walk::nav {

class NavMeshWalkers {
 public:
  // The walker on `navmesh` (which must outlive this object: served worlds are never unloaded),
  // made the first time it is asked for. Errors: those of NavMeshWalker::Create.
  absl::StatusOr<NavMeshWalker*> For(const NavMesh& navmesh) {
    auto it = walkers_.find(&navmesh);
    if (it == walkers_.end()) {
      absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(navmesh);
      if (!walker.ok()) return walker.status();
      it = walkers_.emplace(&navmesh, std::make_unique<NavMeshWalker>(*std::move(walker))).first;
    }
    return it->second.get();
  }

 private:
  std::map<const NavMesh*, std::unique_ptr<NavMeshWalker>> walkers_;
};

}  // namespace walk::nav
