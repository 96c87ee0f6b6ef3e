#include "server/calls_in_flight.h"

#include <grpcpp/support/server_interceptor.h>

namespace walk::server {
namespace {

// Lives as long as its call: counted in at the call's start, out at its end.
class CallCounter final : public grpc::experimental::Interceptor {
 public:
  explicit CallCounter(std::atomic<std::int64_t>* count) : count_(count) {
    count_->fetch_add(1, std::memory_order_acq_rel);
  }
  ~CallCounter() override { count_->fetch_sub(1, std::memory_order_acq_rel); }
  void Intercept(grpc::experimental::InterceptorBatchMethods* methods) override {
    methods->Proceed();
  }

 private:
  std::atomic<std::int64_t>* count_;
};

class CallCounterFactory final : public grpc::experimental::ServerInterceptorFactoryInterface {
 public:
  explicit CallCounterFactory(std::atomic<std::int64_t>* count) : count_(count) {}
  grpc::experimental::Interceptor* CreateServerInterceptor(
      grpc::experimental::ServerRpcInfo*) override {
    return new CallCounter(count_);
  }

 private:
  std::atomic<std::int64_t>* count_;
};

}  // namespace

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>
CallsInFlight::CounterFactory() {
  return std::make_unique<CallCounterFactory>(&count_);
}

}  // namespace walk::server
