#include "nav/grid/grid_image.h"

#include <fcntl.h>
#include <malloc.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nav/grid/world_fields.h"

namespace walk::nav {
namespace {

constexpr char kImageMagic[8] = {'W', 'A', 'L', 'K', 'I', 'M', 'G', '\0'};
constexpr std::uint64_t kChunkAlign = 64;
constexpr std::uint64_t kPage = 4096;

std::uint64_t AlignUp(std::uint64_t v, std::uint64_t to) { return (v + to - 1) / to * to; }

// The fixed header at the start of an image.
struct ImageHeader {
  char magic[8];
  std::uint32_t version;
  std::uint32_t reserved;
  GridStamp stamp;
  std::uint64_t skeleton_bytes;  // right after the header
  std::uint64_t data_offset;     // page-aligned, from the file's start
  std::uint64_t data_bytes;
};

// A mapped file, unmapped when the last array viewing it goes.
struct Mapping {
  void* address = nullptr;
  std::size_t bytes = 0;
  ~Mapping() {
    if (address != nullptr) munmap(address, bytes);
  }
};

// Writes the skeleton (everything but the big arrays, which become offsets into the data part)
// and lists the big arrays in the order the data part holds them.
class SkeletonWriter {
 public:
  explicit SkeletonWriter(const std::string& source) : source_(source) {}

  template <typename F>
  void Part(GridPart, F&& fields) {
    fields();
  }
  template <typename T>
  void Value(const T& value) {
    Put(value);
  }
  template <typename T>
  void Stored(const T& value) {
    Put(value);
  }
  void Stored(const std::string& text) {
    Put(static_cast<std::uint32_t>(text.size()));
    out_.append(text);
  }
  void Note() { Stored(source_); }
  template <typename T>
  void Count(const std::vector<T>& items) {
    Put(static_cast<std::uint32_t>(items.size()));
  }
  template <typename T>
  void StoredCount(const std::vector<T>& items) {
    Count(items);
  }
  void SurfaceCount(const Continent& c) { Put(c.surface_count()); }
  template <typename T, typename F>
  void Items(const std::vector<T>& items, F&& fields) {
    for (const T& item : items) fields(item);
  }
  void TileArray(const Array<SurfaceId>& values) { Chunk(values); }
  template <typename T>
  void SurfaceArray(const Array<T>& values) {
    Chunk(values);
  }

  // A big array: its offset and length here, its bytes in the data part. (`expected` is the
  // reader's: the length it must find.)
  template <typename T>
  void Chunk(const Array<T>& values, std::uint64_t expected = 0) {
    data_bytes_ = AlignUp(data_bytes_, kChunkAlign);
    Put(data_bytes_);
    Put(static_cast<std::uint64_t>(values.size()));
    chunks_.push_back({data_bytes_, values.data(), values.size() * sizeof(T)});
    data_bytes_ += values.size() * sizeof(T);
  }
  // A small array, copied into the skeleton.
  template <typename T>
  void Small(const std::vector<T>& values) {
    Put(static_cast<std::uint64_t>(values.size()));
    out_.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
  }
  template <typename T>
  void Put(const T& value) {
    out_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }

  struct Piece {
    std::uint64_t offset;
    const void* bytes;
    std::uint64_t size;
  };
  const std::string& skeleton() const { return out_; }
  const std::vector<Piece>& chunks() const { return chunks_; }
  std::uint64_t data_bytes() const { return data_bytes_; }

 private:
  const std::string& source_;
  std::string out_;
  std::vector<Piece> chunks_;
  std::uint64_t data_bytes_ = 0;
};

// Reads a skeleton back, the big arrays as views of the mapped data part. Any count or offset
// beyond the file leaves ok() false; nothing is allocated beyond the skeleton's own size.
class SkeletonReader {
 public:
  SkeletonReader(const char* skeleton, std::uint64_t bytes, std::shared_ptr<const void> mapping,
                 const char* data, std::uint64_t data_bytes, std::string* source)
      : p_(skeleton),
        size_(bytes),
        mapping_(std::move(mapping)),
        data_(data),
        data_bytes_(data_bytes),
        source_(source) {}

  template <typename F>
  void Part(GridPart, F&& fields) {
    if (ok_) fields();
  }
  template <typename T>
  void Value(T& value) {
    Get(&value);
  }
  template <typename T>
  void Stored(T& value) {
    Get(&value);
  }
  void Stored(std::string& text) {
    std::uint32_t n = 0;
    if (!Get(&n) || n > size_ - pos_) return void(ok_ = false);
    text.assign(p_ + pos_, n);
    pos_ += n;
  }
  void Note() { Stored(*source_); }
  template <typename T>
  void Count(std::vector<T>&) {
    // Every item takes at least a byte of the skeleton.
    if (Get(&pending_) && pending_ > size_ - pos_) ok_ = false;
  }
  template <typename T>
  void StoredCount(std::vector<T>& items) {
    Count(items);
  }
  void SurfaceCount(Continent&) { Get(&surface_count_); }
  template <typename T, typename F>
  void Items(std::vector<T>& items, F&& fields) {
    const std::uint32_t count = ok_ ? pending_ : 0;
    for (std::uint32_t i = 0; i < count && ok_; ++i) {
      T item;
      fields(item);
      items.push_back(std::move(item));
    }
  }
  void TileArray(Array<SurfaceId>& values) { Chunk(values, kColumnsPerTile + 1); }
  template <typename T>
  void SurfaceArray(Array<T>& values) {
    Chunk(values, surface_count_);
  }

  template <typename T>
  void Chunk(Array<T>& values, std::uint64_t expected) {
    std::uint64_t offset = 0, count = 0;
    if (!Get(&offset) || !Get(&count)) return;
    if (count != expected || offset % alignof(T) != 0 || offset > data_bytes_ ||
        count > (data_bytes_ - offset) / sizeof(T)) {
      ok_ = false;
      return;
    }
    values = Array<T>::View(mapping_, reinterpret_cast<const T*>(data_ + offset), count);
  }
  template <typename T>
  void Small(std::vector<T>& values) {
    std::uint64_t count = 0;
    if (!Get(&count) || count > (size_ - pos_) / sizeof(T)) return void(ok_ = false);
    values.resize(count);
    if (count > 0) std::memcpy(values.data(), p_ + pos_, count * sizeof(T));
    pos_ += count * sizeof(T);
  }
  template <typename T>
  bool Get(T* value) {
    if (!ok_ || sizeof(T) > size_ - pos_) return ok_ = false;
    std::memcpy(value, p_ + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }

  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == size_; }

 private:
  const char* p_;
  std::uint64_t size_, pos_ = 0;
  std::shared_ptr<const void> mapping_;
  const char* data_;
  std::uint64_t data_bytes_;
  std::string* source_;
  bool ok_ = true;
  std::uint32_t pending_ = 0, surface_count_ = 0;
};

// The derived arrays, after the stored ones, continent by continent. V is SkeletonWriter with a
// const World, SkeletonReader with a World.
template <typename W, typename V>
void VisitDerived(W& world, V& v) {
  for (auto& c : world.continents) {
    v.Small(c.tile_index);
    v.Small(c.lifts_into);
    v.Small(c.region_size);
    v.Small(c.road_blocks);
    v.Value(c.road_blocks_x);
    v.Value(c.ground_present);
    const std::uint64_t n = c.height_yards.size();
    v.Chunk(c.region, n);
    v.Chunk(c.column_x, n);
    v.Chunk(c.column_y, n);
    v.Chunk(c.level, n);
  }
}

// What the content id does not cover, checked so that no index read through it leaves its array.
bool DerivedSound(const World& world) {
  for (const Continent& c : world.continents) {
    if (c.tile_index.size() != std::uint64_t{c.tiles_x} * c.tiles_y) return false;
    for (std::uint32_t t : c.tile_index) {
      if (t != kInvalidId && t >= c.tiles.size()) return false;
    }
    for (std::uint32_t i : c.lifts_into) {
      if (i >= c.lifts.size()) return false;
    }
    const std::uint32_t n = c.surface_count();
    for (std::uint32_t s = 0; s < n; ++s) {
      if (c.region[s] >= c.region_size.size() || c.column_x[s] >= c.width_columns ||
          c.column_y[s] >= c.height_columns || c.level[s] >= kNoLevel) {
        return false;
      }
    }
  }
  return true;
}

// The mapping `world`'s arrays view, or null.
const Mapping* MappingOf(const World& world) {
  for (const Continent& c : world.continents) {
    if (c.height_yards.mapped()) return static_cast<const Mapping*>(c.height_yards.mapping().get());
  }
  return nullptr;
}

absl::Status ImageDamaged(const std::string& path, const std::string& what) {
  return absl::DataLossError(absl::StrCat(path, ": damaged grid image: ", what));
}

// Bytes of the mapping at `address` this process has resident (its pages mapped), from
// /proc/self/smaps (mincore would tell the page cache's share instead).
std::uint64_t ResidentBytesAt(const void* address) {
  std::ifstream smaps("/proc/self/smaps");
  const std::string start = absl::StrCat(absl::Hex(reinterpret_cast<std::uintptr_t>(address)), "-");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    if (!inside) {
      inside = line.rfind(start, 0) == 0;
    } else if (line.rfind("Rss:", 0) == 0) {
      return std::strtoull(line.c_str() + 4, nullptr, 10) << 10;  // kB
    }
  }
  return 0;
}

// True when reading a byte of `m` maps more than a fault's neighbourhood (64 KB): the page cache
// holds the file in large folios, which a fault maps whole. Read at a few places, handed back.
bool MapsLargeFolios(const Mapping& m) {
  constexpr int kProbes = 8;
  constexpr std::uint64_t kFaultAround = 64 << 10;
  const auto* bytes = static_cast<const volatile char*>(m.address);
  for (int i = 1; i <= kProbes; ++i) (void)bytes[m.bytes / (kProbes + 1) * i];
  const bool large = ResidentBytesAt(m.address) > kProbes * kFaultAround;
  madvise(m.address, m.bytes, MADV_DONTNEED);
  return large;
}

// Walks read a few surfaces of each array at a time, but this kernel's page cache may hold a
// file in large folios (2 MB on ext4 after a sequential read or write), and a fault maps a folio
// whole: a walk mapped megabytes of each array it read (about 35 MB a cold leg). So the image is
// kept in the page cache in single pages: faults read only the page asked (MADV_RANDOM: no
// readahead, which makes large folios); large folios already cached (the image read by an
// older walkd, or copied) are dropped, those written back already (dirty ones stay until
// then); and the whole file is read ahead in single pages (POSIX_FADV_WILLNEED), for the checks
// that read every page next. A fault then maps the 64 KB around it.
void KeepPagesSmall(int fd, const Mapping& m) {
  madvise(m.address, m.bytes, MADV_RANDOM);
  if (MapsLargeFolios(m)) posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  posix_fadvise(fd, 0, 0, POSIX_FADV_WILLNEED);
}

}  // namespace

absl::StatusOr<GridStamp> StampGrid(const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / kGridFileName).string();
  struct stat st {};
  if (stat(path.c_str(), &st) != 0)
    return absl::NotFoundError(absl::StrCat(path, ": no grid file"));
  GridStamp stamp;
  stamp.bytes = static_cast<std::uint64_t>(st.st_size);
  stamp.modified_ns = std::int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec;
  std::ifstream in(path, std::ios::binary);
  char preamble[20];  // magic, version, content id
  if (!in.read(preamble, sizeof preamble)) {
    return absl::DataLossError(absl::StrCat(path, ": truncated header"));
  }
  std::memcpy(&stamp.content_id, preamble + 12, sizeof stamp.content_id);
  return stamp;
}

absl::Status SaveGridImage(const World& world, const std::string& source, const GridStamp& stamp,
                           const std::string& path) {
  SkeletonWriter writer(source);
  VisitWorldFields(world, writer);
  VisitDerived(world, writer);
  ImageHeader header{};
  std::memcpy(header.magic, kImageMagic, sizeof kImageMagic);
  header.version = kGridImageVersion;
  header.stamp = stamp;
  header.skeleton_bytes = writer.skeleton().size();
  header.data_offset = AlignUp(sizeof header + header.skeleton_bytes, kPage);
  header.data_bytes = writer.data_bytes();

  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  const std::string temp = path + ".tmp";
  {
    // Written a page a write: the page cache then holds the image in single pages, as walks
    // want it (KeepPagesSmall), where larger writes would leave it in large folios.
    std::ofstream out;
    out.rdbuf()->pubsetbuf(nullptr, 0);
    out.open(temp, std::ios::binary | std::ios::trunc);
    if (!out) return absl::InternalError(absl::StrCat("cannot write ", temp));
    std::uint64_t at = 0;
    auto put = [&](const char* bytes, std::uint64_t size) {
      for (std::uint64_t done = 0; done < size;) {
        const std::uint64_t slice = std::min<std::uint64_t>(size - done, kPage - (at % kPage));
        out.write(bytes + done, static_cast<std::streamsize>(slice));
        done += slice;
        at += slice;
      }
    };
    const std::string zeros(kPage, '\0');
    auto pad_to = [&](std::uint64_t offset) {
      while (at < offset) put(zeros.data(), std::min<std::uint64_t>(offset - at, kPage));
    };
    put(reinterpret_cast<const char*>(&header), sizeof header);
    put(writer.skeleton().data(), writer.skeleton().size());
    pad_to(header.data_offset);
    for (const SkeletonWriter::Piece& piece : writer.chunks()) {
      pad_to(header.data_offset + piece.offset);
      put(static_cast<const char*>(piece.bytes), piece.size);
    }
    out.flush();
    if (!out) return absl::InternalError(absl::StrCat("write failed: ", temp));
  }
  std::filesystem::rename(temp, path, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot rename to ", path, ": ", ec.message()));
  return absl::OkStatus();
}

absl::StatusOr<LoadedWorld> MapGridImage(const std::string& path, const GridStamp& stamp) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError(absl::StrCat(path, ": no grid image"));
  struct stat st {};
  auto mapping = std::make_shared<Mapping>();
  if (fstat(fd, &st) == 0 && st.st_size >= static_cast<off_t>(sizeof(ImageHeader))) {
    mapping->bytes = static_cast<std::size_t>(st.st_size);
    void* address = mmap(nullptr, mapping->bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address != MAP_FAILED) mapping->address = address;
  }
  if (mapping->address != nullptr) KeepPagesSmall(fd, *mapping);
  close(fd);
  if (mapping->address == nullptr) return ImageDamaged(path, "cannot map it");
  const char* base = static_cast<const char*>(mapping->address);
  ImageHeader header;
  std::memcpy(&header, base, sizeof header);
  if (std::memcmp(header.magic, kImageMagic, sizeof kImageMagic) != 0) {
    return ImageDamaged(path, "bad magic");
  }
  if (header.version != kGridImageVersion || !(header.stamp == stamp)) {
    return absl::FailedPreconditionError(
        absl::StrCat(path, ": made from another grid file or by another walkd"));
  }
  if (header.skeleton_bytes > mapping->bytes - sizeof header ||
      header.data_offset < sizeof header + header.skeleton_bytes ||
      header.data_offset > mapping->bytes ||
      header.data_bytes > mapping->bytes - header.data_offset) {
    return ImageDamaged(path, "its parts overrun the file");
  }
  LoadedWorld loaded;
  SkeletonReader reader(base + sizeof header, header.skeleton_bytes, mapping,
                        base + header.data_offset, header.data_bytes, &loaded.source);
  VisitWorldFields(loaded.world, reader);
  VisitDerived(loaded.world, reader);
  if (!reader.ok() || !reader.at_end())
    return ImageDamaged(path, "a count or offset is out of bounds");
  AssignContentIds(loaded.world);
  if (loaded.world.content_id != stamp.content_id) {
    return ImageDamaged(path, "its content does not hash to its id");
  }
  if (!DerivedSound(loaded.world)) return ImageDamaged(path, "a derived array is out of bounds");
  // The checks touched every page: hand them back, so residency follows what walks read.
  madvise(mapping->address, mapping->bytes, MADV_DONTNEED);
  return loaded;
}

MappedBytes MappedResidence(const World& world) {
  const Mapping* m = MappingOf(world);
  if (m == nullptr) return {};
  MappedBytes out;
  out.mapped = m->bytes;
  out.resident = ResidentBytesAt(m->address);
  return out;
}

bool ReleaseMappedPages(const World& world) {
  const Mapping* m = MappingOf(world);
  if (m == nullptr) return false;
  madvise(m->address, m->bytes, MADV_DONTNEED);
  return true;
}

absl::StatusOr<LoadedWorld> LoadWorldMapped(const std::string& dir, const std::string& image_path,
                                            std::string* note) {
  std::string unused;
  std::string& said = note != nullptr ? *note : unused;
  absl::StatusOr<GridStamp> stamp = StampGrid(dir);
  if (!stamp.ok()) return stamp.status();
  absl::StatusOr<LoadedWorld> mapped = MapGridImage(image_path, *stamp);
  if (mapped.ok()) {
    said = absl::StrCat("mapped from ", image_path);
    return mapped;
  }
  const std::string why_written =
      absl::IsNotFound(mapped.status()) ? "none yet" : std::string(mapped.status().message());
  absl::StatusOr<LoadedWorld> parsed = LoadWorld(dir);
  if (!parsed.ok()) return parsed.status();
  if (absl::Status s = SaveGridImage(parsed->world, parsed->source, *stamp, image_path); !s.ok()) {
    said = absl::StrCat("read whole (no image: ", s.message(), ")");
    return parsed;
  }
  // The parse goes before the image is mapped: mapping checks every page of the image, and both
  // at once would hold the world twice.
  parsed = absl::UnknownError("dropped");
  malloc_trim(0);  // glibc keeps what was freed otherwise
  mapped = MapGridImage(image_path, *stamp);
  if (!mapped.ok()) {
    said = absl::StrCat("read whole (", mapped.status().message(), ")");
    return LoadWorld(dir);
  }
  said = absl::StrCat("mapped from ", image_path, ", written now (", why_written, ")");
  return mapped;
}

}  // namespace walk::nav
