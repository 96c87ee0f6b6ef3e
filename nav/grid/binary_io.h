// Little helpers for walkd's binary files (the grid, the abstract graph): fixed-size values and
// arrays written as they lie in memory (every file records its format version; all machines we
// serve are little-endian), read back with bounds checks so a cut-off file is refused.
#pragma once

#include <cstdint>
#include <cstring>
#include <istream>
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

// Reads values in order from a stream of `size` bytes, as BinaryReader reads them from memory,
// a piece at a time: a file read this way is never held whole. A read that fails (the file cut
// short under it) is refused as one that runs past the end.
class StreamReader {
 public:
  // Reads `in`, which must outlive the reader and hold `size` bytes from where it stands.
  StreamReader(std::istream& in, std::uint64_t size) : in_(in), size_(size) {}
  template <typename T>
  bool Get(T* value) {
    return Take(value, sizeof(T));
  }
  template <typename Values>
  bool GetArray(std::size_t count, Values* values) {
    using T = std::remove_reference_t<decltype((*values)[0])>;
    if (count > (size_ - pos_) / sizeof(T)) return false;
    values->resize(count);
    return count == 0 || Take(values->data(), count * sizeof(T));
  }
  bool GetString(std::string* text) {
    std::uint32_t size;
    if (!Get(&size) || size > size_ - pos_) return false;
    text->resize(size);
    return Take(text->data(), size);
  }
  bool AtEnd() const { return pos_ == size_; }

 private:
  bool Take(void* out, std::uint64_t n) {
    if (n > size_ - pos_) return false;
    in_.read(static_cast<char*>(out), static_cast<std::streamsize>(n));
    if (static_cast<std::uint64_t>(in_.gcount()) != n) {
      pos_ = size_;  // nothing more can be read
      return false;
    }
    pos_ += n;
    return true;
  }

  std::istream& in_;
  std::uint64_t size_;
  std::uint64_t pos_ = 0;
};

// A stream over bytes in memory, not copied (StreamReader over a buffer).
class MemoryStreamBuf : public std::streambuf {
 public:
  MemoryStreamBuf(const char* data, std::size_t size) {
    char* begin = const_cast<char*>(data);  // only read: the get area
    setg(begin, begin, begin + size);
  }
};

}  // namespace walk::nav
