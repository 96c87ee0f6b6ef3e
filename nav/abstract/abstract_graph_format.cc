#include "nav/abstract/abstract_graph_format.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
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
      for (const ArcPrices& p : g.prices) {
        std::ostringstream prices;
        BinaryWriter pw(prices);
        pw.PutArray(p.seconds);
        pw.PutArray(p.yards);
        pw.PutArray(p.mix_first);
        PutMix(pw, p.mix);
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

// Reads the file's sections in order, each checked against its CRC-32C (unless told not to).
class SectionReader {
 public:
  SectionReader(std::string_view bytes, const std::string& path, bool verify)
      : bytes_(bytes), path_(path), verify_(verify) {}

  // The next section's payload; DATA_LOSS naming `name` (and where it starts) when it runs past
  // the end or fails its checksum.
  absl::StatusOr<std::string_view> Next(const std::string& name) {
    const std::size_t start = kFileHeadBytes + pos_;
    std::uint64_t size = 0;
    std::uint32_t stored = 0;
    if (bytes_.size() - pos_ < kSectionFrameBytes) return Bad(name, start, "cut off");
    std::memcpy(&size, bytes_.data() + pos_, sizeof size);
    std::memcpy(&stored, bytes_.data() + pos_ + sizeof size, sizeof stored);
    if (size > bytes_.size() - pos_ - kSectionFrameBytes) {
      return Bad(name, start, absl::StrCat(size, " bytes, past the end of the file"));
    }
    const std::string_view payload = bytes_.substr(pos_ + kSectionFrameBytes, size);
    if (verify_) {
      const std::uint32_t crc = Crc32c(payload.data(), payload.size(), Crc32c(&size, sizeof size));
      if (crc != stored) {
        return Bad(name, start,
                   absl::StrCat("CRC-32C ", absl::Hex(crc, absl::kZeroPad8), ", the file says ",
                                absl::Hex(stored, absl::kZeroPad8)));
      }
    }
    pos_ += kSectionFrameBytes + size;
    return payload;
  }

  // DATA_LOSS naming section `name` and what is wrong in it (a payload that checks out but does
  // not parse: a writer's bug, or checks skipped).
  absl::Status Bad(const std::string& name, const std::string& what) const {
    return Damaged(path_, absl::StrCat("section '", name, "': ", what));
  }

  bool AtEnd() const { return pos_ == bytes_.size(); }

 private:
  absl::Status Bad(const std::string& name, std::size_t start, const std::string& what) const {
    return Damaged(path_, absl::StrCat("section '", name, "' at byte ", start, ": ", what));
  }

  std::string_view bytes_;  // the sections, between the file's head and its end magic
  const std::string& path_;
  bool verify_;
  std::size_t pos_ = 0;
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
absl::Status ReadPrices(const Continent& c, std::size_t arc_count, const std::string& path,
                        BinaryReader& r, ArcPrices* out) {
  ArcPrices& prices = *out;
  const std::size_t m = arc_count;
  if (!r.GetArray(m, &prices.seconds) || !r.GetArray(m, &prices.yards) ||
      !r.GetArray(m + 1, &prices.mix_first) || !GetMix(r, &prices.mix) ||
      prices.mix_first.front() != 0 || prices.mix_first.back() != prices.mix.size()) {
    return Damaged(path, absl::StrCat("continent ", c.id, " prices"));
  }
  for (std::size_t a = 0; a < m; ++a) {
    if (prices.mix_first[a] > prices.mix_first[a + 1]) return Damaged(path, "mix");
  }
  for (std::size_t a = 0; a < m; ++a) {  // offsets are sound: the values
    for (const ZoneShare& share : prices.MixOf(static_cast<std::uint32_t>(a))) {
      if (share.zone == 0 || !(share.seconds >= 0.0f) || !std::isfinite(share.seconds) ||
          !(share.yards >= 0.0f) || !std::isfinite(share.yards)) {
        return Damaged(path, absl::StrCat("continent ", c.id, " zone mix"));
      }
    }
    if (!(prices.seconds[a] >= 0.0f) || !(prices.yards[a] >= 0.0f) ||
        !std::isfinite(prices.yards[a])) {
      return Damaged(path, absl::StrCat("continent ", c.id, " arc prices"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

namespace {

// Reads the next continent's sections: its nodes and arcs, and its prices of each profile. A
// continent the world no longer has, or has changed (another content id), is skipped: stale.
absl::Status ReadContinent(const World& world, const std::string& path, std::uint32_t index,
                           SectionReader& sections, AbstractGraph* graph) {
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
    g.prices.resize(graph->profiles.size());
  }
  for (std::size_t p = 0; p < graph->profiles.size(); ++p) {
    const std::string prices_name =
        absl::StrCat("continent ", g.continent, " prices of ", graph->profiles[p]);
    absl::StatusOr<std::string_view> prices = sections.Next(prices_name);
    if (!prices.ok()) return prices.status();
    if (!current) continue;
    g.prices[p].profile = graph->profiles[p];
    BinaryReader pr(*prices);
    if (absl::Status s = ReadPrices(*c, g.arc_count(), path, pr, &g.prices[p]); !s.ok()) return s;
    if (!pr.AtEnd()) return sections.Bad(prices_name, "trailing bytes");
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

}  // namespace

absl::StatusOr<AbstractGraph> LoadAbstractGraph(const World& world, const std::string& dir) {
  const std::string path = (std::filesystem::path(dir) / kGraphFileName).string();
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(absl::StrCat(path, ": no abstract graph (run walkgrid prepare)"));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return Damaged(path, "read failed");
  return ParseAbstractGraph(world, bytes, path);
}

absl::StatusOr<AbstractGraph> ParseAbstractGraph(const World& world, const std::string& bytes,
                                                 const std::string& path,
                                                 const GraphParseOptions& options) {
  if (bytes.size() < kFileHeadBytes + sizeof kMagic || bytes.compare(0, 8, kMagic, 8) != 0)
    return Damaged(path, "no header");
  if (absl::Status s = CheckVersion(path, bytes); !s.ok()) return s;
  if (bytes.compare(bytes.size() - 8, 8, kMagic, 8) != 0) return Damaged(path, "cut off");
  SectionReader sections(
      std::string_view(bytes).substr(kFileHeadBytes, bytes.size() - kFileHeadBytes - 8), path,
      options.verify_checksums);
  AbstractGraph graph;
  absl::StatusOr<std::string_view> header = sections.Next("header");
  if (!header.ok()) return header.status();
  BinaryReader r(*header);
  if (absl::Status s = ReadHeader(world, path, r, &graph); !s.ok()) return s;
  std::uint32_t continent_count = 0;
  if (!r.Get(&continent_count) || continent_count > kMaxContinents || !r.AtEnd())
    return sections.Bad("header", "continents");
  for (std::uint32_t i = 0; i < continent_count; ++i) {
    absl::Status read = ReadContinent(world, path, i, sections, &graph);
    if (!read.ok()) return read;
  }
  NoteUnprepared(world, &graph);
  if (!sections.AtEnd()) return Damaged(path, "trailing bytes");
  return graph;
}

}  // namespace walk::nav
