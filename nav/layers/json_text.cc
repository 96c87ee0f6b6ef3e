#include "nav/layers/json_text.h"

#include <exception>

#include "absl/strings/str_cat.h"

namespace walk::nav {

absl::Status CheckJsonText(std::string_view text, const std::string& file) {
  if (text.size() > kMaxLayerFileBytes) {
    return absl::InvalidArgumentError(absl::StrCat(file, ": ", text.size(),
                                                   " bytes, more than the ", kMaxLayerFileBytes,
                                                   " a layer file may have"));
  }
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (ch == '\\') {
        escaped = true;
      } else if (ch == '"') {
        in_string = false;
      }
      continue;
    }
    if (ch == '"') {
      in_string = true;
    } else if (ch == '[' || ch == '{') {
      if (++depth > kMaxJsonDepth) {
        return absl::InvalidArgumentError(absl::StrCat(file, ": nested deeper than ", kMaxJsonDepth,
                                                       " levels (at byte ", i, ")"));
      }
    } else if (ch == ']' || ch == '}') {
      --depth;  // unbalanced brackets are the parser's to name
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<nlohmann::json> ParseLayerJson(std::string_view text, const std::string& file) {
  if (absl::Status s = CheckJsonText(text, file); !s.ok()) return s;
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(file, ": not JSON: ", e.what()));
  }
}

absl::StatusOr<nlohmann::json> ParseLayerArray(std::string_view text, const std::string& file,
                                               const std::string& member) {
  absl::StatusOr<nlohmann::json> json = ParseLayerJson(text, file);
  if (!json.ok()) return json.status();
  if (!json->is_object()) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": must be an object {\"", member, "\": [...]}"));
  }
  for (const auto& [key, value] : json->items()) {
    if (key != member) {
      return absl::InvalidArgumentError(absl::StrCat(file, ": ", key, ": is not a member of a ",
                                                     member, " file (only \"", member, "\")"));
    }
  }
  const auto array = json->find(member);
  if (array == json->end() || !array->is_array()) {
    return absl::InvalidArgumentError(absl::StrCat(file, ": ", member, ": must be an array"));
  }
  return *array;
}

}  // namespace walk::nav
