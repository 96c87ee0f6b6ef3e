// The walk store's readers (store/): every input is decoded as a walk key (DecodeWalkKey), as a
// walk value (DecodeWalkValue) and parsed as a store pack's manifest (ParseManifest). What they
// accept must encode back to the very bytes read (a key, a value of the current version) or
// parse back the same (a manifest written again), and what they refuse is DATA_LOSS.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/strings/string_view.h"
#include "store/pack_manifest.h"
#include "store/walk_key.h"
#include "store/walk_value.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace walk;
  const absl::string_view bytes(reinterpret_cast<const char*>(data), size);

  absl::StatusOr<store::WalkKey> key = store::DecodeWalkKey(bytes);
  WALK_FUZZ_CHECK(fuzz::OkOr(key.status(), absl::StatusCode::kDataLoss));
  if (key.ok()) {
    WALK_FUZZ_CHECK(store::EncodeWalkKey(*key) == bytes);
    WALK_FUZZ_CHECK(store::DecodeModelPrefix(bytes) == key->model);
  }

  store::StoredWalk walk;
  const absl::Status value = store::DecodeWalkValue(bytes, &walk);
  WALK_FUZZ_CHECK(fuzz::OkOr(value, absl::StatusCode::kDataLoss));
  if (value.ok()) {
    const std::string again = store::EncodeWalkValue(walk);
    if (bytes[0] == store::kWalkValueVersion) WALK_FUZZ_CHECK(again == bytes);
    store::StoredWalk round;
    WALK_FUZZ_CHECK(store::DecodeWalkValue(again, &round).ok() && round == walk);
  }

  absl::StatusOr<store::PackManifest> manifest =
      store::ParseManifest(std::string(bytes), "fuzz/walkpack.json");
  WALK_FUZZ_CHECK(fuzz::OkOr(manifest.status(), absl::StatusCode::kDataLoss));
  if (manifest.ok()) {
    absl::StatusOr<store::PackManifest> again =
        store::ParseManifest(store::ManifestText(*manifest), "again");
    WALK_FUZZ_CHECK(again.ok() && again->model == manifest->model &&
                    again->answers == manifest->answers &&
                    again->files.size() == manifest->files.size());
    for (std::size_t i = 0; i < again->files.size(); ++i) {
      WALK_FUZZ_CHECK(again->files[i].name == manifest->files[i].name);
      WALK_FUZZ_CHECK(again->files[i].crc32 == manifest->files[i].crc32);
    }
  }
  return 0;
}
