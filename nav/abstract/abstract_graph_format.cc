#include "nav/abstract/abstract_graph_format.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "absl/strings/str_cat.h"
#include "nav/cost/cost_model.h"
#include "nav/grid/binary_io.h"

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

}  // namespace

absl::Status SaveAbstractGraph(const AbstractGraph& graph, const std::string& dir) {
  const std::filesystem::path path = std::filesystem::path(dir) / kGraphFileName;
  const std::filesystem::path temp = path.string() + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) return absl::InternalError(absl::StrCat("cannot write ", temp.string()));
    BinaryWriter w(out);
    out.write(kMagic, sizeof kMagic);
    w.Put<std::uint32_t>(kGraphFormatVersion);
    w.Put<std::uint32_t>(graph.graph_version);
    w.Put<std::uint64_t>(graph.content_id);
    w.Put<std::uint32_t>(graph.cost_model_version);
    w.Put<std::uint32_t>(graph.cell_columns);
    w.Put<std::uint32_t>(graph.entrance_spacing);
    w.Put<std::uint32_t>(graph.major_entrance_spacing);
    w.Put<std::uint32_t>(static_cast<std::uint32_t>(graph.profiles.size()));
    for (const std::string& p : graph.profiles) w.PutString(p);
    w.Put<std::uint32_t>(static_cast<std::uint32_t>(graph.continents.size()));
    for (const ContinentGraph& g : graph.continents) {
      w.Put<std::uint32_t>(g.continent);
      w.PutVector(g.node_surface);
      w.PutVector(g.first_arc);
      w.PutVector(g.arc_head);
      w.PutVector(g.order);
      for (const ArcPrices& p : g.prices) {
        w.PutArray(p.seconds);
        w.PutArray(p.yards);
        w.PutArray(p.mix_first);
        PutMix(w, p.mix);
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

// Reads the header after the magic: the versions, the content id and cell side it was prepared
// for (which must be `world`'s and this walkd's), and the prepared profiles.
absl::Status ReadHeader(const World& world, const std::string& path, BinaryReader& r,
                        AbstractGraph* graph) {
  std::uint32_t format = 0, profile_count = 0;
  if (!r.Get(&format)) return Damaged(path, "header");
  if (format != kGraphFormatVersion) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": format version ", format,
                                                      ", this walkd reads ", kGraphFormatVersion,
                                                      "; run walkgrid prepare again"));
  }
  if (!r.Get(&graph->graph_version) || !r.Get(&graph->content_id) ||
      !r.Get(&graph->cost_model_version) || !r.Get(&graph->cell_columns) ||
      !r.Get(&graph->entrance_spacing) || !r.Get(&graph->major_entrance_spacing) ||
      !r.Get(&profile_count)) {
    return Damaged(path, "header");
  }
  if (graph->content_id != world.content_id || graph->cost_model_version != kCostModelVersion ||
      graph->graph_version != kAbstractGraphVersion) {
    return absl::FailedPreconditionError(absl::StrCat(
        path, ": prepared for grid ", FormatId(graph->content_id), ", cost model ",
        graph->cost_model_version, ", graph version ", graph->graph_version, "; this is grid ",
        FormatId(world.content_id), ", cost model ", kCostModelVersion, ", graph version ",
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
  if (!r.Get(&g.continent) || g.continent != c.id || !r.GetVector(&g.node_surface) ||
      !r.GetVector(&g.first_arc) || !r.GetVector(&g.arc_head) || !r.GetVector(&g.order)) {
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
                                                 const std::string& path) {
  if (bytes.size() < 2 * sizeof kMagic || bytes.compare(0, 8, kMagic, 8) != 0)
    return Damaged(path, "no header");
  if (bytes.compare(bytes.size() - 8, 8, kMagic, 8) != 0) return Damaged(path, "cut off");
  const std::string body = bytes.substr(8, bytes.size() - 16);
  BinaryReader r(body);
  AbstractGraph graph;
  if (absl::Status s = ReadHeader(world, path, r, &graph); !s.ok()) return s;
  std::uint32_t continent_count = 0;
  if (!r.Get(&continent_count) || continent_count != world.continents.size())
    return Damaged(path, "continents");
  for (std::uint32_t i = 0; i < continent_count; ++i) {
    const Continent& c = world.continents[i];
    ContinentGraph g;
    if (absl::Status s = ReadTopology(c, graph.cell_columns, path, r, &g); !s.ok()) return s;
    g.prices.resize(graph.profiles.size());
    for (std::size_t p = 0; p < graph.profiles.size(); ++p) {
      g.prices[p].profile = graph.profiles[p];
      if (absl::Status s = ReadPrices(c, g.arc_count(), path, r, &g.prices[p]); !s.ok()) return s;
    }
    graph.continents.push_back(std::move(g));
  }
  if (!r.AtEnd()) return Damaged(path, "trailing bytes");
  return graph;
}

}  // namespace walk::nav
