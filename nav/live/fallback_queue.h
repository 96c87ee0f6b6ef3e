// The bounded queue of deferred group searches, shared by every live world of a server.
//
// A group plan runs at most a few per-member searches and defers the rest (group_path.h); their
// searches wait here and are served on one thread of the queue's own, so however many groups ask,
// fallbacks take one core, and their answers land in each world's path cache for the members'
// next request. Worlds are served in turn, one search each, and each world may hold at most
// `per_world` of the queue: one world's flood of fallbacks cannot starve another's. A search
// that finds its queue full is dropped (its member stays deferred and a later request queues it
// again); one already queued is not queued twice.
//
// A world with searches waiting is kept alive by the queue (Push takes a shared_ptr) until they are
// served or Forget drops them, so a world dropped from its server while a search of its waits is
// never searched after it is freed.
//
// Thread safety: every member is safe to call from any thread. A world pushed by raw pointer must
// outlive its searches.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <tuple>

#include "nav/live/group_path.h"
#include "nav/live/live_world.h"

namespace walk::nav::live {

struct FallbackQueueOptions {
  std::size_t capacity = 4096;   // searches queued over all worlds
  std::size_t per_world = 1024;  // searches one world may have queued
};

struct FallbackQueueCounters {
  std::uint64_t queued = 0;   // searches accepted
  std::uint64_t dropped = 0;  // searches refused: the queue or the world's share was full
  std::uint64_t served = 0;   // searches run
  std::uint64_t waiting = 0;  // now
};

class FallbackQueue {
 public:
  explicit FallbackQueue(const FallbackQueueOptions& options = {});
  ~FallbackQueue();  // stops the serving thread (searches still queued are dropped)
  FallbackQueue(const FallbackQueue&) = delete;
  FallbackQueue& operator=(const FallbackQueue&) = delete;

  // Queues `search` for `world`. False when it was dropped (see above); true when queued now or
  // already waiting.
  bool Push(std::shared_ptr<LiveWorld> world, const DeferredSearch& search);
  // The same for a world the caller keeps alive.
  bool Push(LiveWorld* world, const DeferredSearch& search) {
    return Push(std::shared_ptr<LiveWorld>(std::shared_ptr<void>(), world), search);
  }
  // Drops every search `world` has waiting (a world being dropped); returns how many.
  std::size_t Forget(const LiveWorld* world);
  // Runs waiting searches on the calling thread, worlds in turn, until `max` ran or they expanded
  // `max_cells` cells (a game loop's budget for a tick); returns how many ran.
  std::size_t Serve(std::size_t max,
                    std::uint64_t max_cells = std::numeric_limits<std::uint64_t>::max());
  // Serves waiting searches on a thread of the queue's own until it is destroyed.
  void Start();

  FallbackQueueCounters Counters() const;
  // Searches `world` has waiting now.
  std::size_t Waiting(const LiveWorld* world) const;
  // Whether `search` of `world` is waiting now.
  bool IsWaiting(const LiveWorld* world, const DeferredSearch& search) const;

 private:
  // World, start, goal, passability and body (radius class, half-width class).
  using Key = std::tuple<const LiveWorld*, std::int32_t, std::int32_t, std::int32_t, std::int32_t,
                         Passability, std::uint16_t, std::uint16_t>;
  static Key KeyOf(const LiveWorld* world, const DeferredSearch& s);
  // Takes the next search, the world after `last_world_` first. Call with mu_ held.
  bool TakeNext(std::shared_ptr<LiveWorld>* world, DeferredSearch* search);
  void ServeLoop();

  const FallbackQueueOptions options_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  struct WorldQueue {
    std::shared_ptr<LiveWorld> world;  // kept alive while searches of its wait
    std::deque<DeferredSearch> searches;
  };
  std::map<const LiveWorld*, WorldQueue> waiting_;  // guarded by mu_; no empty queues
  std::set<Key> keys_;                              // guarded by mu_: what is waiting
  std::size_t size_ = 0;                            // guarded by mu_
  const LiveWorld* last_world_ = nullptr;           // guarded by mu_
  bool stop_ = false;                               // guarded by mu_
  FallbackQueueCounters counters_;                  // guarded by mu_
  std::thread thread_;
};

}  // namespace walk::nav::live
