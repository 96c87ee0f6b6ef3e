#include "nav/abstract/abstract_graph_format.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "nav/cost/cost_model.h"
#include "nav/grid/binary_io.h"
#include "nav/grid/crc32c.h"
#include "nav/grid/grid_format.h"

namespace walk::nav {
namespace {

constexpr char kMagic[8] = {'W', 'A', 'L', 'K', 'G', 'R', 'P', 'H'};

void PutMix(BinaryWriter& w, const std::vector<ZoneShare>& mix) {
  std::vector<std::uint16_t> zones;
  std::vector<float> seconds, yards;
  for (const ZoneShare& s : mix) {
    zones.push_back(s.zone);
    seconds.push_back(s.seconds);
    yards.push_back(s.yards);
  }
  w.PutVector(zones);
  w.PutArray(seconds);
  w.PutArray(yards);
}

bool GetMix(BinaryReader& r, std::vector<ZoneShare>* mix) {
  std::vector<std::uint16_t> zones;
  std::vector<float> seconds, yards;
  if (!r.GetVector(&zones) || !r.GetArray(zones.size(), &seconds) ||
      !r.GetArray(zones.size(), &yards)) {
    return false;
  }
  mix->resize(zones.size());
  for (std::size_t i = 0; i < zones.size(); ++i)
    (*mix)[i] = ZoneShare{zones[i], seconds[i], yards[i]};
  return true;
}

// The file's first 16 bytes: the magic, the format version, and the CRC-32C of those 12 bytes,
// so a damaged version word is told from a file of another version.
constexpr std::size_t kFileHeadBytes = 16;
// A section's frame: its payload's length (u64), then the CRC-32C of that length's 8 bytes and
// the payload (u32), then the payload.
constexpr std::size_t kSectionFrameBytes = 12;

std::uint32_t VersionCheck(std::uint32_t version) {
  char head[12];
  std::memcpy(head, kMagic, sizeof kMagic);
  std::memcpy(head + sizeof kMagic, &version, sizeof version);
  return Crc32c(head, sizeof head);
}

void PutSection(std::ostream& out, const std::string& payload) {
  const std::uint64_t size = payload.size();
  const std::uint32_t crc = Crc32c(payload.data(), payload.size(), Crc32c(&size, sizeof size));
  out.write(reinterpret_cast<const char*>(&size), sizeof size);
  out.write(reinterpret_cast<const char*>(&crc), sizeof crc);
  out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
}

}  // namespace

absl::Status SaveAbstractGraph(const AbstractGraph& graph, const std::string& dir) {
  const std::filesystem::path path = std::filesystem::path(dir) / kGraphFileName;
  const std::filesystem::path temp = path.string() + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return absl::InternalError(absl::StrCat("cannot write ", temp.string()));
    out.write(kMagic, sizeof kMagic);
    const std::uint32_t version = kGraphFormatVersion;
    out.write(reinterpret_cast<const char*>(&version), sizeof version);
    const std::uint32_t check = VersionCheck(version);
    out.write(reinterpret_cast<const char*>(&check), sizeof check);
    std::ostringstream header;
    {
      BinaryWriter w(header);
      w.Put<std::uint32_t>(graph.graph_version);
      w.Put<std::uint32_t>(graph.cost_model_version);
      w.Put<std::uint32_t>(graph.cell_columns);
      w.Put<std::uint32_t>(graph.entrance_spacing);
      w.Put<std::uint32_t>(graph.major_entrance_spacing);
      w.Put<std::uint32_t>(static_cast<std::uint32_t>(graph.profiles.size()));
      for (const std::string& p : graph.profiles) w.PutString(p);
      w.Put<std::uint32_t>(static_cast<std::uint32_t>(graph.continents.size()));
    }
    PutSection(out, header.str());
    for (const ContinentGraph& g : graph.continents) {
      std::ostringstream topology;
      BinaryWriter w(topology);
      w.Put<std::uint32_t>(g.continent);
      w.Put<std::uint64_t>(g.content_id);
      w.PutVector(g.node_surface);
      w.PutVector(g.first_arc);
      w.PutVector(g.arc_head);
      w.PutVector(g.order);
      PutSection(out, topology.str());
      for (std::size_t profile = 0; profile < graph.profiles.size(); ++profile) {
        absl::StatusOr<std::shared_ptr<const ArcPrices>> p = g.PricesOf(profile);
        if (!p.ok()) return p.status();
        std::ostringstream prices;
        BinaryWriter pw(prices);
        pw.PutArray((*p)->seconds);
        pw.PutArray((*p)->yards);
        pw.PutArray((*p)->mix_first);
        PutMix(pw, (*p)->mix);
        PutSection(out, prices.str());
      }
    }
    out.write(kMagic, sizeof kMagic);  // the end: a cut-off file lacks it
    out.flush();
    if (!out) return absl::InternalError(absl::StrCat("write failed: ", temp.string()));
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec)
    return absl::InternalError(
        absl::StrCat("cannot rename to ", path.string(), ": ", ec.message()));
  return absl::OkStatus();
}

namespace {

// What a read of `path` finds damaged, as the status that says so.
absl::Status Damaged(const std::string& path, const std::string& what) {
  return absl::DataLossError(absl::StrCat(path, ": damaged abstract graph (", what, ")"));
}

// A graph file's bytes: a buffer given (ParseAbstractGraph), or an open file read as asked.
class GraphBytes {
 public:
  virtual ~GraphBytes() = default;
  virtual std::uint64_t size() const = 0;
  // Copies `size` bytes at `offset` to `out`; false when they cannot be read.
  virtual bool Read(std::uint64_t offset, std::size_t size, char* out) const = 0;
};

class BufferBytes final : public GraphBytes {
 public:
  explicit BufferBytes(std::string_view bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  bool Read(std::uint64_t offset, std::size_t size, char* out) const override {
    if (offset > bytes_.size() || size > bytes_.size() - offset) return false;
    std::memcpy(out, bytes_.data() + offset, size);
    return true;
  }

 private:
  std::string_view bytes_;
};

class FileBytes final : public GraphBytes {
 public:
  // NOT_FOUND when there is no file at `path`.
  static absl::StatusOr<std::shared_ptr<const FileBytes>> Open(const std::string& path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return absl::NotFoundError(absl::StrCat(path, ": no abstract graph (run walkgrid prepare)"));
    }
    struct stat st;
    if (fstat(fd, &st) != 0) {
      close(fd);
      return Damaged(path, "read failed");
    }
    return std::shared_ptr<const FileBytes>(
        new FileBytes(fd, static_cast<std::uint64_t>(st.st_size)));
  }
  ~FileBytes() override { close(fd_); }
  FileBytes(const FileBytes&) = delete;
  FileBytes& operator=(const FileBytes&) = delete;

  std::uint64_t size() const override { return size_; }
  bool Read(std::uint64_t offset, std::size_t size, char* out) const override {
    while (size > 0) {
      const ssize_t got = pread(fd_, out, size, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      out += got;
      offset += static_cast<std::uint64_t>(got);
      size -= static_cast<std::size_t>(got);
    }
    return true;
  }

 private:
  FileBytes(int fd, std::uint64_t size) : fd_(fd), size_(size) {}
  int fd_;
  std::uint64_t size_;
};

// Where a section's payload lies in its file, and the CRC-32C its frame gives it.
struct SectionPlace {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t crc = 0;
};

// The CRC-32C of a section of `size` bytes: over the length's 8 bytes, then the payload, fed by
// `feed` (which calls its argument on each piece in order).
template <typename Feed>
std::uint32_t SectionCrc(std::uint64_t size, Feed feed) {
  std::uint32_t crc = Crc32c(&size, sizeof size);
  feed([&crc](const char* data, std::size_t n) { crc = Crc32c(data, n, crc); });
  return crc;
}

absl::Status BadCrc(const std::string& path, const std::string& name, std::uint64_t start,
                    std::uint32_t crc, std::uint32_t stored) {
  return Damaged(path, absl::StrCat("section '", name, "' at byte ", start, ": CRC-32C ",
                                    absl::Hex(crc, absl::kZeroPad8), ", the file says ",
                                    absl::Hex(stored, absl::kZeroPad8)));
}

// Reads a file's sections in order, each checked against its CRC-32C (unless told not to).
class SectionReader {
 public:
  // The sections of `bytes` (at least the head and the end magic long), between the two.
  SectionReader(const GraphBytes& bytes, const std::string& path, bool verify)
      : bytes_(bytes), end_(bytes.size() - sizeof kMagic), path_(path), verify_(verify) {}

  // The next section's payload (valid until the next call); DATA_LOSS naming `name` (and where
  // it starts) when it runs past the end or fails its checksum.
  absl::StatusOr<std::string_view> Next(const std::string& name) {
    const std::uint64_t start = pos_;
    absl::StatusOr<SectionPlace> place = Frame(name);
    if (!place.ok()) return place.status();
    buffer_.resize(place->size);
    if (!bytes_.Read(place->offset, place->size, buffer_.data())) {
      return Bad(name, start, "read failed");
    }
    if (verify_) {
      const std::uint32_t crc =
          SectionCrc(place->size, [&](auto add) { add(buffer_.data(), buffer_.size()); });
      if (crc != place->crc) return BadCrc(path_, name, start, crc, place->crc);
    }
    return std::string_view(buffer_);
  }

  // The next section's place, its checksum checked a piece at a time (never held whole): what
  // a profile's prices left in the file keep.
  absl::StatusOr<SectionPlace> Skip(const std::string& name) {
    const std::uint64_t start = pos_;
    absl::StatusOr<SectionPlace> place = Frame(name);
    if (!place.ok() || !verify_) return place;
    constexpr std::size_t kPiece = 1 << 20;
    buffer_.resize(std::min<std::uint64_t>(kPiece, place->size));
    bool read = true;
    const std::uint32_t crc = SectionCrc(place->size, [&](auto add) {
      for (std::uint64_t at = 0; read && at < place->size; at += kPiece) {
        const std::size_t n =
            static_cast<std::size_t>(std::min<std::uint64_t>(kPiece, place->size - at));
        read = bytes_.Read(place->offset + at, n, buffer_.data());
        if (read) add(buffer_.data(), n);
      }
    });
    if (!read) return Bad(name, start, "read failed");
    if (crc != place->crc) return BadCrc(path_, name, start, crc, place->crc);
    return place;
  }

  // DATA_LOSS naming section `name` and what is wrong in it (a payload that checks out but does
  // not parse: a writer's bug, or checks skipped).
  absl::Status Bad(const std::string& name, const std::string& what) const {
    return Damaged(path_, absl::StrCat("section '", name, "': ", what));
  }

  bool AtEnd() const { return pos_ == end_; }

 private:
  // Reads the next section's frame and moves past the section.
  absl::StatusOr<SectionPlace> Frame(const std::string& name) {
    const std::uint64_t start = pos_;
    char frame[kSectionFrameBytes];
    if (end_ - pos_ < kSectionFrameBytes) return Bad(name, start, "cut off");
    if (!bytes_.Read(pos_, sizeof frame, frame)) return Bad(name, start, "read failed");
    SectionPlace place;
    std::memcpy(&place.size, frame, sizeof place.size);
    std::memcpy(&place.crc, frame + sizeof place.size, sizeof place.crc);
    if (place.size > end_ - pos_ - kSectionFrameBytes) {
      return Bad(name, start, absl::StrCat(place.size, " bytes, past the end of the file"));
    }
    place.offset = pos_ + kSectionFrameBytes;
    pos_ = place.offset + place.size;
    return place;
  }

  absl::Status Bad(const std::string& name, std::uint64_t start, const std::string& what) const {
    return Damaged(path_, absl::StrCat("section '", name, "' at byte ", start, ": ", what));
  }

  const GraphBytes& bytes_;
  std::uint64_t end_;  // where the end magic starts
  const std::string& path_;
  bool verify_;
  std::uint64_t pos_ = kFileHeadBytes;
  std::string buffer_;
};

// The format version word of a file whose magic is right: OK for kGraphFormatVersion with its
// check; FAILED_PRECONDITION (stale) for a whole file of another version, and for a version-1
// file (they had no check); DATA_LOSS when the version word or its check is damaged.
absl::Status CheckVersion(const std::string& path, std::string_view bytes) {
  std::uint32_t version = 0, check = 0;
  std::memcpy(&version, bytes.data() + sizeof kMagic, sizeof version);
  std::memcpy(&check, bytes.data() + sizeof kMagic + sizeof version, sizeof check);
  const bool whole = check == VersionCheck(version);
  if (version == kGraphFormatVersion && whole) return absl::OkStatus();
  if (whole || (version < 2 && check != VersionCheck(kGraphFormatVersion))) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": format version ", version,
                                                      ", this walkd reads ", kGraphFormatVersion,
                                                      "; run walkgrid prepare again"));
  }
  return Damaged(path, absl::StrCat("its format version word (", version, ") fails its check"));
}

// Reads the header section: the versions, the content id and cell side it was prepared for (which
// must be `world`'s and this walkd's), and the prepared profiles.
absl::Status ReadHeader(const World& world, const std::string& path, BinaryReader& r,
                        AbstractGraph* graph) {
  std::uint32_t profile_count = 0;
  if (!r.Get(&graph->graph_version) || !r.Get(&graph->cost_model_version) ||
      !r.Get(&graph->cell_columns) || !r.Get(&graph->entrance_spacing) ||
      !r.Get(&graph->major_entrance_spacing) || !r.Get(&profile_count)) {
    return Damaged(path, "header");
  }
  if (graph->cost_model_version != kCostModelVersion ||
      graph->graph_version != kAbstractGraphVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": prepared for cost model ", graph->cost_model_version, ", graph version ",
        graph->graph_version, "; this walkd has cost model ", kCostModelVersion, ", graph version ",
        kAbstractGraphVersion, ": run walkgrid prepare again"));
  }
  if (graph->cell_columns == 0 || kTileColumns % graph->cell_columns != 0 || profile_count > 64) {
    return Damaged(path, "cell side or profiles");
  }
  std::uint64_t cells = 0;
  for (const Continent& c : world.continents) {
    cells += std::uint64_t{(c.width_columns + graph->cell_columns - 1) / graph->cell_columns} *
             ((c.height_columns + graph->cell_columns - 1) / graph->cell_columns);
  }
  if (cells > kMaxGraphCells) {
    return Damaged(path, absl::StrCat("cells of ", graph->cell_columns, " columns: ", cells,
                                      " on the world's continents, more than the ", kMaxGraphCells,
                                      " a graph may index"));
  }
  graph->profiles.resize(profile_count);
  for (std::size_t i = 0; i < graph->profiles.size(); ++i) {
    std::string& p = graph->profiles[i];
    if (!r.GetString(&p)) return Damaged(path, "profiles");
    // A profile this walkd does not know (renamed or removed) cannot be priced: stale.
    if (FindProfile(p) == nullptr || p.empty()) {
      return absl::FailedPreconditionError(
          absl::StrCat(path, ": prepared for profile \"", p,
                       "\", which this walkd does not know; run walkgrid prepare again"));
    }
    if (std::find(graph->profiles.begin(), graph->profiles.begin() + i, p) !=
        graph->profiles.begin() + i) {
      return Damaged(path, absl::StrCat("profile ", p, " twice"));
    }
  }
  return absl::OkStatus();
}

// Reads continent `c`'s nodes, arcs and order, and checks them: sorted surfaces on the map, an
// order that is a permutation, and every arc between two portals of one cell (what prepare makes:
// path unpacking searches that cell again) or along a lift ride that leaves its cell.
absl::Status ReadTopology(const Continent& c, std::uint32_t cell_columns, const std::string& path,
                          BinaryReader& r, ContinentGraph* graph) {
  ContinentGraph& g = *graph;
  if (!r.GetVector(&g.node_surface) || !r.GetVector(&g.first_arc) || !r.GetVector(&g.arc_head) ||
      !r.GetVector(&g.order)) {
    return Damaged(path, absl::StrCat("continent ", c.id));
  }
  const std::size_t n = g.node_surface.size(), m = g.arc_head.size();
  if (g.first_arc.size() != n + 1 || g.first_arc.front() != 0 || g.first_arc.back() != m ||
      g.order.size() != n) {
    return Damaged(path, absl::StrCat("continent ", c.id, " arrays"));
  }
  std::vector<bool> ranked(n, false);  // the order must be a permutation
  for (std::uint32_t node : g.order) {
    if (node >= n || ranked[node]) return Damaged(path, absl::StrCat("continent ", c.id, " order"));
    ranked[node] = true;
  }
  for (std::size_t k = 0; k < n; ++k) {
    if (g.node_surface[k] >= c.surface_count() ||
        (k > 0 && g.node_surface[k] <= g.node_surface[k - 1]) ||
        g.first_arc[k] > g.first_arc[k + 1] || g.order[k] >= n) {
      return Damaged(path, absl::StrCat("continent ", c.id, " nodes"));
    }
  }
  for (std::size_t k = 0; k < n; ++k) {
    const SurfaceId s = g.node_surface[k];
    if (!c.OnMap(c.column_x[s], c.column_y[s]))
      return Damaged(path, absl::StrCat("continent ", c.id, " nodes"));
  }
  g.IndexCells(c, cell_columns);
  std::uint32_t shared[3];
  for (std::uint32_t tail = 0; tail < n; ++tail) {
    for (std::uint32_t a = g.first_arc[tail]; a < g.first_arc[tail + 1]; ++a) {
      const std::uint32_t head = g.arc_head[a];
      if (head >= n || head == tail)
        return Damaged(path, absl::StrCat("continent ", c.id, " arcs"));
      const SurfaceId sa = g.node_surface[tail], sb = g.node_surface[head];
      if (g.SharedCells(c, cell_columns, sa, sb, shared) == 0) {
        // Else a lift arc: a ride between landings in two cells.
        const LiftRide* ride = c.FindRide(sa, sb);
        if (ride == nullptr || !RideLeavesCell(c, cell_columns, *ride))
          return Damaged(path, absl::StrCat("continent ", c.id, " arc ", a));
      }
    }
  }
  return absl::OkStatus();
}

// Reads one profile's prices of continent `c`'s `arc_count` arcs and checks them: offsets in
// order, seconds >= 0 or +inf (NaN fails both), yards finite and >= 0, zone shares likewise.
absl::Status ReadPrices(ContinentId continent, std::size_t arc_count, const std::string& path,
                        BinaryReader& r, ArcPrices* out) {
  ArcPrices& prices = *out;
  const std::size_t m = arc_count;
  if (!r.GetArray(m, &prices.seconds) || !r.GetArray(m, &prices.yards) ||
      !r.GetArray(m + 1, &prices.mix_first) || !GetMix(r, &prices.mix) ||
      prices.mix_first.front() != 0 || prices.mix_first.back() != prices.mix.size()) {
    return Damaged(path, absl::StrCat("continent ", continent, " prices"));
  }
  for (std::size_t a = 0; a < m; ++a) {
    if (prices.mix_first[a] > prices.mix_first[a + 1]) return Damaged(path, "mix");
  }
  for (std::size_t a = 0; a < m; ++a) {  // offsets are sound: the values
    for (const ZoneShare& share : prices.MixOf(static_cast<std::uint32_t>(a))) {
      if (share.zone == 0 || !(share.seconds >= 0.0f) || !std::isfinite(share.seconds) ||
          !(share.yards >= 0.0f) || !std::isfinite(share.yards)) {
        return Damaged(path, absl::StrCat("continent ", continent, " zone mix"));
      }
    }
    if (!(prices.seconds[a] >= 0.0f) || !(prices.yards[a] >= 0.0f) ||
        !std::isfinite(prices.yards[a])) {
      return Damaged(path, absl::StrCat("continent ", continent, " arc prices"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

// The name of the section of continent `continent`'s prices of `profile`.
std::string PricesName(ContinentId continent, const std::string& profile) {
  return absl::StrCat("continent ", continent, " prices of ", profile);
}

// Parses the prices of profile `profile` of continent `continent`'s `arc_count` arcs from
// section `name`'s `payload`.
absl::StatusOr<ArcPrices> ParsePrices(ContinentId continent, std::size_t arc_count,
                                      const std::string& profile, const std::string& name,
                                      std::string_view payload, const std::string& path) {
  ArcPrices prices;
  prices.profile = profile;
  BinaryReader r(payload);
  if (absl::Status s = ReadPrices(continent, arc_count, path, r, &prices); !s.ok()) return s;
  if (!r.AtEnd()) return Damaged(path, absl::StrCat("section '", name, "': trailing bytes"));
  return prices;
}

// One continent's prices left in the graph file at load (GraphLoadOptions): each profile's
// section read, checked against the CRC-32C it had at load, and parsed when asked.
class FilePrices final : public PriceReader {
 public:
  FilePrices(std::shared_ptr<const GraphBytes> file, std::string path, ContinentId continent,
             std::size_t arc_count, std::vector<std::string> profiles,
             std::vector<SectionPlace> sections)
      : file_(std::move(file)),
        path_(std::move(path)),
        continent_(continent),
        arc_count_(arc_count),
        profiles_(std::move(profiles)),
        sections_(std::move(sections)) {}

  absl::StatusOr<ArcPrices> Read(std::size_t profile) const override {
    if (profile >= sections_.size()) {
      return absl::InternalError(absl::StrCat("no profile ", profile, " in ", path_));
    }
    const SectionPlace& place = sections_[profile];
    const std::string name = PricesName(continent_, profiles_[profile]);
    std::string payload(place.size, '\0');
    if (!file_->Read(place.offset, place.size, payload.data())) {
      return Damaged(path_, absl::StrCat("section '", name, "': read failed"));
    }
    const std::uint32_t crc =
        SectionCrc(place.size, [&](auto add) { add(payload.data(), payload.size()); });
    if (crc != place.crc) {
      return BadCrc(path_, name, place.offset - kSectionFrameBytes, crc, place.crc);
    }
    return ParsePrices(continent_, arc_count_, profiles_[profile], name, payload, path_);
  }

 private:
  std::shared_ptr<const GraphBytes> file_;
  std::string path_;
  ContinentId continent_;
  std::size_t arc_count_;
  std::vector<std::string> profiles_;
  std::vector<SectionPlace> sections_;  // by profile
};

// How a graph's bytes are read: `lazy_file` set (the file of `bytes`) leaves the prices there.
struct ReadPlan {
  const std::string& path;
  bool verify_checksums = true;
  std::shared_ptr<const GraphBytes> lazy_file;
};

// Reads the next continent's sections: its nodes and arcs, and its prices of each profile. A
// continent the world no longer has, or has changed (another content id), is skipped: stale.
absl::Status ReadContinent(const World& world, const ReadPlan& plan, std::uint32_t index,
                           SectionReader& sections, AbstractGraph* graph) {
  const std::string& path = plan.path;
  // Named by its place in the file until its id is read (the ids of one-continent worlds agree).
  const std::string at = absl::StrCat("continent ", index, " nodes and arcs");
  absl::StatusOr<std::string_view> topology = sections.Next(at);
  if (!topology.ok()) return topology.status();
  BinaryReader tr(*topology);
  ContinentGraph g;
  if (!tr.Get(&g.continent) || !tr.Get(&g.content_id)) return sections.Bad(at, "its id");
  const Continent* c = world.FindContinent(g.continent);
  const bool current = c != nullptr && c->content_id == g.content_id;
  if (current) {
    if (absl::Status s = ReadTopology(*c, graph->cell_columns, path, tr, &g); !s.ok()) return s;
    if (!tr.AtEnd()) return sections.Bad(at, "trailing bytes");
  }
  const bool lazy = current && plan.lazy_file != nullptr;
  std::vector<SectionPlace> left;  // the sections left in the file, by profile
  for (const std::string& profile : graph->profiles) {
    const std::string name = PricesName(g.continent, profile);
    if (!current || lazy) {
      absl::StatusOr<SectionPlace> place = sections.Skip(name);
      if (!place.ok()) return place.status();
      left.push_back(*place);
      continue;
    }
    absl::StatusOr<std::string_view> payload = sections.Next(name);
    if (!payload.ok()) return payload.status();
    absl::StatusOr<ArcPrices> prices =
        ParsePrices(g.continent, g.arc_count(), profile, name, *payload, path);
    if (!prices.ok()) return prices.status();
    g.prices.push_back(*std::move(prices));
  }
  if (lazy) {
    g.price_reader = std::make_shared<FilePrices>(plan.lazy_file, path, g.continent, g.arc_count(),
                                                  graph->profiles, std::move(left));
  }
  if (current) {
    if (graph->Find(g.continent) != nullptr) return sections.Bad(at, "a continent twice");
    graph->continents.push_back(std::move(g));
  } else if (c != nullptr) {
    graph->unprepared.push_back(absl::StrCat(
        "continent ", g.continent, ": stale (prepared for its content ", FormatId(g.content_id),
        ", it is ", FormatId(c->content_id), "); run walkgrid prepare --continents ", g.continent));
  }
  return absl::OkStatus();
}

// Notes every continent of the world the file has no graph of; orders the graphs as the world.
void NoteUnprepared(const World& world, AbstractGraph* graph) {
  for (const Continent& c : world.continents) {
    if (graph->Find(c.id) != nullptr) continue;
    const std::string id = absl::StrCat("continent ", c.id, ":");
    const bool noted = std::any_of(graph->unprepared.begin(), graph->unprepared.end(),
                                   [&](const std::string& n) { return n.starts_with(id); });
    if (!noted) {
      graph->unprepared.push_back(
          absl::StrCat(id, " not prepared; run walkgrid prepare --continents ", c.id));
    }
  }
  std::sort(
      graph->continents.begin(), graph->continents.end(),
      [](const ContinentGraph& a, const ContinentGraph& b) { return a.continent < b.continent; });
}

// Parses a graph file's `bytes` for `world` as `plan` says.
absl::StatusOr<AbstractGraph> ParseGraphBytes(const World& world, const GraphBytes& bytes,
                                              const ReadPlan& plan) {
  const std::string& path = plan.path;
  char head[kFileHeadBytes], tail[sizeof kMagic];
  if (bytes.size() < kFileHeadBytes + sizeof kMagic || !bytes.Read(0, sizeof head, head) ||
      std::memcmp(head, kMagic, sizeof kMagic) != 0) {
    return Damaged(path, "no header");
  }
  if (absl::Status s = CheckVersion(path, std::string_view(head, sizeof head)); !s.ok()) return s;
  if (!bytes.Read(bytes.size() - sizeof tail, sizeof tail, tail) ||
      std::memcmp(tail, kMagic, sizeof kMagic) != 0) {
    return Damaged(path, "cut off");
  }
  SectionReader sections(bytes, path, plan.verify_checksums);
  AbstractGraph graph;
  absl::StatusOr<std::string_view> header = sections.Next("header");
  if (!header.ok()) return header.status();
  BinaryReader r(*header);
  if (absl::Status s = ReadHeader(world, path, r, &graph); !s.ok()) return s;
  std::uint32_t continent_count = 0;
  if (!r.Get(&continent_count) || continent_count > kMaxContinents || !r.AtEnd())
    return sections.Bad("header", "continents");
  for (std::uint32_t i = 0; i < continent_count; ++i) {
    absl::Status read = ReadContinent(world, plan, i, sections, &graph);
    if (!read.ok()) return read;
  }
  NoteUnprepared(world, &graph);
  if (!sections.AtEnd()) return Damaged(path, "trailing bytes");
  return graph;
}

}  // namespace

absl::StatusOr<AbstractGraph> LoadAbstractGraph(const World& world, const std::string& dir,
                                                const GraphLoadOptions& options) {
  const std::string path = (std::filesystem::path(dir) / kGraphFileName).string();
  absl::StatusOr<std::shared_ptr<const FileBytes>> file = FileBytes::Open(path);
  if (!file.ok()) return file.status();
  return ParseGraphBytes(world, **file,
                         {.path = path,
                          .verify_checksums = true,
                          .lazy_file = options.prices_on_first_use ? *file : nullptr});
}

absl::StatusOr<AbstractGraph> ParseAbstractGraph(const World& world, const std::string& bytes,
                                                 const std::string& path,
                                                 const GraphParseOptions& options) {
  return ParseGraphBytes(
      world, BufferBytes(bytes),
      {.path = path, .verify_checksums = options.verify_checksums, .lazy_file = nullptr});
}

}  // namespace walk::nav
