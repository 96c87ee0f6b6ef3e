// The wire counter (server/wire_count.h) on any bytes, as any request type, checked against
// protobuf's own parse of the same bytes: input byte 0 picks the request type, byte 1 the limit
// put on every repeated field the type can reach, the rest is the message. The counter never
// reads past the bytes; it calls "not a message" (INVALID_ARGUMENT) only what protobuf refuses
// too; on what protobuf parses its counts are exactly the parsed message's, summed over every
// nesting level (repeated entries by field, unknown fields with the fields of their groups), so
// it refuses (RESOURCE_EXHAUSTED) exactly when one is over its limit.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "google/protobuf/stubs/logging.h"
#include "google/protobuf/unknown_field_set.h"
#include "server/wire_count.h"
#include "tests/fuzz/fuzz_support.h"
#include "walk/v1/walk.pb.h"

namespace walk::fuzz {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::Message;
using google::protobuf::UnknownFieldSet;

// Every request message walkd takes.
const std::vector<const Descriptor*>& RequestTypes() {
  static const auto* types =
      new std::vector<const Descriptor*>{walk::v1::WalkRequest::descriptor(),
                                         walk::v1::PathRequest::descriptor(),
                                         walk::v1::FloorsRequest::descriptor(),
                                         walk::v1::WalkBatchRequest::descriptor(),
                                         walk::v1::TableRequest::descriptor(),
                                         walk::v1::InfoRequest::descriptor(),
                                         walk::v1::TripRequest::descriptor(),
                                         walk::v1::LivePathRequest::descriptor(),
                                         walk::v1::UpdateBlockersRequest::descriptor(),
                                         walk::v1::NearestRequest::descriptor(),
                                         walk::v1::ReachableRequest::descriptor(),
                                         walk::v1::PathGroupRequest::descriptor(),
                                         walk::v1::FormationTargetsRequest::descriptor()};
  return *types;
}

// Rules putting `max` on every repeated field `type` can reach, and on unknown fields.
server::WireRules RulesFor(const Descriptor& type, std::uint64_t max) {
  server::WireRules rules;
  rules.type = &type;
  rules.max_unknown_fields = max;
  std::set<const Descriptor*> seen;
  std::vector<const Descriptor*> to_visit{&type};
  while (!to_visit.empty()) {
    const Descriptor* message = to_visit.back();
    to_visit.pop_back();
    if (!seen.insert(message).second) continue;
    for (int i = 0; i < message->field_count(); ++i) {
      const FieldDescriptor* field = message->field(i);
      if (field->is_repeated()) {
        rules.limits.push_back({field, max, "max-test", field->full_name(), "test"});
      }
      if (field->message_type() != nullptr) to_visit.push_back(field->message_type());
    }
  }
  return rules;
}

std::uint64_t CountUnknown(const UnknownFieldSet& fields) {
  std::uint64_t count = static_cast<std::uint64_t>(fields.field_count());
  for (int i = 0; i < fields.field_count(); ++i) {
    if (fields.field(i).type() == google::protobuf::UnknownField::TYPE_GROUP) {
      count += CountUnknown(fields.field(i).group());
    }
  }
  return count;
}

// What parsing made: entries by repeated field over every level, and unknown fields.
void CountParsed(const Message& message, std::map<const FieldDescriptor*, std::uint64_t>* entries,
                 std::uint64_t* unknown) {
  const google::protobuf::Reflection& reflection = *message.GetReflection();
  *unknown += CountUnknown(reflection.GetUnknownFields(message));
  std::vector<const FieldDescriptor*> fields;
  reflection.ListFields(message, &fields);
  for (const FieldDescriptor* field : fields) {
    const bool is_message = field->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE;
    if (!field->is_repeated()) {
      if (is_message) CountParsed(reflection.GetMessage(message, field), entries, unknown);
      continue;
    }
    const int size = reflection.FieldSize(message, field);
    (*entries)[field] += static_cast<std::uint64_t>(size);
    for (int i = 0; is_message && i < size; ++i) {
      CountParsed(reflection.GetRepeatedMessage(message, field, i), entries, unknown);
    }
  }
}

}  // namespace
}  // namespace walk::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace walk::fuzz;  // NOLINT: the target's own helpers
  if (size < 2) return 0;
  const google::protobuf::Descriptor& type = *RequestTypes()[data[0] % RequestTypes().size()];
  const std::uint64_t max = data[1];
  const std::string bytes(reinterpret_cast<const char*>(data + 2), size - 2);
  const walk::server::WireRules rules = RulesFor(type, max);
  const walk::server::WireVerdict verdict = walk::server::CheckWire(bytes, rules);
  WALK_FUZZ_CHECK(verdict.status.ok() ||
                  verdict.status.code() == absl::StatusCode::kInvalidArgument ||
                  verdict.status.code() == absl::StatusCode::kResourceExhausted);

  const google::protobuf::LogSilencer quiet;  // strings that are not UTF-8: protobuf says so
  std::unique_ptr<google::protobuf::Message> parsed(
      google::protobuf::MessageFactory::generated_factory()->GetPrototype(&type)->New());
  const bool parses = parsed->ParseFromString(bytes);
  if (verdict.status.code() == absl::StatusCode::kInvalidArgument) WALK_FUZZ_CHECK(!parses);
  if (!parses) return 0;
  std::map<const google::protobuf::FieldDescriptor*, std::uint64_t> entries;
  std::uint64_t unknown = 0;
  CountParsed(*parsed, &entries, &unknown);
  // The first limit over, in the rules' order, is the one named; unknown fields come last.
  std::uint64_t over = 0;
  bool refused = false;
  for (const walk::server::WireLimit& limit : rules.limits) {
    if (entries[limit.field] > max) {
      over = entries[limit.field];
      refused = true;
      break;
    }
  }
  if (!refused && unknown > max) {
    over = unknown;
    refused = true;
  }
  WALK_FUZZ_CHECK(verdict.status.ok() == !refused);
  if (refused) WALK_FUZZ_CHECK(verdict.entries == over);
  return 0;
}
