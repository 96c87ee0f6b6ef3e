#include "server/search_pool.h"

#include <algorithm>

namespace walk::server {

SearchPool::SearchPool(int threads) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { Run(); });
}

SearchPool::~SearchPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void SearchPool::Submit(Task task, Priority priority) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    (priority == Priority::kInteractive ? interactive_ : batch_).push_back(std::move(task));
  }
  wake_.notify_one();
}

std::size_t SearchPool::Pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return interactive_.size() + batch_.size();
}

void SearchPool::Run() {
  nav::Searchers searchers;
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [this] { return stopping_ || !interactive_.empty() || !batch_.empty(); });
      std::deque<Task>& queue = !interactive_.empty() ? interactive_ : batch_;
      if (queue.empty()) return;  // stopping, and nothing left to run
      task = std::move(queue.front());
      queue.pop_front();
    }
    task(searchers);
  }
}

}  // namespace walk::server
