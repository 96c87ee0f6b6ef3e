#include "server/admin_service.h"

#include <chrono>

#include "server/grpc_status.h"
#include "server/proto_convert.h"
#include "server/wire_call.h"

namespace walk::server {

AdminServiceImpl::AdminServiceImpl(ReloadFn reload, WalkMetrics& metrics, const CallAuth& auth)
    : reload_(std::move(reload)), metrics_(metrics), auth_(auth) {
  reload_rules_.type = walk::v1::ReloadRequest::descriptor();  // no repeated field
}

grpc::ServerUnaryReactor* AdminServiceImpl::Reload(grpc::CallbackServerContext* context,
                                                   const grpc::ByteBuffer* request,
                                                   grpc::ByteBuffer* response) {
  using Call = UnaryWireCall<walk::v1::ReloadRequest, walk::v1::ReloadResponse>;
  auto* call = new Call(response);
  const auto start = std::chrono::steady_clock::now();
  WalkMetrics& metrics = metrics_;
  auto finish = [call, start, &metrics](const absl::Status& status) {
    const grpc::Status reply = ToGrpcStatus(status);
    metrics.RecordRequest(
        "Reload", GrpcCodeName(reply.error_code()),
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    call->Reply(reply);
  };
  absl::Status allowed = auth_.Check(*context, Access::kWrite);
  if (allowed.ok()) allowed = call->Read(*request, reload_rules_);
  if (!allowed.ok()) {
    finish(allowed);
    return call;
  }
  reload_(call->request().world(),
          [call, finish](const absl::StatusOr<std::vector<WorldReload>>& reloaded) {
            if (reloaded.ok()) {
              for (const WorldReload& world : *reloaded) {
                ToProto(world, call->response()->add_worlds());
              }
            }
            finish(reloaded.status());
          });
  return call;
}

}  // namespace walk::server
