// Whole files read and written for the navmesh formats (small helpers shared by mset_file.cc and
// mmaps_folder.cc). A file is read at its real size, so no size named inside it is trusted
// before it is checked against the bytes there are.
#pragma once

#include <cstring>
#include <fstream>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace walk::nav {

inline absl::StatusOr<std::string> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(path + ": cannot open");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return absl::DataLossError(path + ": read failed");
  return bytes;
}

inline absl::Status WriteFileBytes(const std::string& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::InternalError(path + ": write failed");
  return absl::OkStatus();
}

// Appends a value's bytes as they lie in memory (little-endian machines, like the grid file).
template <typename T>
void AppendBytes(std::string* out, const T& value) {
  out->append(reinterpret_cast<const char*>(&value), sizeof value);
}

// Reads a value at *offset and moves past it; false when the bytes run out.
template <typename T>
bool TakeBytes(std::string_view bytes, std::size_t* offset, T* value) {
  if (bytes.size() - *offset < sizeof(T)) return false;
  std::memcpy(value, bytes.data() + *offset, sizeof(T));
  *offset += sizeof(T);
  return true;
}

}  // namespace walk::nav
