// The walk store's health as walkd sees it. A write that fails (a full disk, an I/O error, the
// store's --store-max-bytes quota) makes it degraded: walks are still answered and returned, but
// not kept, and lookups that fail are answered as misses (routed). While degraded a background
// thread asks the store to take writes again (WalkStore::Resume) every `retry`; the first time
// it does, the store is opened again (WalkStore::Reopen) and is healthy: no restart. Every change
// is told to `on_change` (health service "walkd.store", /readyz's note, the log,
// walk_store_degraded).
//
// Thread safety: every method may be called from any thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "server/walk_metrics.h"
#include "store/walk_store.h"

namespace walk::server {

class StoreHealth {
 public:
  // `degraded` and why (empty when healthy again).
  using OnChange = std::function<void(bool degraded, const std::string& why)>;

  // Watches `store` (borrowed, must outlive this object), counting in `metrics`.
  StoreHealth(store::WalkStore& store, WalkMetrics& metrics, OnChange on_change,
              std::chrono::milliseconds retry = std::chrono::seconds(2));
  // Stops the retry thread.
  ~StoreHealth();
  StoreHealth(const StoreHealth&) = delete;
  StoreHealth& operator=(const StoreHealth&) = delete;

  // A write failed with `why`: counted, and the store is degraded until it resumes.
  void WriteFailed(const absl::Status& why);
  // A lookup failed with `why`: counted (the caller answers it as a miss).
  void ReadFailed(const absl::Status& why);
  // True while the store takes no writes: callers skip writing (and count what they do not keep).
  bool degraded() const { return degraded_.load(std::memory_order_relaxed); }
  // Why it is degraded ("" when it is not).
  std::string why() const;

 private:
  void RetryLoop();

  store::WalkStore& store_;
  WalkMetrics& metrics_;
  const OnChange on_change_;
  const std::chrono::milliseconds retry_;
  std::atomic<bool> degraded_{false};
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::string why_;        // guarded by mu_
  bool stopping_ = false;  // guarded by mu_
  std::thread retrier_;
};

}  // namespace walk::server
