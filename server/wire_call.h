// gRPC calls received as bytes (the generated WithRawCallbackMethod_* services): every request
// message is counted on the wire (server/wire_count.h) before it is parsed, so one over a limit
// costs no protobuf object per entry; one within them is parsed here and handed to the typed
// handler, and the typed reply is serialized when the handler finishes. Requests and replies
// travel as protobuf encodes them, as the typed services send them: clients see no difference.
#pragma once

#include <cstdlib>

#include "absl/status/status.h"
#include "google/protobuf/message.h"
#include "grpcpp/support/byte_buffer.h"
#include "grpcpp/support/proto_buffer_reader.h"
#include "grpcpp/support/server_callback.h"
#include "grpcpp/support/status.h"
#include "server/wire_count.h"

namespace walk::server {

// Checks `bytes` by `rules` and, when they pass, parses them into `request`. The verdict's status
// is the refusal: RESOURCE_EXHAUSTED naming the limit, or INVALID_ARGUMENT when the bytes are not
// a valid message (nothing was parsed then).
WireVerdict ReadWireMessage(const grpc::ByteBuffer& bytes, const WireRules& rules,
                            google::protobuf::Message* request);

// A unary call as its handler sees it: finished once, from any thread, by Reply.
class UnaryWireReply : public grpc::ServerUnaryReactor {
 public:
  // Serializes the reply when `status` is OK, then finishes the call with `status`.
  virtual void Reply(const grpc::Status& status) = 0;
};

// `response` serialized into `bytes` (emptied first: gRPC's writer takes only an empty buffer).
// Replies are bounded far below protobuf's 2 GiB, as gRPC's typed writes assume (they abort).
template <typename Response>
void SerializeReply(const Response& response, grpc::ByteBuffer* bytes) {
  bool own_buffer = false;
  bytes->Clear();
  if (!grpc::SerializationTraits<Response>::Serialize(response, bytes, &own_buffer).ok()) {
    std::abort();
  }
}

// A unary call received as bytes: owns its request and its reply; deletes itself when done.
template <typename Request, typename Response>
class UnaryWireCall final : public UnaryWireReply {
 public:
  // `reply_bytes` is gRPC's, valid for the call's life.
  explicit UnaryWireCall(grpc::ByteBuffer* reply_bytes) : reply_bytes_(reply_bytes) {}

  // Checks and parses the request (ReadWireMessage); the refusal otherwise.
  absl::Status Read(const grpc::ByteBuffer& bytes, const WireRules& rules) {
    return ReadWireMessage(bytes, rules, &request_).status;
  }
  const Request& request() const { return request_; }
  Response* response() { return &response_; }

  void Reply(const grpc::Status& status) override {
    if (!status.ok()) return Finish(status);
    bool own_buffer = false;
    reply_bytes_->Clear();  // gRPC's writer takes only an empty buffer
    const grpc::Status serialized =
        grpc::SerializationTraits<Response>::Serialize(response_, reply_bytes_, &own_buffer);
    Finish(serialized.ok() ? status : serialized);
  }
  void OnDone() override { delete this; }

 private:
  grpc::ByteBuffer* const reply_bytes_;
  Request request_;
  Response response_;
};

// A bidirectional stream received as bytes, read and written as typed messages: derived classes
// call StartRead(Request*) and StartWrite(const Response*) as on a typed reactor, and take each
// read in OnRequestRead instead of OnReadDone. One read and one write may be in flight at once,
// as gRPC allows.
template <typename Request, typename Response>
class WireBidiReactor : public grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer> {
 public:
  // `rules` must outlive the reactor.
  explicit WireBidiReactor(const WireRules& rules) : rules_(rules) {}

  // A read started by StartRead is over. `ok` is false when the stream holds no further message,
  // is broken, or the message was refused: then `verdict.status` says why (OK for the first two)
  // and nothing of the message was parsed.
  virtual void OnRequestRead(bool ok, const WireVerdict& verdict) = 0;

 protected:
  using Bytes = grpc::ServerBidiReactor<grpc::ByteBuffer, grpc::ByteBuffer>;

  // Reads the next message into `*request` (kept until OnRequestRead).
  void StartRead(Request* request) {
    request_ = request;
    Bytes::StartRead(&read_bytes_);
  }
  // Writes `*response`, serialized now: it may be changed or freed once this returns.
  void StartWrite(const Response* response, grpc::WriteOptions options = grpc::WriteOptions()) {
    SerializeReply(*response, &write_bytes_);
    Bytes::StartWrite(&write_bytes_, options);
  }

 private:
  void OnReadDone(bool ok) final {
    WireVerdict verdict;
    if (ok) verdict = ReadWireMessage(read_bytes_, rules_, request_);
    read_bytes_.Clear();
    OnRequestRead(ok && verdict.status.ok(), verdict);
  }

  const WireRules& rules_;
  Request* request_ = nullptr;
  grpc::ByteBuffer read_bytes_;   // the read in flight
  grpc::ByteBuffer write_bytes_;  // the write in flight
};

// A server stream whose one request came as bytes, written as typed messages: derived classes
// call StartWrite(const Response*) as on a typed reactor. One write in flight at a time.
template <typename Response>
class WireWriteReactor : public grpc::ServerWriteReactor<grpc::ByteBuffer> {
 protected:
  // Writes `*response`, serialized now: it may be changed or freed once this returns.
  void StartWrite(const Response* response, grpc::WriteOptions options = grpc::WriteOptions()) {
    SerializeReply(*response, &write_bytes_);
    grpc::ServerWriteReactor<grpc::ByteBuffer>::StartWrite(&write_bytes_, options);
  }

 private:
  grpc::ByteBuffer write_bytes_;  // the write in flight
};

// A server stream refused before it starts (its request broke a rule): it ends with `status`.
class RefusedWriteStream final : public grpc::ServerWriteReactor<grpc::ByteBuffer> {
 public:
  explicit RefusedWriteStream(const grpc::Status& status) { Finish(status); }
  void OnDone() override { delete this; }
};

}  // namespace walk::server
