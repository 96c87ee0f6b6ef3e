// One search thread's navmesh walker, made on first use and bound to the navmesh of each walk in
// turn: its Detour node pool (about 2 MB) is allocated once and reused by every walk on every
// navmesh, so a world of many maps costs one pool a thread, not one a map and thread.
// Not thread-safe: each search thread owns one (nav::Searchers).
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "nav/navmesh/navmesh.h"
#include "nav/navmesh/navmesh_walker.h"

namespace walk::nav {

class NavMeshWalkers {
 public:
  // The walker, bound to `navmesh` (which must outlive its walks; a reloaded world's navmesh
  // may be freed after: the walker keeps nothing of it that it uses again, and knows the next
  // navmesh by its serial). Errors: those of NavMeshWalker::Create and Bind.
  absl::StatusOr<NavMeshWalker*> For(const NavMesh& navmesh) {
    if (walker_ == nullptr) {
      absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(navmesh);
      if (!walker.ok()) return walker.status();
      walker_ = std::make_unique<NavMeshWalker>(*std::move(walker));
    }
    if (absl::Status s = walker_->Bind(navmesh); !s.ok()) return s;
    return walker_.get();
  }

 private:
  std::unique_ptr<NavMeshWalker> walker_;
};

}  // namespace walk::nav
