#include "nav/layers/json_text.h"

#include "absl/strings/str_cat.h"

namespace walk::nav {

absl::Status CheckJsonText(std::string_view text, const std::string& file) {
  if (text.size() > kMaxLayerFileBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(file, ": larger than ", kMaxLayerFileBytes, " bytes"));
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

}  // namespace walk::nav
