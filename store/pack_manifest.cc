#include "store/pack_manifest.h"

#include <cstdio>
#include <utility>

#include "absl/algorithm/container.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "nav/grid/grid.h"
#include "nlohmann/json.hpp"
#include "store/walk_key.h"
#include "store/walk_value.h"

namespace walk::store {
namespace {

constexpr char kPackFormat[] = "walkd-store-pack";
constexpr int kPackVersion = 1;

// True when `json` is a string of exactly `digits` hex digits (no sign, prefix or space), put in
// *value.
template <typename T>
bool HexField(const nlohmann::json& json, std::size_t digits, T* value) {
  if (!json.is_string()) return false;
  const std::string& text = json.get_ref<const std::string&>();
  return text.size() == digits && absl::c_all_of(text, absl::ascii_isxdigit) &&
         absl::SimpleHexAtoi(text, value);
}

}  // namespace

std::string ManifestText(const PackManifest& manifest) {
  nlohmann::json files = nlohmann::json::array();
  for (const PackFile& f : manifest.files) {
    char crc[9];
    std::snprintf(crc, sizeof crc, "%08x", f.crc32);
    files.push_back({{"name", f.name}, {"bytes", f.bytes}, {"answers", f.answers}, {"crc32", crc}});
  }
  nlohmann::json json = {{"format", kPackFormat},
                         {"version", kPackVersion},
                         {"model", nav::FormatId(manifest.model)},
                         {"answers", manifest.answers},
                         {"key_bytes", kWalkKeyBytes},
                         {"value_version", kWalkValueVersion},
                         {"files", files}};
  return json.dump(2) + "\n";
}

// Parses a manifest; DATA_LOSS naming the field that is missing or wrong.
absl::StatusOr<PackManifest> ParseManifest(const std::string& text, const std::string& path) {
  const auto bad = [&](const std::string& what) {
    return absl::DataLossError(absl::StrCat("store pack manifest ", path, ": ", what));
  };
  if (text.size() > kMaxManifestBytes) {
    return bad(absl::StrCat(text.size(), " bytes, more than the ", kMaxManifestBytes,
                            " a manifest may have"));
  }
  nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded() || !json.is_object()) return bad("not a JSON object");
  if (!json.contains("format") || json["format"] != kPackFormat) {
    return bad(absl::StrCat("\"format\" is not \"", kPackFormat, "\""));
  }
  if (!json.contains("version") || !json["version"].is_number_integer() ||
      json["version"].get<int>() != kPackVersion) {
    return bad(absl::StrCat("\"version\" is not ", kPackVersion));
  }
  if (!json.contains("key_bytes") || json["key_bytes"] != kWalkKeyBytes) {
    return bad(absl::StrCat("\"key_bytes\" is not ", kWalkKeyBytes));
  }
  if (!json.contains("value_version") || json["value_version"] != kWalkValueVersion) {
    return bad(
        absl::StrCat("\"value_version\" is not ", kWalkValueVersion, " (a pack of another walkd)"));
  }
  PackManifest manifest;
  if (!json.contains("model") || !HexField(json["model"], 16, &manifest.model)) {
    return bad("\"model\" is not 16 hex digits");
  }
  if (!json.contains("answers") || !json["answers"].is_number_unsigned()) {
    return bad("\"answers\" is not a count");
  }
  manifest.answers = json["answers"].get<std::uint64_t>();
  if (!json.contains("files") || !json["files"].is_array()) return bad("\"files\" is not a list");
  for (std::size_t i = 0; i < json["files"].size(); ++i) {
    const nlohmann::json& f = json["files"][i];
    const std::string field = absl::StrCat("files[", i, "]");
    if (!f.is_object()) return bad(field + " is not an object");
    PackFile file;
    if (!f.contains("name") || !f["name"].is_string()) return bad(field + ".name is missing");
    file.name = f["name"].get<std::string>();
    if (file.name.empty() || file.name.find('/') != std::string::npos || file.name == "." ||
        file.name == "..") {
      return bad(absl::StrCat(field, ".name \"", file.name, "\" is not a plain file name"));
    }
    if (!f.contains("bytes") || !f["bytes"].is_number_unsigned()) {
      return bad(field + ".bytes is not a size");
    }
    file.bytes = f["bytes"].get<std::uint64_t>();
    if (!f.contains("answers") || !f["answers"].is_number_unsigned()) {
      return bad(field + ".answers is not a count");
    }
    file.answers = f["answers"].get<std::uint64_t>();
    std::uint32_t crc = 0;
    if (!f.contains("crc32") || !HexField(f["crc32"], 8, &crc)) {
      return bad(field + ".crc32 is not 8 hex digits");
    }
    file.crc32 = crc;
    manifest.files.push_back(std::move(file));
  }
  return manifest;
}

}  // namespace walk::store
