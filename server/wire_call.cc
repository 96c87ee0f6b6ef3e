#include "server/wire_call.h"

#include "absl/strings/str_cat.h"

namespace walk::server {

WireVerdict ReadWireMessage(const grpc::ByteBuffer& bytes, const WireRules& rules,
                            google::protobuf::Message* request) {
  // A copy shares the slices (reference counted): reading never changes the call's bytes.
  grpc::ByteBuffer copy(bytes);
  const std::uint64_t size = copy.Length();
  {
    grpc::ProtoBufferReader in(&copy);
    if (!in.status().ok()) {
      return {
          absl::InternalError(absl::StrCat("reading the request: ", in.status().error_message())),
          0};
    }
    WireVerdict verdict = CheckWire(in, size, rules);
    if (!verdict.status.ok()) return verdict;
  }
  grpc::ProtoBufferReader in(&copy);
  if (!in.status().ok() || !request->ParseFromZeroCopyStream(&in)) {
    request->Clear();
    return {absl::InvalidArgumentError(
                absl::StrCat("the request is not a valid ", rules.type->full_name())),
            0};
  }
  return {absl::OkStatus(), 0};
}

}  // namespace walk::server
