// The walkers of one navmesh, shared by the threads that walk on it: each walk leases one (a
// walker's Detour node pool is allocated once, then reused by every walk it serves), and the
// pool holds as many as walks ever ran on the navmesh at once. It belongs beside its navmesh
// and goes with it: a world walkd reloads takes its walkers along (nav/grid/lease_pool.h).
//
// Thread safety: Take may be called from any thread.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "nav/grid/lease_pool.h"
#include "nav/navmesh/navmesh.h"
#include "nav/navmesh/navmesh_walker.h"

namespace walk::nav {

class NavMeshWalkers {
 public:
  using Lease = LeasePool<NavMeshWalker>::Lease;

  // A walker on `navmesh`, which must be the navmesh this pool belongs beside (every walker of
  // the pool walks it) and outlive the pool. Errors: those of NavMeshWalker::Create.
  absl::StatusOr<Lease> Take(const NavMesh& navmesh) {
    return pool_.TryTake([&navmesh]() -> absl::StatusOr<std::unique_ptr<NavMeshWalker>> {
      absl::StatusOr<NavMeshWalker> walker = NavMeshWalker::Create(navmesh);
      if (!walker.ok()) return walker.status();
      return std::make_unique<NavMeshWalker>(*std::move(walker));
    });
  }
  // Walkers made and not leased now.
  std::size_t idle() const { return pool_.idle(); }

 private:
  LeasePool<NavMeshWalker> pool_;
};

}  // namespace walk::nav
