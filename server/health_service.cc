#include "server/health_service.h"

#include <algorithm>

#include "server/grpc_status.h"
#include "server/wire_call.h"

namespace walk::server {

using grpc::health::v1::HealthCheckRequest;
using grpc::health::v1::HealthCheckResponse;

namespace {
constexpr const char* kKnownServices[] = {"", "walk.v1.WalkService", "grpc.health.v1.Health"};
// The walk store's own health: NOT_SERVING while it takes no writes (SetStoreDegraded).
constexpr char kStoreService[] = "walkd.store";
}  // namespace

// One Watch stream: sends the current status, then each change, until cancelled or shut down.
// Lifetime: owned by shared_ptrs (the service's list and a self-reference dropped in OnDone), so
// a caller holding a copy may call Update even while the stream ends. No lock is held while
// calling into gRPC (StartWrite, Finish), so an inline OnDone cannot deadlock.
class HealthService::Watcher final : public WireWriteReactor<HealthCheckResponse> {
 public:
  Watcher(HealthService* service, std::string name) : service_(service), name_(std::move(name)) {}

  const std::string& name() const { return name_; }
  void KeepAliveUntilDone(std::shared_ptr<Watcher> self) { self_ = std::move(self); }

  // Sends `status` if it differs from the last one sent (now, or after the write in flight);
  // `finish` ends the stream instead.
  void Update(HealthCheckResponse::ServingStatus status, bool finish) {
    Action action;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (finish) finish_pending_ = true;
      pending_ = status;
      action = NextLocked();
    }
    Do(action);
  }

  void OnWriteDone(bool ok) override {
    Action action;
    {
      std::lock_guard<std::mutex> lock(mu_);
      writing_ = false;
      if (!ok) broken_ = true;
      action = NextLocked();
    }
    Do(action);
  }

  void OnCancel() override {
    Action action;
    {
      std::lock_guard<std::mutex> lock(mu_);
      broken_ = true;
      action = NextLocked();
    }
    Do(action);
  }

  void OnDone() override {
    service_->Remove(this);
    self_.reset();  // may delete this
  }

 private:
  enum class Action { kNone, kWrite, kFinish };

  // What to do next: a broken stream finishes at once; otherwise the last status is sent before
  // a requested finish, so a watcher sees NOT_SERVING before the stream ends at shutdown.
  Action NextLocked() {
    if (done_ || writing_) return Action::kNone;
    if (broken_) {
      done_ = true;
      return Action::kFinish;
    }
    if (pending_ != sent_) {
      writing_ = true;
      sent_ = pending_;
      response_.set_status(sent_);
      return Action::kWrite;
    }
    if (finish_pending_) {
      done_ = true;
      return Action::kFinish;
    }
    return Action::kNone;
  }

  void Do(Action action) {
    if (action == Action::kWrite) StartWrite(&response_);
    if (action == Action::kFinish) Finish(grpc::Status::OK);
  }

  HealthService* const service_;
  const std::string name_;
  std::shared_ptr<Watcher> self_;
  std::mutex mu_;
  HealthCheckResponse response_;  // not touched while a write is in flight
  HealthCheckResponse::ServingStatus pending_ = HealthCheckResponse::UNKNOWN;
  HealthCheckResponse::ServingStatus sent_ = HealthCheckResponse::UNKNOWN;
  bool writing_ = false;
  bool finish_pending_ = false;  // end the stream once the last status is sent
  bool broken_ = false;          // cancelled, or a write failed: end it now
  bool done_ = false;
};

HealthCheckResponse::ServingStatus HealthService::StatusOf(const std::string& service) const {
  if (service == kStoreService) {
    return serving_ && !store_degraded_ ? HealthCheckResponse::SERVING
                                        : HealthCheckResponse::NOT_SERVING;
  }
  // Live worlds are loaded before the server starts: they serve until it shuts down, while
  // walkd's own worlds may still be loading.
  bool live = service == "walk.v1.LiveService";
  for (const std::string& world : live_worlds_) live |= service == "walkd.live/" + world;
  if (live) return shut_down_ ? HealthCheckResponse::NOT_SERVING : HealthCheckResponse::SERVING;
  for (const char* name : kKnownServices) {
    if (service == name) {
      return serving_ ? HealthCheckResponse::SERVING : HealthCheckResponse::NOT_SERVING;
    }
  }
  return HealthCheckResponse::SERVICE_UNKNOWN;
}

void HealthService::SetLiveWorlds(std::vector<std::string> names) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    live_worlds_ = std::move(names);
  }
  TellWatchers();
}

std::vector<std::shared_ptr<HealthService::Watcher>> HealthService::Watchers() const {
  std::lock_guard<std::mutex> lock(mu_);
  return watchers_;
}

void HealthService::SetServing(bool serving) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    serving_ = serving && !shut_down_;  // a world ready during the grace changes nothing
  }
  TellWatchers();
}

void HealthService::SetStoreDegraded(bool degraded) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    store_degraded_ = degraded;
  }
  TellWatchers();
}

void HealthService::TellWatchers() {
  for (const auto& w : Watchers()) {
    HealthCheckResponse::ServingStatus status;
    {
      std::lock_guard<std::mutex> lock(mu_);
      status = StatusOf(w->name());
    }
    w->Update(status, false);
  }
}

bool HealthService::serving() const {
  std::lock_guard<std::mutex> lock(mu_);
  return serving_;
}

void HealthService::Shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    serving_ = false;
    shut_down_ = true;
  }
  for (const auto& w : Watchers()) w->Update(HealthCheckResponse::NOT_SERVING, true);
}

void HealthService::Remove(Watcher* watcher) {
  std::lock_guard<std::mutex> lock(mu_);
  watchers_.erase(std::remove_if(watchers_.begin(), watchers_.end(),
                                 [watcher](const auto& w) { return w.get() == watcher; }),
                  watchers_.end());
}

namespace {

// A health request has no repeated field: only its unknown fields are counted.
WireRules HealthRules() {
  WireRules rules;
  rules.type = HealthCheckRequest::descriptor();
  return rules;
}

}  // namespace

HealthService::HealthService() : wire_(HealthRules()) {}

grpc::ServerUnaryReactor* HealthService::Check(grpc::CallbackServerContext* /*context*/,
                                               const grpc::ByteBuffer* request_bytes,
                                               grpc::ByteBuffer* response_bytes) {
  auto* call = new UnaryWireCall<HealthCheckRequest, HealthCheckResponse>(response_bytes);
  if (absl::Status read = call->Read(*request_bytes, wire_); !read.ok()) {
    call->Reply(ToGrpcStatus(read));
    return call;
  }
  const HealthCheckRequest& request = call->request();
  HealthCheckResponse::ServingStatus status;
  {
    std::lock_guard<std::mutex> lock(mu_);
    status = StatusOf(request.service());
  }
  if (status == HealthCheckResponse::SERVICE_UNKNOWN) {
    call->Reply(grpc::Status(grpc::StatusCode::NOT_FOUND,
                             "service: unknown service '" + request.service() + "'"));
  } else {
    call->response()->set_status(status);
    call->Reply(grpc::Status::OK);
  }
  return call;
}

grpc::ServerWriteReactor<grpc::ByteBuffer>* HealthService::Watch(
    grpc::CallbackServerContext* /*context*/, const grpc::ByteBuffer* request_bytes) {
  HealthCheckRequest parsed;
  const WireVerdict read = ReadWireMessage(*request_bytes, wire_, &parsed);
  if (!read.status.ok()) return new RefusedWriteStream(ToGrpcStatus(read.status));
  const HealthCheckRequest* request = &parsed;
  auto watcher = std::make_shared<Watcher>(this, request->service());
  watcher->KeepAliveUntilDone(watcher);
  HealthCheckResponse::ServingStatus status;
  bool shut_down;
  {
    std::lock_guard<std::mutex> lock(mu_);
    watchers_.push_back(watcher);
    status = StatusOf(request->service());
    shut_down = shut_down_;
  }
  watcher->Update(shut_down ? HealthCheckResponse::NOT_SERVING : status, shut_down);
  return watcher.get();
}

}  // namespace walk::server
