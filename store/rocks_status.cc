#include "store/rocks_status.h"

#include "absl/strings/str_cat.h"
#include "rocksdb/status.h"

namespace walk::store {

absl::Status FromRocks(const rocksdb::Status& s, const std::string& dir, absl::string_view what) {
  const std::string message = absl::StrCat("walk store ", dir, ": ", what, ": ", s.ToString());
  if (s.IsCorruption()) return absl::DataLossError(message);
  if (s.IsNoSpace()) return absl::ResourceExhaustedError(message);
  if (s.IsNotFound() || s.IsPathNotFound()) return absl::NotFoundError(message);
  if (s.IsInvalidArgument()) return absl::InvalidArgumentError(message);
  if (s.IsBusy() || s.IsTryAgain() || s.IsTimedOut() || s.IsShutdownInProgress()) {
    return absl::UnavailableError(message);
  }
  if (s.IsAborted()) return absl::AbortedError(message);
  if (s.IsNotSupported()) return absl::UnimplementedError(message);
  return absl::InternalError(message);
}

}  // namespace walk::store
