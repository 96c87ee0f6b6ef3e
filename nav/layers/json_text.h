// What a layer file's text must be before it is parsed as JSON: not too large, not too deeply
// nested. Layer files come from their owners' editors and tools; these limits keep a damaged or
// hostile file from costing more than a refusal (the JSON parser's recursion and memory).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
// Included by nav/layers/*.cc only: the layers' files are JSON.
#include "nlohmann/json.hpp"

namespace walk::nav {

// Parsed, a JSON text takes up to about 10 times its bytes (a value of 2 bytes, "0,", is a 16-byte
// node): 64 MiB of layer file, hundreds of thousands of polygons, stays under 1 GiB.
inline constexpr std::size_t kMaxLayerFileBytes = std::size_t{64} << 20;  // 64 MiB
inline constexpr int kMaxJsonDepth = 64;  // a MultiPolygon in a FeatureCollection needs 7

// INVALID_ARGUMENT naming `file` when `text` is larger than kMaxLayerFileBytes or nests arrays
// and objects deeper than kMaxJsonDepth (brackets inside strings do not count).
absl::Status CheckJsonText(std::string_view text, const std::string& file);

// `text` checked (CheckJsonText) and parsed. INVALID_ARGUMENT naming `file` and, for a parse
// error, the byte ("parse error at line 3, column 5: ...").
absl::StatusOr<nlohmann::json> ParseLayerJson(std::string_view text, const std::string& file);

// `text` parsed as a layer file holding one array, `{"<member>": [...]}`: the array.
// INVALID_ARGUMENT naming `file` and what is wrong (not an object, another member, no array).
absl::StatusOr<nlohmann::json> ParseLayerArray(std::string_view text, const std::string& file,
                                               const std::string& member);

}  // namespace walk::nav
