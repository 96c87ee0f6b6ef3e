#include "server/wire_count.h"

#include <climits>
#include <cstdlib>
#include <utility>

#include "absl/strings/str_cat.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"

namespace walk::server {
namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;
using google::protobuf::io::CodedInputStream;

// The wire types of protobuf's encoding.
enum WireType : std::uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

// The wire type a field's values take one by one (unpacked).
std::uint32_t WireTypeOf(const FieldDescriptor& field) {
  switch (field.type()) {
    case FieldDescriptor::TYPE_DOUBLE:
    case FieldDescriptor::TYPE_FIXED64:
    case FieldDescriptor::TYPE_SFIXED64:
      return kFixed64;
    case FieldDescriptor::TYPE_FLOAT:
    case FieldDescriptor::TYPE_FIXED32:
    case FieldDescriptor::TYPE_SFIXED32:
      return kFixed32;
    case FieldDescriptor::TYPE_STRING:
    case FieldDescriptor::TYPE_BYTES:
    case FieldDescriptor::TYPE_MESSAGE:
      return kLengthDelimited;
    case FieldDescriptor::TYPE_GROUP:
      return kStartGroup;
    default:  // integers, bools, enums
      return kVarint;
  }
}

// One walk over one message's bytes. Every method returns false once the bytes are found not to
// be a message (why_ says why); counting never stops the walk, so the counts are exact.
class WireWalker {
 public:
  WireWalker(CodedInputStream& in, const WireRules& rules)
      : in_(in), rules_(rules), counts_(rules.limits.size(), 0) {}

  // The fields up to the current limit, as fields of `type`.
  bool Message(const Descriptor& type, int depth) {
    while (true) {
      const std::uint32_t tag = in_.ReadTag();
      if (tag == 0) {
        return in_.BytesUntilLimit() == 0 || Malformed("it is truncated, or holds a zero tag");
      }
      if (!Field(type, tag, depth)) return false;
    }
  }

  // What the walk found, once it is over: a malformation first, else the first limit broken.
  WireVerdict Verdict() const {
    if (!why_.empty()) {
      return {absl::InvalidArgumentError(absl::StrCat("the request is not a valid ",
                                                      rules_.type->full_name(), ": ", why_)),
              0};
    }
    for (std::size_t i = 0; i < rules_.limits.size(); ++i) {
      const WireLimit& limit = rules_.limits[i];
      if (counts_[i] <= limit.max) continue;
      return {absl::ResourceExhaustedError(absl::StrCat(limit.flag, ": ", limit.name, " holds ",
                                                        counts_[i], " entries, over the ",
                                                        limit.max, " allowed; ", limit.hint)),
              counts_[i]};
    }
    if (unknown_ > rules_.max_unknown_fields) {
      return {absl::ResourceExhaustedError(
                  absl::StrCat("unknown fields: the request carries ", unknown_,
                               " fields walkd does not know, over the ", rules_.max_unknown_fields,
                               " allowed; is the client built for a newer walkd?")),
              unknown_};
    }
    return {absl::OkStatus(), 0};
  }

  bool Malformed(absl::string_view why) {
    if (why_.empty()) why_ = absl::StrCat(why, " (at byte ", in_.CurrentPosition(), ")");
    return false;
  }

 private:
  bool Field(const Descriptor& type, std::uint32_t tag, int depth) {
    if ((tag >> 3) == 0) return Malformed("a field numbered 0");
    const FieldDescriptor* field = type.FindFieldByNumber(static_cast<int>(tag >> 3));
    // A group of a known number is kept as an unknown field, as the parser keeps it.
    if (field == nullptr || field->type() == FieldDescriptor::TYPE_GROUP)
      return Unknown(tag, depth);
    const std::uint32_t wire = tag & 7;
    if (wire == WireTypeOf(*field)) {
      if (field->is_repeated()) Count(*field, 1);
      if (field->type() == FieldDescriptor::TYPE_MESSAGE) {
        return Nested(*field->message_type(), depth + 1);
      }
      return Skip(wire);
    }
    // The parser takes a repeated number either packed or one by one.
    if (wire == kLengthDelimited && field->is_packable()) return Packed(*field);
    return Unknown(tag, depth);  // a known number on another wire type: the parser keeps it so
  }

  bool Nested(const Descriptor& type, int depth) {
    if (depth > rules_.max_depth) {
      return Malformed(absl::StrCat("messages nested deeper than ", rules_.max_depth));
    }
    int length = 0;
    if (!ReadLength(&length)) return false;
    const CodedInputStream::Limit outer = in_.PushLimit(length);
    if (!Message(type, depth)) return false;
    in_.PopLimit(outer);
    return true;
  }

  bool Packed(const FieldDescriptor& field) {
    int length = 0;
    if (!ReadLength(&length)) return false;
    const std::uint32_t wire = WireTypeOf(field);
    if (wire == kFixed64 || wire == kFixed32) {
      const int width = wire == kFixed64 ? 8 : 4;
      if (length % width != 0) return Malformed("a packed field of a partial value");
      Count(field, static_cast<std::uint64_t>(length / width));
      return in_.Skip(length) || Malformed("a length past the end");
    }
    // Varints: one entry per byte without its continuation bit, counted a buffer at a time (a
    // block's index column is 4,096 of them).
    const CodedInputStream::Limit outer = in_.PushLimit(length);
    std::uint64_t entries = 0;
    unsigned char last = 0;
    while (in_.BytesUntilLimit() > 0) {
      const void* data = nullptr;
      int size = 0;
      if (!in_.GetDirectBufferPointer(&data, &size)) return Malformed("a packed field cut short");
      const auto* bytes = static_cast<const unsigned char*>(data);
      for (int i = 0; i < size; ++i) entries += bytes[i] < 0x80 ? 1 : 0;
      last = bytes[size - 1];
      in_.Skip(size);
    }
    if (last >= 0x80) return Malformed("a packed field cut short");
    in_.PopLimit(outer);
    Count(field, entries);
    return true;
  }

  // A field the type does not know (a group whole), each of its own fields counted too.
  bool Unknown(std::uint32_t tag, int depth) {
    ++unknown_;
    const std::uint32_t wire = tag & 7;
    if (wire == kEndGroup) return Malformed("an end-group tag outside a group");
    if (wire != kStartGroup) return Skip(wire);
    if (depth + 1 > rules_.max_depth) {
      return Malformed(absl::StrCat("groups nested deeper than ", rules_.max_depth));
    }
    const std::uint32_t end = (tag & ~7u) | kEndGroup;
    while (true) {
      const std::uint32_t inner = in_.ReadTag();
      if (inner == end) return true;
      if (inner == 0 || (inner >> 3) == 0) return Malformed("a group that does not end");
      if ((inner & 7) == kEndGroup) return Malformed("a group ended by another's tag");
      if (!Unknown(inner, depth + 1)) return false;
    }
  }

  bool Skip(std::uint32_t wire) {
    switch (wire) {
      case kVarint: {
        std::uint64_t value = 0;
        return in_.ReadVarint64(&value) || Malformed("a varint cut short");
      }
      case kFixed64:
        return in_.Skip(8) || Malformed("a fixed64 cut short");
      case kFixed32:
        return in_.Skip(4) || Malformed("a fixed32 cut short");
      case kLengthDelimited: {
        int length = 0;
        return ReadLength(&length) && (in_.Skip(length) || Malformed("a length past the end"));
      }
      default:
        return Malformed(absl::StrCat("wire type ", wire));
    }
  }

  bool ReadLength(int* length) {
    std::uint64_t value = 0;
    if (!in_.ReadVarint64(&value)) return Malformed("a length cut short");
    if (value > static_cast<std::uint64_t>(in_.BytesUntilLimit())) {
      return Malformed("a length past the end");
    }
    *length = static_cast<int>(value);
    return true;
  }

  void Count(const FieldDescriptor& field, std::uint64_t entries) {
    for (std::size_t i = 0; i < rules_.limits.size(); ++i) {
      if (rules_.limits[i].field == &field) counts_[i] += entries;
    }
  }

  CodedInputStream& in_;
  const WireRules& rules_;
  std::vector<std::uint64_t> counts_;  // by rules_.limits
  std::uint64_t unknown_ = 0;
  std::string why_;  // set by the first malformation
};

}  // namespace

WireVerdict CheckWire(google::protobuf::io::ZeroCopyInputStream& in, std::uint64_t size,
                      const WireRules& rules) {
  CodedInputStream coded(&in);
  WireWalker walker(coded, rules);
  if (size > static_cast<std::uint64_t>(INT_MAX)) {
    walker.Malformed("over 2 GiB");
    return walker.Verdict();
  }
  coded.PushLimit(static_cast<int>(size));
  walker.Message(*rules.type, 0);
  return walker.Verdict();
}

WireVerdict CheckWire(absl::string_view bytes, const WireRules& rules) {
  // Past 2 GiB the stream is left empty: the size alone refuses it.
  const int readable =
      bytes.size() > static_cast<std::size_t>(INT_MAX) ? 0 : static_cast<int>(bytes.size());
  google::protobuf::io::ArrayInputStream in(bytes.data(), readable);
  return CheckWire(in, bytes.size(), rules);
}

WireLimit LimitOn(const Descriptor& type, absl::string_view field_name, std::uint64_t max,
                  std::string flag, std::string name, std::string hint) {
  const FieldDescriptor* field = type.FindFieldByName(std::string(field_name));
  if (field == nullptr || !field->is_repeated()) std::abort();  // a typo in walkd's own rules
  return {field, max, std::move(flag), std::move(name), std::move(hint)};
}

}  // namespace walk::server
