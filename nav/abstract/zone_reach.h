// A place's reach across its own zone in a danger band: what lets a table answer walks with an
// end in a zone the band prices many to many, over the band's metric, where each such walk
// would otherwise be an A* of its own (nav/abstract/abstract_table.h).
//
// A walk from s (zone A) to t (zone B) exempts A and B from the band's danger. Cut its way at
// the head x of its last arc through A and at the tail y of its first arc through B after x:
// from x to y no arc goes through A or B, so that middle costs exactly its price on the band's
// metric, where every zone is priced; from y on no arc goes through A, so the end costs its
// price with B alone exempt. Its seconds are therefore
//   min over x, y of  d_AB(s, x) + band(x, y) + d_B(y, t),
// each term the price of a real way, so never below the walk; and the cut of the cheapest way
// gives its seconds exactly. x leaves A by an arc avoiding it (an exit of A: ZoneBorder) unless
// the way ends there or never went through A (x a leg's entrance), and y is entered by an arc
// avoiding B (an entry of B) unless the way starts there. A forward reach from s (A exempt) to
// every exit of A and a backward reach from t (B exempt) to every entry of B, each with its
// leg's entrances, give those terms as CCH endpoints of the band's metric; one many-to-many
// over them answers every pair whose leg entrances are not inside the other's zone (a goal
// entrance that only arcs through A leave, or a start entrance only arcs through B enter).
//
// d_AB(s, x) is found with A alone exempt: equal unless the way goes through B before its last
// arc through A. The other cut (y the tail of the way's first arc through B, x the head of its
// last through A before it) fails only for the same ways, so the meeting is exact unless the
// cheapest way goes through B and later through A. A reach notes every zone whose arcs leave
// (forward) or enter (backward) a node it settled, with the seconds of the first such node
// (its stop, where it never did). Such a way costs at least the seconds at which s's reach
// first touched B (up to the tail of its first arc through B) plus those at which t's reach
// first touched A (from the head of its last arc through A), so a pair's seconds up to that
// sum are exact. A way ending at a goal entrance inside A (no exit) is the reach's seconds to
// that entrance where it settled it, kept beside its endpoints. Every such condition is checked
// per pair (MeetSides); a table walks a pair that fails it alone.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "nav/abstract/abstract_graph.h"
#include "nav/cch/cch_request.h"
#include "nav/cost/metric.h"
#include "nav/search/indexed_heap.h"

namespace walk::nav {

// Every arc of a graph by head: what a backward reach follows.
struct ReverseArcs {
  std::vector<std::uint32_t> first_in;  // node_count + 1
  std::vector<std::uint32_t> in_arc;    // arc indices, by head
  std::vector<std::uint32_t> in_tail;   // their tails
  static ReverseArcs Of(const ContinentGraph& graph);
  std::uint64_t MemoryBytes() const {
    return 4 * (first_in.size() + in_arc.size() + in_tail.size());
  }
};

// The nodes of a graph's giant strongly connected part under one profile's prices (every arc it
// can take), the nodes it reaches, and those that reach it. A reach from a place whose leg's
// entrances all stand in the part meets exactly the nodes the part reaches (backward: those
// reaching it), so it need not wait for a border node outside them: without this, a zone with a
// head no way reaches made its reaches settle the whole region.
struct GiantPart {
  std::vector<bool> in_part, forward, backward;  // by node
  // Seeds the part at a node of continent `c`'s largest region (a few tried, until the part
  // holds half of the region's nodes).
  static GiantPart Of(const Continent& c, const ContinentGraph& graph, const ArcPrices& prices,
                      const ReverseArcs& reverse);
  std::uint64_t MemoryBytes() const { return 3 * (in_part.size() / 8 + 1); }
};

// The zones in the mixes of the arcs each node leaves and enters (arcs one profile's prices can
// take), each once: what a reach notes as touched a node at a time, and whether a node's arcs
// cost their band-0 seconds (no zone the band prices but the exempt ones) without reading the
// arcs' mixes: read arc by arc, their loads were a third of a reach's relaxing.
struct NodeZones {
  std::vector<std::uint32_t> first_out, first_in;  // node_count + 1
  std::vector<std::uint16_t> out, in;              // by node, ascending
  static NodeZones Of(const ContinentGraph& graph, const ArcPrices& prices,
                      const ReverseArcs& reverse);
  std::span<const std::uint16_t> Leaving(std::uint32_t v) const {
    return {out.data() + first_out[v], out.data() + first_out[v + 1]};
  }
  std::span<const std::uint16_t> Entering(std::uint32_t v) const {
    return {in.data() + first_in[v], in.data() + first_in[v + 1]};
  }
  std::uint64_t MemoryBytes() const {
    return 4 * (first_out.size() + first_in.size()) + 2 * (out.size() + in.size());
  }
};

// What reaches read besides the graph, for one profile: made once per continent and profile.
struct ReachMaps {
  GiantPart giant;
  NodeZones zones;
  std::uint64_t MemoryBytes() const { return giant.MemoryBytes() + zones.MemoryBytes(); }
};

// A zone a reach touched (the mix of an arc leaving, or entering, a node it settled has it): the
// seconds of the first such node, and the least seconds to the head of such an arc (forward;
// backward, from its tail), the arc priced with the zone exempt too. A way through the zone
// costs at least the first up to the arc, and at least the second up to the arc's other end.
struct ZoneTouch {
  std::uint16_t zone = 0;
  double seconds = 0.0;
  double through = kInfCost;
};

// What a reach found: its endpoints for the band's CCH metric, and what decides whether they
// answer a pair exactly.
struct ZoneReach {
  bool searched = false;  // false: the zone's border was not known, and the reach knows nothing
  // The settled nodes among the zone's exits (forward) or entries (backward), the nodes of the
  // leg it started from, at their seconds from the place (to it, backward), and the border nodes
  // it stopped before (`far`) at where it stopped, which no way to them undercuts; by node, one
  // each.
  std::vector<CchEndpoint> endpoints;
  std::vector<float> yards;  // by endpoint: the yards of its way, the leg's included (far: 0)
  // The border nodes it did not settle, ascending: a meeting through one of them is a bound,
  // not a way.
  std::vector<std::uint32_t> far;
  // The inner border nodes it settled (Request::inner), at their seconds, by node, and the
  // yards of their ways; every node it did not relax costs at least `relaxed_to`.
  std::vector<CchEndpoint> inner;
  std::vector<float> inner_yards;
  double relaxed_to = kInfCost;
  // The zones of the arcs leaving (forward) or entering (backward) a node it settled, by zone.
  std::vector<ZoneTouch> touched;

  std::uint64_t MemoryBytes() const {
    return sizeof(ZoneReach) +
           (endpoints.size() + inner.size()) * (sizeof(CchEndpoint) + sizeof(float)) +
           far.size() * 4 + touched.size() * sizeof(ZoneTouch);
  }
};

// What decides whether a pair's sides meet at the walk's seconds: each place's zone, whether its
// side came from a reach (its zone priced) and that reach (whether it knew its zone's border, its
// far border nodes, touched zones and settled inner border nodes), the zones in its leg's mix
// (which a walk prices with both ends' zones exempt, a reach with its own), its leg's entrances,
// and where reached the nodes of its zone's border that are no endpoint of a reach
// (ZoneBorder::inner_heads forward, inner_tails backward).
struct PlaceSide {
  std::uint16_t zone = 0;
  bool reached = false;
  std::shared_ptr<const ZoneReach> reach;  // where reached
  std::vector<std::uint16_t> leg_zones;    // sorted
  // The leg's entrances at the seconds its side starts from them (a reach's: their least), by
  // node, one each, and their yards.
  std::vector<CchEndpoint> entrances;
  std::vector<float> entrance_yards;
  std::span<const std::uint32_t> inner;  // sorted
};

// A pair's walk as its sides answer it: whether they know it, its seconds, and whether it is a
// way ending (starting) at a leg entrance inside the other's zone (`inner`), with that way's
// yards, rather than the many-to-many's meeting.
struct SidesAnswer {
  bool known = false;
  double seconds = kInfCost;
  bool inner = false;
  double yards = 0.0;  // of an inner way
};

// The walk from `from` (forward) to `to` (backward) when the many-to-many met their sides at
// `seconds` through endpoints `from_node` and `to_node` (kInvalidId where none met). Known when
// both places are unpriced; or both reaches searched, neither endpoint far, and no way the sides
// do not hold costs less than the answer: through a leg entrance of either inside the other's
// zone (the reach's seconds to it where it settled it, which the answer takes when cheaper;
// else where it stopped relaxing), and, the zones differing, neither leg's mix holding the
// other's priced zone and no way through to's zone and later from's costing less (at least the
// greater of the two sums of where each reach touched the other's zone, one of them `through`).
SidesAnswer MeetSides(const PlaceSide& from, const PlaceSide& to, double seconds,
                      std::uint32_t from_node, std::uint32_t to_node);

// A place's leg entrance, as a reach starts from it.
struct ReachStart {
  std::uint32_t node = 0;
  double seconds = 0.0;  // priced by the band, the zone exempt
  float yards = 0.0f;
};

// One per thread; its buffers are sized to the graph at its first Run.
class ZoneReachSearch {
 public:
  struct Request {
    const ContinentGraph& graph;
    const ArcPrices& prices;
    const Metric& band;      // a band pricing danger, the profile of `prices`
    const NodeZones& zones;  // of `graph` and `prices`
    std::uint16_t zone;      // the place's zone: exempt
    // Null: forward, from a start leg to `border` (the zone's exits); else backward along
    // these arcs, from a goal leg to `border` (its entries).
    const ReverseArcs* reverse = nullptr;
    std::span<const std::uint32_t> border;  // ascending
    // The zone's inner heads (forward) or inner tails (backward): those it settles are kept.
    std::span<const std::uint32_t> inner;  // ascending
    const std::vector<ReachStart>& starts;
    // The reach stops where it is, its border nodes not settled left far, once it has settled
    // `max_settled` nodes, or `far_after` with at most `far_left` border nodes to go (the last
    // border nodes of a zone can lie the long way round, past most of the graph).
    std::uint64_t max_settled = UINT64_MAX;
    std::uint64_t far_after = UINT64_MAX;
    std::size_t far_left = 0;
  };
  void Run(const Request& request, ZoneReach* out);

 private:
  // Makes the buffers ready for a graph of n nodes and empties *out; returns the stamp of a node
  // reached in this run (settled: the stamp | 1).
  std::uint32_t Begin(std::uint32_t n, ZoneReach* out);
  // Fills out->endpoints and out->yards once the search is done: the settled border nodes and
  // the starts (settled or not, at their least seconds so far); then, where it stopped short
  // (`stop` finite), the border nodes it did not settle, at `stop`, into out->far too.
  void Endpoints(const Request& request, double stop, ZoneReach* out);
  // A node's state in one place (a relaxed arc's head costs one cache miss, not four): 16
  // bytes, four to a cache line.
  struct NodeState {
    double g;
    float yards;
    std::uint32_t stamp;  // generation_ << 1, and 1 once settled
  };
  std::uint32_t generation_ = 0;  // below 2^31
  std::vector<NodeState> state_;
  IndexedMinHeap heap_;
  // By node, while a reach runs: whether it is among the request's border or inner nodes.
  static constexpr std::uint8_t kBorder = 1, kInner = 2;
  std::vector<std::uint8_t> kind_;
  std::vector<std::uint32_t> touch_of_;  // by zone: 1 + its index in ZoneReach::touched, or 0
  std::vector<std::uint32_t> settled_border_;
};

}  // namespace walk::nav
