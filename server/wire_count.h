// Counting a request's entries on the wire, before it is parsed. Parsing a protobuf message makes
// an object for every entry of a repeated message field and for every field walkd does not know,
// so a 4 MB message of two-byte empty entries would cost hundreds of MB before any limit saw it.
// CheckWire walks the serialized bytes with a CodedInputStream, no message objects, following
// the request's descriptor into every nested message, and counts the entries of each limited
// repeated field (summed over every nesting level: what parsing would make) and the unknown
// fields. A message over a limit, or one that is not a well-formed message of its type, is
// refused before it costs anything but its bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace google::protobuf {
class Descriptor;
class FieldDescriptor;
namespace io {
class ZeroCopyInputStream;
}  // namespace io
}  // namespace google::protobuf

namespace walk::server {

// At most `max` entries of one repeated field, over the whole message.
struct WireLimit {
  const google::protobuf::FieldDescriptor* field = nullptr;  // a repeated field; never null
  std::uint64_t max = 0;
  std::string flag;  // the walkd flag that sets it, without dashes: "max-pairs-per-message"
  std::string name;  // the field as a client names it: "more", "block.index"
  std::string hint;  // what the caller should do instead: "send more messages"
};

// What one request type may carry.
struct WireRules {
  const google::protobuf::Descriptor* type = nullptr;  // the request's message type; never null
  std::vector<WireLimit> limits;
  // Fields the descriptor does not know (a newer client's), counted at every level. Each costs an
  // object when parsed, so they are bounded too; 65,536 leave room for 16 new fields in every
  // pair of a full message.
  std::uint64_t max_unknown_fields = 65536;
  // Nested messages deeper than this are refused (protobuf's own parse limit).
  int max_depth = 100;
};

// Why a message was refused: RESOURCE_EXHAUSTED whose message starts with the flag of the limit
// it broke and names the field ("max-pairs-per-message: more holds 2000000 entries, ..."), or
// INVALID_ARGUMENT when the bytes are not a message of `rules.type` (truncated, a bad tag, a
// length past the end, nesting too deep). `entries` is the count that broke the limit.
struct WireVerdict {
  absl::Status status;
  std::uint64_t entries = 0;
};

// Walks the `size` bytes `in` holds as one message of `rules.type`, counting as above. Reads
// nothing past the first limit broken. Allocates nothing per entry; thread-safe for distinct
// streams.
WireVerdict CheckWire(google::protobuf::io::ZeroCopyInputStream& in, std::uint64_t size,
                      const WireRules& rules);
// The same over bytes in memory.
WireVerdict CheckWire(absl::string_view bytes, const WireRules& rules);

// A limit on `type`'s repeated field `field_name` (which must exist: a typo is a bug, so it
// aborts).
WireLimit LimitOn(const google::protobuf::Descriptor& type, absl::string_view field_name,
                  std::uint64_t max, std::string flag, std::string name, std::string hint);

}  // namespace walk::server
