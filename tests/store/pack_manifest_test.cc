#include "store/pack_manifest.h"

#include <string>

#include "gtest/gtest.h"

namespace walk::store {
namespace {

PackManifest SampleManifest() {
  PackManifest manifest;
  manifest.model = 0x3f2a9c0d11e4b7a8;
  manifest.files = {{"walks-000001.sst", 1094731, 28723, 0x4a12d563},
                    {"walks-000002.sst", 725317, 21277, 0xed520780}};
  manifest.answers = 50000;
  return manifest;
}

// The manifest's text with `from` replaced by `to` (which must be there).
std::string Edited(const std::string& from, const std::string& to) {
  std::string text = ManifestText(SampleManifest());
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

void ExpectRefused(const std::string& text, const std::string& what) {
  const absl::StatusOr<PackManifest> parsed = ParseManifest(text, "pack/walkpack.json");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(parsed.status().message().find(what), absl::string_view::npos)
      << parsed.status().message();
}

TEST(PackManifestTest, WritesTheDocumentedLayout) {
  EXPECT_EQ(ManifestText(SampleManifest()), R"({
  "answers": 50000,
  "files": [
    {
      "answers": 28723,
      "bytes": 1094731,
      "crc32": "4a12d563",
      "name": "walks-000001.sst"
    },
    {
      "answers": 21277,
      "bytes": 725317,
      "crc32": "ed520780",
      "name": "walks-000002.sst"
    }
  ],
  "format": "walkd-store-pack",
  "key_bytes": 50,
  "model": "3f2a9c0d11e4b7a8",
  "value_version": 2,
  "version": 1
}
)");
}

TEST(PackManifestTest, ReadsBackWhatItWrites) {
  const absl::StatusOr<PackManifest> parsed = ParseManifest(ManifestText(SampleManifest()), "m");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->model, SampleManifest().model);
  EXPECT_EQ(parsed->answers, SampleManifest().answers);
  ASSERT_EQ(parsed->files.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(parsed->files[i].name, SampleManifest().files[i].name);
    EXPECT_EQ(parsed->files[i].bytes, SampleManifest().files[i].bytes);
    EXPECT_EQ(parsed->files[i].answers, SampleManifest().files[i].answers);
    EXPECT_EQ(parsed->files[i].crc32, SampleManifest().files[i].crc32);
  }
}

TEST(PackManifestTest, RefusesNamingWhatIsWrong) {
  ExpectRefused("[1, 2]", "pack/walkpack.json: not a JSON object");
  ExpectRefused(Edited("walkd-store-pack", "other"), "\"format\" is not \"walkd-store-pack\"");
  ExpectRefused(Edited("\"version\": 1", "\"version\": 2"), "\"version\" is not 1");
  ExpectRefused(Edited("\"key_bytes\": 50", "\"key_bytes\": 49"), "\"key_bytes\" is not 50");
  ExpectRefused(Edited("\"value_version\": 2", "\"value_version\": 9"),
                "\"value_version\" is not 2 (a pack of another walkd)");
  ExpectRefused(Edited("3f2a9c0d11e4b7a8", "3f2a"), "\"model\" is not 16 hex digits");
  ExpectRefused(Edited("\"answers\": 50000", "\"answers\": -1"), "\"answers\" is not a count");
  ExpectRefused(Edited("walks-000002.sst", "../x.sst"),
                "files[1].name \"../x.sst\" is not a plain file name");
  ExpectRefused(Edited("\"bytes\": 725317", "\"bytes\": \"725317\""),
                "files[1].bytes is not a size");
  ExpectRefused(Edited("ed520780", "ed52078g"), "files[1].crc32 is not 8 hex digits");
}

TEST(PackManifestTest, RefusesHexWithASignPrefixOrSpaceAndATooLargeText) {
  ExpectRefused(Edited("3f2a9c0d11e4b7a8", "0x2a9c0d11e4b7a8"), "\"model\" is not 16 hex digits");
  ExpectRefused(Edited("3f2a9c0d11e4b7a8", " 3f2a9c0d11e4b7a"), "\"model\" is not 16 hex digits");
  ExpectRefused(Edited("4a12d563", "-a12d563"), "files[0].crc32 is not 8 hex digits");
  ExpectRefused(Edited("4a12d563", "0x12d563"), "files[0].crc32 is not 8 hex digits");
  std::string padded = ManifestText(SampleManifest());
  padded.resize(kMaxManifestBytes + 1, ' ');
  ExpectRefused(padded, "16777217 bytes, more than the 16777216");
}

}  // namespace
}  // namespace walk::store
