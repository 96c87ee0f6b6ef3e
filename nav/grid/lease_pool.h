// Search state kept for reuse by whichever thread searches next: a Detour query's node pool, a
// CCH's query labels. Each object is leased to one search at a time and comes back to the pool
// when its lease ends, so a pool holds as many objects as searches ever ran on it at once.
//
// Why a pool and not one object per thread keyed by what it searches: the pool belongs to what
// its objects search (a navmesh, a CCH) and goes with it. A world that walkd reloads takes its
// search state with it when its last walk ends; per-thread maps keyed by address would keep it
// (and would hand a new world at the same address a state made for the old one).
//
// Thread safety: Take may be called from any thread; a lease is used by one thread at a time.
// The pool must outlive its leases (they are taken by searches that hold what the pool belongs
// to).
#pragma once

#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"

namespace walk::nav {

template <typename T>
class LeasePool {
 public:
  // One object, for the lease's life; handed back to its pool when the lease ends.
  class Lease {
   public:
    Lease(Lease&& other) noexcept
        : pool_(std::exchange(other.pool_, nullptr)), object_(std::move(other.object_)) {}
    Lease& operator=(Lease&&) = delete;
    ~Lease() {
      if (pool_ != nullptr) pool_->Return(std::move(object_));
    }
    T& operator*() const { return *object_; }
    T* operator->() const { return object_.get(); }

   private:
    friend class LeasePool;
    Lease(LeasePool* pool, std::unique_ptr<T> object) : pool_(pool), object_(std::move(object)) {}
    LeasePool* pool_;
    std::unique_ptr<T> object_;
  };

  LeasePool() = default;
  LeasePool(const LeasePool&) = delete;
  LeasePool& operator=(const LeasePool&) = delete;

  // An idle object (the one returned last: its memory is the likeliest still cached), or, when
  // none is idle, the one `make` makes.
  Lease Take(absl::FunctionRef<std::unique_ptr<T>()> make) {
    std::unique_ptr<T> object = PopIdle();
    return Lease(this, object != nullptr ? std::move(object) : make());
  }
  // The same for a `make` that may fail. Errors: those of `make`.
  absl::StatusOr<Lease> TryTake(absl::FunctionRef<absl::StatusOr<std::unique_ptr<T>>()> make) {
    if (std::unique_ptr<T> object = PopIdle()) return Lease(this, std::move(object));
    absl::StatusOr<std::unique_ptr<T>> made = make();
    if (!made.ok()) return made.status();
    return Lease(this, *std::move(made));
  }

  // Objects made and not leased now.
  std::size_t idle() const {
    std::lock_guard<std::mutex> lock(mu_);
    return idle_.size();
  }

 private:
  std::unique_ptr<T> PopIdle() {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.empty()) return nullptr;
    std::unique_ptr<T> object = std::move(idle_.back());
    idle_.pop_back();
    return object;
  }
  void Return(std::unique_ptr<T> object) {
    std::lock_guard<std::mutex> lock(mu_);
    idle_.push_back(std::move(object));
  }

  mutable std::mutex mu_;
  std::vector<std::unique_ptr<T>> idle_;  // guarded by mu_
};

}  // namespace walk::nav
