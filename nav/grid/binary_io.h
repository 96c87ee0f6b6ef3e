// Little helpers for walkd's binary files (the grid, the abstract graph): fixed-size values and
// arrays written as they lie in memory (every file records its format version; all machines we
// serve are little-endian), read back with bounds checks so a cut-off file is refused.
#pragma once

#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace walk::nav {

class BinaryWriter {
 public:
  explicit BinaryWriter(std::ostream& out) : out_(out) {}
  template <typename T>
  void Put(T value) {
    out_.write(reinterpret_cast<const char*>(&value), sizeof value);
  }
  template <typename Values>
  void PutArray(const Values& values) {
    using T = std::remove_const_t<std::remove_reference_t<decltype(*values.data())>>;
    out_.write(reinterpret_cast<const char*>(values.data()),
               static_cast<std::streamsize>(values.size() * sizeof(T)));
  }
  // A count, then the values.
  template <typename T>
  void PutVector(const std::vector<T>& values) {
    Put<std::uint64_t>(values.size());
    PutArray(values);
  }
  void PutString(const std::string& text) {
    Put<std::uint32_t>(static_cast<std::uint32_t>(text.size()));
    out_.write(text.data(), static_cast<std::streamsize>(text.size()));
  }

 private:
  std::ostream& out_;
};

class BinaryReader {
 public:
  // Reads `bytes`, which must outlive the reader.
  explicit BinaryReader(std::string_view bytes) : bytes_(bytes) {}
  template <typename T>
  bool Get(T* value) {
    if (pos_ + sizeof(T) > bytes_.size()) return false;
    std::memcpy(value, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  template <typename Values>
  bool GetArray(std::size_t count, Values* values) {
    using T = std::remove_reference_t<decltype((*values)[0])>;
    if (count > (bytes_.size() - pos_) / sizeof(T)) return false;
    values->resize(count);
    if (count > 0) std::memcpy(values->data(), bytes_.data() + pos_, count * sizeof(T));
    pos_ += count * sizeof(T);
    return true;
  }
  template <typename T>
  bool GetVector(std::vector<T>* values) {
    std::uint64_t count;
    return Get(&count) && GetArray(count, values);
  }
  bool GetString(std::string* text) {
    std::uint32_t size;
    if (!Get(&size) || size > bytes_.size() - pos_) return false;
    text->assign(bytes_.data() + pos_, size);
    pos_ += size;
    return true;
  }
  bool AtEnd() const { return pos_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

}  // namespace walk::nav
