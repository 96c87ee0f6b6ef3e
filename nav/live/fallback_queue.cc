#include "nav/live/fallback_queue.h"

namespace walk::nav::live {

FallbackQueue::FallbackQueue(const FallbackQueueOptions& options) : options_(options) {}

FallbackQueue::~FallbackQueue() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

FallbackQueue::Key FallbackQueue::KeyOf(const LiveWorld* world, const DeferredSearch& s) {
  return Key{world,    s.start.x,     s.start.y,   s.goal.x,
             s.goal.y, s.passability, s.body.need, s.body.half_width};
}

bool FallbackQueue::Push(std::shared_ptr<LiveWorld> world, const DeferredSearch& search) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    const Key key = KeyOf(world.get(), search);
    if (keys_.count(key) != 0) return true;
    auto it = waiting_.find(world.get());
    const std::size_t mine = it == waiting_.end() ? 0 : it->second.searches.size();
    if (size_ >= options_.capacity || mine >= options_.per_world) {
      ++counters_.dropped;
      return false;
    }
    if (it == waiting_.end()) it = waiting_.emplace(world.get(), WorldQueue{world, {}}).first;
    it->second.searches.push_back(search);
    keys_.insert(key);
    ++size_;
    ++counters_.queued;
  }
  wake_.notify_one();
  return true;
}

bool FallbackQueue::TakeNext(std::shared_ptr<LiveWorld>* world, DeferredSearch* search) {
  if (size_ == 0) return false;
  auto it = waiting_.upper_bound(last_world_);
  if (it == waiting_.end()) it = waiting_.begin();
  *world = it->second.world;
  *search = it->second.searches.front();
  it->second.searches.pop_front();
  keys_.erase(KeyOf(world->get(), *search));
  --size_;
  last_world_ = it->first;
  if (it->second.searches.empty()) waiting_.erase(it);
  return true;
}

std::size_t FallbackQueue::Forget(const LiveWorld* world) {
  std::shared_ptr<LiveWorld> released;  // freed after the lock
  std::lock_guard<std::mutex> lock(mu_);
  auto it = waiting_.find(world);
  if (it == waiting_.end()) return 0;
  const std::size_t count = it->second.searches.size();
  for (const DeferredSearch& s : it->second.searches) keys_.erase(KeyOf(world, s));
  size_ -= count;
  released = std::move(it->second.world);
  waiting_.erase(it);
  return count;
}

std::size_t FallbackQueue::Serve(std::size_t max, std::uint64_t max_cells) {
  std::size_t ran = 0;
  std::uint64_t cells = 0;
  while (ran < max && cells < max_cells) {
    std::shared_ptr<LiveWorld> world;
    DeferredSearch search;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (!TakeNext(&world, &search)) break;
    }
    cells += world->ServeFallback(search.start, search.goal, search.passability, search.body);
    ++ran;
    std::lock_guard<std::mutex> lock(mu_);
    ++counters_.served;
  }
  return ran;
}

void FallbackQueue::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!thread_.joinable()) thread_ = std::thread([this] { ServeLoop(); });
}

void FallbackQueue::ServeLoop() {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [&] { return stop_ || size_ > 0; });
      if (stop_) return;
    }
    Serve(1);
  }
}

FallbackQueueCounters FallbackQueue::Counters() const {
  std::lock_guard<std::mutex> lock(mu_);
  FallbackQueueCounters c = counters_;
  c.waiting = size_;
  return c;
}

bool FallbackQueue::IsWaiting(const LiveWorld* world, const DeferredSearch& search) const {
  std::lock_guard<std::mutex> lock(mu_);
  return keys_.count(KeyOf(world, search)) != 0;
}

std::size_t FallbackQueue::Waiting(const LiveWorld* world) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = waiting_.find(world);
  return it == waiting_.end() ? 0 : it->second.searches.size();
}

}  // namespace walk::nav::live
