#include "client/walkctl_live.h"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "google/protobuf/util/json_util.h"
#include "walk/v1/walk.grpc.pb.h"

namespace walk::client {
namespace {

using walk::v1::BlockerChange;

constexpr int kExitUsage = 2;
constexpr int kExitUnreachable = 3;
constexpr int kExitRefused = 4;

std::string CellText(const walk::v1::Cell& c) { return absl::StrCat(c.x(), ",", c.y()); }

std::string Cells(const google::protobuf::RepeatedPtrField<walk::v1::Cell>& cells) {
  std::string out;
  for (const walk::v1::Cell& c : cells) absl::StrAppend(&out, out.empty() ? "" : " ", CellText(c));
  return out;
}

// The words of a change after its name, checked: `numbers` numbers (ids first), then `tail`.
absl::Status Words(const std::vector<std::string>& words, std::size_t count,
                   const std::string& text) {
  if (words.size() == count + 1) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("change '", text, "': ", words[0], " takes ",
                                                 count, " values, not ", words.size() - 1));
}

absl::StatusOr<double> Number(const std::vector<std::string>& words, std::size_t k,
                              const std::string& text) {
  double v = 0.0;
  if (!absl::SimpleAtod(words[k], &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("change '", text, "': '", words[k], "' is not a number"));
  }
  return v;
}

absl::StatusOr<std::uint32_t> Id(const std::vector<std::string>& words, std::size_t k,
                                 const std::string& text) {
  std::uint32_t v = 0;
  if (!absl::SimpleAtoi(words[k], &v)) {
    return absl::InvalidArgumentError(
        absl::StrCat("change '", text, "': '", words[k], "' is not an id (unsigned 32-bit)"));
  }
  return v;
}

// Fills x0 y0 x1 y1 from words[first..first + 3].
absl::Status Rect(const std::vector<std::string>& words, std::size_t first, const std::string& text,
                  BlockerChange* c) {
  double v[4];
  for (std::size_t k = 0; k < 4; ++k) {
    absl::StatusOr<double> n = Number(words, first + k, text);
    if (!n.ok()) return n.status();
    v[k] = *n;
  }
  c->set_x0(v[0]);
  c->set_y0(v[1]);
  c->set_x1(v[2]);
  c->set_y1(v[3]);
  return absl::OkStatus();
}

// Which words each change takes: its kind, ids, whether a rectangle or a point follows, and
// whether a last word says open or shut.
struct ChangeForm {
  BlockerChange::Kind kind;
  std::size_t ids;  // 1: id; 2: id, owner
  bool rect = false;
  bool point = false;
  bool open_word = false;
};

const std::map<std::string, ChangeForm>& Forms() {
  static const auto* forms = new std::map<std::string, ChangeForm>{
      {"add-building", {BlockerChange::KIND_ADD_BUILDING, 1, true}},
      {"remove-building", {BlockerChange::KIND_REMOVE_BUILDING, 1}},
      {"move-building", {BlockerChange::KIND_MOVE_BUILDING, 1, true}},
      {"add-gate", {BlockerChange::KIND_ADD_GATE, 2, true, false, true}},
      {"remove-gate", {BlockerChange::KIND_REMOVE_GATE, 1}},
      {"open-gate", {BlockerChange::KIND_OPEN_GATE, 1}},
      {"shut-gate", {BlockerChange::KIND_SHUT_GATE, 1}},
      {"harvest", {BlockerChange::KIND_HARVEST, 0, false, true}},
      {"place-tree", {BlockerChange::KIND_PLACE_TREE, 0, false, true}},
      {"place-boulder", {BlockerChange::KIND_PLACE_BOULDER, 0, false, true}},
      {"place-ore", {BlockerChange::KIND_PLACE_ORE, 0, false, true}},
  };
  return *forms;
}

int Report(const grpc::Status& status) {
  std::cerr << "walkctl: "
            << absl::StatusCodeToString(static_cast<absl::StatusCode>(status.error_code())) << ": "
            << status.error_message() << "\n";
  return status.error_code() == grpc::StatusCode::UNAVAILABLE ||
                 status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED
             ? kExitUnreachable
             : kExitRefused;
}

void PrintJson(const google::protobuf::Message& message) {
  std::string json;
  google::protobuf::util::JsonPrintOptions options;
  options.always_print_primitive_fields = true;
  options.preserve_proto_field_names = true;
  (void)google::protobuf::util::MessageToJsonString(message, &json, options);
  std::cout << json << "\n";
}

walk::v1::Passability Pass(bool heavy) {
  return heavy ? walk::v1::PASSABILITY_HEAVY : walk::v1::PASSABILITY_LIGHT;
}

// "f,r;f,r;..." into formation slots.
absl::StatusOr<walk::v1::Formation> ParseFormation(const std::string& slots, double facing) {
  walk::v1::Formation formation;
  formation.set_facing_degrees(facing);
  for (absl::string_view slot : absl::StrSplit(slots, ';', absl::SkipEmpty())) {
    std::vector<std::string> parts = absl::StrSplit(slot, ',');
    double forward = 0.0, right = 0.0;
    if (parts.size() != 2 || !absl::SimpleAtod(parts[0], &forward) ||
        !absl::SimpleAtod(parts[1], &right)) {
      return absl::InvalidArgumentError(
          absl::StrCat("--slots: '", slot, "' is not FORWARD,RIGHT (cells)"));
    }
    walk::v1::FormationSlot* s = formation.add_slots();
    s->set_forward(forward);
    s->set_right(right);
  }
  return formation;
}

// What one live subcommand sends and prints.
class LiveCall {
 public:
  LiveCall(const Connection& connection, double timeout_s)
      : connection_(connection),
        timeout_s_(timeout_s),
        stub_(walk::v1::LiveService::NewStub(connection.OpenChannel(64 << 20))) {}

  // Calls `method` with a deadline and the token; prints the reply (as JSON with `json`, else
  // with `print`); walkctl's exit code.
  template <typename Request, typename Response>
  int Ask(grpc::Status (walk::v1::LiveService::Stub::*method)(grpc::ClientContext*, const Request&,
                                                              Response*),
          const Request& request, bool json, const std::function<void(const Response&)>& print) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() +
                         std::chrono::microseconds(static_cast<long long>(timeout_s_ * 1e6)));
    connection_.Authorize(context);
    Response response;
    const grpc::Status status = (stub_.get()->*method)(&context, request, &response);
    if (!status.ok()) return Report(status);
    if (json) {
      PrintJson(response);
    } else {
      print(response);
    }
    return 0;
  }

 private:
  const Connection& connection_;
  double timeout_s_;
  std::unique_ptr<walk::v1::LiveService::Stub> stub_;
};

int Usage(const absl::Status& status) {
  std::cerr << "walkctl: " << status.message() << "\n";
  return kExitUsage;
}

bool World(const LiveArgs& args) { return args.units == "world"; }

walk::v1::LiveUnits Units(const LiveArgs& args) {
  return World(args) ? walk::v1::LIVE_UNITS_WORLD : walk::v1::LIVE_UNITS_CELLS;
}

std::string PointText(const walk::v1::LivePoint& p) {
  return absl::StrCat("(", p.x(), ", ", p.y(), ")");
}

std::string Points(const google::protobuf::RepeatedPtrField<walk::v1::LivePoint>& points) {
  std::string out;
  for (const walk::v1::LivePoint& p : points) {
    absl::StrAppend(&out, out.empty() ? "" : " ", PointText(p));
  }
  return out;
}

// Reads a whole file, or standard input for "-".
absl::StatusOr<std::string> ReadText(const std::string& path, const std::string& field) {
  std::ostringstream text;
  if (path == "-") {
    text << std::cin.rdbuf();
    return text.str();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat(field, ": ", path, " cannot be opened"));
  text << in.rdbuf();
  return text.str();
}

// Parses `text` ("X,Y") into `request`'s cell field `cell_field`, or with --units world into its
// world-unit twin `point_field`; the other stays unset.
absl::Status SetPlace(const LiveArgs& args, const std::string& text, const std::string& flag,
                      google::protobuf::Message* request, const std::string& cell_field,
                      const std::string& point_field) {
  walk::v1::Cell cell;
  walk::v1::LivePoint point;
  if (absl::Status s = ParsePlace(text, flag, World(args), &cell, &point); !s.ok()) return s;
  const google::protobuf::FieldDescriptor* field =
      request->GetDescriptor()->FindFieldByName(World(args) ? point_field : cell_field);
  google::protobuf::Message* out = request->GetReflection()->MutableMessage(request, field);
  if (World(args)) {
    out->CopyFrom(point);
  } else {
    out->CopyFrom(cell);
  }
  return absl::OkStatus();
}

int RunPath(LiveCall& call, const LiveArgs& args) {
  walk::v1::LivePathRequest request;
  request.set_world(args.world);
  if (absl::Status s = SetPlace(args, args.from, "--from", &request, "start", "start_point");
      !s.ok()) {
    return Usage(s);
  }
  if (absl::Status s = SetPlace(args, args.to, "--to", &request, "goal", "goal_point"); !s.ok()) {
    return Usage(s);
  }
  request.set_passability(Pass(args.heavy));
  request.set_keep_goal(args.keep_goal);
  request.set_unit(args.unit);
  request.set_units(Units(args));
  request.set_radius(args.radius);
  request.set_formation_half_width(args.half_width);
  request.set_recover_start(args.recover);
  return call.Ask<walk::v1::LivePathRequest, walk::v1::LivePathResponse>(
      &walk::v1::LiveService::Stub::LivePath, request, args.json, [](const auto& r) {
        std::printf("%s to %s %s, cost %u, %s, revision %llu\n",
                    walk::v1::LivePathStatus_Name(r.status()).c_str(), CellText(r.goal()).c_str(),
                    PointText(r.goal_point()).c_str(), r.cost(),
                    walk::v1::LivePathMethod_Name(r.method()).c_str(),
                    static_cast<unsigned long long>(r.revision()));
        if (r.waypoints_size() > 0) {
          std::printf("  waypoints %s\n", Cells(r.waypoints()).c_str());
          std::printf("  points %s\n", Points(r.waypoint_points()).c_str());
        }
        if (r.cells_size() > 0) std::printf("  cells %s\n", Cells(r.cells()).c_str());
      });
}

int RunUpdate(LiveCall& call, const LiveArgs& args) {
  walk::v1::UpdateBlockersRequest request;
  request.set_world(args.world);
  request.set_units(Units(args));
  for (const std::string& text : args.changes) {
    auto change = ParseBlockerChange(text);
    if (!change.ok()) return Usage(change.status());
    *request.add_changes() = *change;
  }
  return call.Ask<walk::v1::UpdateBlockersRequest, walk::v1::UpdateBlockersResponse>(
      &walk::v1::LiveService::Stub::UpdateBlockers, request, args.json, [](const auto& r) {
        std::printf("revision %llu: %llu cells in %u rectangles recomposed%s\n",
                    static_cast<unsigned long long>(r.revision()),
                    static_cast<unsigned long long>(r.dirty_cells()), r.dirty_rects(),
                    r.full_rebuild() ? " (a full rebuild)" : "");
      });
}

int RunNearest(LiveCall& call, const LiveArgs& args) {
  walk::v1::NearestRequest request;
  request.set_world(args.world);
  if (absl::Status s = SetPlace(args, args.cell, "--cell", &request, "cell", "point"); !s.ok()) {
    return Usage(s);
  }
  request.set_passability(Pass(args.heavy));
  request.set_units(Units(args));
  request.set_radius(args.radius);
  return call.Ask<walk::v1::NearestRequest, walk::v1::NearestResponse>(
      &walk::v1::LiveService::Stub::Nearest, request, args.json, [](const auto& r) {
        std::printf("%s %s\n", CellText(r.cell()).c_str(), PointText(r.point()).c_str());
      });
}

int RunReachable(LiveCall& call, const LiveArgs& args) {
  walk::v1::ReachableRequest request;
  request.set_world(args.world);
  if (absl::Status s = SetPlace(args, args.a, "--a", &request, "a", "a_point"); !s.ok()) {
    return Usage(s);
  }
  if (absl::Status s = SetPlace(args, args.b, "--b", &request, "b", "b_point"); !s.ok()) {
    return Usage(s);
  }
  request.set_passability(Pass(args.heavy));
  request.set_units(Units(args));
  request.set_radius(args.radius);
  return call.Ask<walk::v1::ReachableRequest, walk::v1::ReachableResponse>(
      &walk::v1::LiveService::Stub::Reachable, request, args.json, [](const auto& r) {
        std::printf("%s (revision %llu)\n", r.reachable() ? "reachable" : "not reachable",
                    static_cast<unsigned long long>(r.revision()));
      });
}

int RunGroup(LiveCall& call, const LiveArgs& args) {
  walk::v1::PathGroupRequest request;
  request.set_world(args.world);
  std::vector<std::string> starts;
  for (absl::string_view start : absl::StrSplit(args.starts, ';', absl::SkipEmpty())) {
    starts.emplace_back(start);
    walk::v1::Cell cell;
    walk::v1::LivePoint point;
    if (absl::Status s = ParsePlace(starts.back(), "--starts", World(args), &cell, &point);
        !s.ok()) {
      return Usage(s);
    }
    World(args) ? (void)(*request.add_start_points() = point)
                : (void)(*request.add_starts() = cell);
    if (args.heavy) request.add_passabilities(walk::v1::PASSABILITY_HEAVY);
  }
  if (absl::Status s = SetPlace(args, args.goal, "--goal", &request, "goal", "goal_point");
      !s.ok()) {
    return Usage(s);
  }
  request.set_units(Units(args));
  request.set_radius(args.radius);
  request.set_formation_half_width(args.half_width);
  if (!args.slots.empty()) {
    auto formation = ParseFormation(args.slots, args.facing_degrees);
    if (!formation.ok()) return Usage(formation.status());
    *request.mutable_formation() = *formation;
  }
  return call.Ask<walk::v1::PathGroupRequest, walk::v1::PathGroupResponse>(
      &walk::v1::LiveService::Stub::PathGroup, request, args.json, [&](const auto& r) {
        std::printf("goal %s %s: %u shared, %u individual, %u deferred (revision %llu)\n",
                    CellText(r.goal()).c_str(), PointText(r.goal_point()).c_str(), r.shared(),
                    r.individual(), r.deferred(), static_cast<unsigned long long>(r.revision()));
        for (int k = 0; k < r.members_size(); ++k) {
          const walk::v1::MemberPath& m = r.members(k);
          std::printf("  %s -> %s: %s, cost %u, waypoints %s\n    points %s\n", starts[k].c_str(),
                      CellText(m.target()).c_str(), m.route().c_str(), m.cost(),
                      Cells(m.waypoints()).c_str(), Points(m.waypoint_points()).c_str());
        }
      });
}

int RunFormation(LiveCall& call, const LiveArgs& args) {
  walk::v1::FormationTargetsRequest request;
  request.set_world(args.world);
  if (absl::Status s = SetPlace(args, args.center, "--center", &request, "center", "center_point");
      !s.ok()) {
    return Usage(s);
  }
  if (!args.formation_from.empty()) {
    if (absl::Status s =
            SetPlace(args, args.formation_from, "--from", &request, "from", "from_point");
        !s.ok()) {
      return Usage(s);
    }
  }
  auto formation = ParseFormation(args.slots, args.facing_degrees);
  if (!formation.ok()) return Usage(formation.status());
  *request.mutable_formation() = *formation;
  request.set_passability(Pass(args.heavy));
  request.set_units(Units(args));
  request.set_radius(args.radius);
  return call.Ask<walk::v1::FormationTargetsRequest, walk::v1::FormationTargetsResponse>(
      &walk::v1::LiveService::Stub::FormationTargets, request, args.json, [](const auto& r) {
        std::printf("centre %s %s: %u slots used, %u collapsed (revision %llu)\n",
                    CellText(r.center()).c_str(), PointText(r.center_point()).c_str(), r.used(),
                    r.collapsed(), static_cast<unsigned long long>(r.revision()));
        for (const walk::v1::SlotTarget& s : r.slots()) {
          std::printf("  %s %s %s\n", CellText(s.cell()).c_str(), PointText(s.point()).c_str(),
                      s.outcome().c_str());
        }
      });
}

int RunCellAt(LiveCall& call, const LiveArgs& args) {
  walk::v1::CellAtRequest request;
  request.set_world(args.world);
  if (absl::Status s = SetPlace(args, args.cell, "--cell", &request, "cell", "point"); !s.ok()) {
    return Usage(s);
  }
  return call.Ask<walk::v1::CellAtRequest, walk::v1::CellAtResponse>(
      &walk::v1::LiveService::Stub::CellAt, request, args.json, [](const auto& r) {
        std::string what = absl::StrCat(r.value(), " on ", r.terrain());
        if (r.forest()) absl::StrAppend(&what, ", forest floor");
        if (r.road()) absl::StrAppend(&what, ", road");
        if (!r.crossing().empty()) absl::StrAppend(&what, ", ", r.crossing());
        if (!r.resource().empty()) absl::StrAppend(&what, ", ", r.resource());
        if (!r.blocker().empty()) absl::StrAppend(&what, ", ", r.blocker(), " ", r.blocker_id());
        if (r.gate() != 0) {
          absl::StrAppend(&what, ", gate ", r.gate(), " of ", r.owner(), " ", r.gate_state());
        }
        std::printf("%s %s: %s; light %s, heavy %s (revision %llu)\n", CellText(r.cell()).c_str(),
                    PointText(r.center()).c_str(), what.c_str(), r.light_open() ? "open" : "closed",
                    r.heavy_open() ? "open" : "closed",
                    static_cast<unsigned long long>(r.revision()));
      });
}

int RunWorkCell(LiveCall& call, const LiveArgs& args) {
  walk::v1::WorkCellRequest request;
  request.set_world(args.world);
  if (absl::Status s = SetPlace(args, args.target, "--target", &request, "target", "target_point");
      !s.ok()) {
    return Usage(s);
  }
  if (absl::Status s = SetPlace(args, args.from, "--from", &request, "unit", "unit_point");
      !s.ok()) {
    return Usage(s);
  }
  request.set_passability(Pass(args.heavy));
  request.set_units(Units(args));
  request.set_radius(args.radius);
  return call.Ask<walk::v1::WorkCellRequest, walk::v1::WorkCellResponse>(
      &walk::v1::LiveService::Stub::WorkCell, request, args.json, [](const auto& r) {
        std::printf("work %s from %s %s (revision %llu)\n", r.target().c_str(),
                    CellText(r.cell()).c_str(), PointText(r.point()).c_str(),
                    static_cast<unsigned long long>(r.revision()));
      });
}

void PrintWorld(const walk::v1::LiveWorldInfo& w) {
  std::printf(
      "%s (%s): %d x %d cells, cell size %g, origin %s, revision %llu, %llu footprints, "
      "%.1f MB, %.0f s old, %llu resets\n",
      w.name().c_str(), w.source().c_str(), w.width(), w.height(), w.cell_size(),
      PointText(w.origin()).c_str(), static_cast<unsigned long long>(w.revision()),
      static_cast<unsigned long long>(w.footprints()), w.memory_bytes() / 1e6, w.age_seconds(),
      static_cast<unsigned long long>(w.resets()));
}

int RunCreate(LiveCall& call, const LiveArgs& args) {
  walk::v1::CreateWorldRequest request;
  request.set_name(args.world);
  auto map = ReadText(args.map_file, "--map");
  if (!map.ok()) return Usage(map.status());
  request.set_map_text(*std::move(map));
  if (!args.layers_file.empty()) {
    auto layers = ReadText(args.layers_file, "--layers");
    if (!layers.ok()) return Usage(layers.status());
    request.set_layers(*std::move(layers));
  }
  request.set_cell_size(args.cell_size);
  if (!args.origin.empty()) {
    walk::v1::Cell unused;
    if (absl::Status s =
            ParsePlace(args.origin, "--origin", true, &unused, request.mutable_origin());
        !s.ok()) {
      return Usage(s);
    }
  }
  return call.Ask<walk::v1::CreateWorldRequest, walk::v1::CreateWorldResponse>(
      &walk::v1::LiveService::Stub::CreateWorld, request, args.json, [](const auto& r) {
        std::printf("created ");
        PrintWorld(r.world());
        std::printf("  %s\n", r.note().c_str());
      });
}

int RunReset(LiveCall& call, const LiveArgs& args) {
  walk::v1::ResetWorldRequest request;
  request.set_world(args.world);
  return call.Ask<walk::v1::ResetWorldRequest, walk::v1::ResetWorldResponse>(
      &walk::v1::LiveService::Stub::ResetWorld, request, args.json, [](const auto& r) {
        std::printf("reset ");
        PrintWorld(r.world());
      });
}

int RunDrop(LiveCall& call, const LiveArgs& args) {
  walk::v1::DropWorldRequest request;
  request.set_world(args.world);
  return call.Ask<walk::v1::DropWorldRequest, walk::v1::DropWorldResponse>(
      &walk::v1::LiveService::Stub::DropWorld, request, args.json, [&](const auto& r) {
        std::printf("dropped %s (%.1f MB)\n", args.world.c_str(), r.memory_bytes() / 1e6);
      });
}

int RunList(LiveCall& call, const LiveArgs& args) {
  walk::v1::ListWorldsRequest request;
  return call.Ask<walk::v1::ListWorldsRequest, walk::v1::ListWorldsResponse>(
      &walk::v1::LiveService::Stub::ListWorlds, request, args.json, [](const auto& r) {
        if (r.worlds_size() == 0) std::printf("no live worlds\n");
        for (const walk::v1::LiveWorldInfo& w : r.worlds()) PrintWorld(w);
      });
}

}  // namespace

absl::StatusOr<walk::v1::Cell> ParseCell(const std::string& text, const std::string& field) {
  std::vector<std::string> parts = absl::StrSplit(text, ',');
  int x = 0, y = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &x) || !absl::SimpleAtoi(parts[1], &y)) {
    return absl::InvalidArgumentError(absl::StrCat(field, ": '", text, "' is not X,Y (a cell)"));
  }
  walk::v1::Cell cell;
  cell.set_x(x);
  cell.set_y(y);
  return cell;
}

absl::Status ParsePlace(const std::string& text, const std::string& field, bool world,
                        walk::v1::Cell* cell, walk::v1::LivePoint* point) {
  if (!world) {
    auto parsed = ParseCell(text, field);
    if (!parsed.ok()) return parsed.status();
    *cell = *parsed;
    return absl::OkStatus();
  }
  std::vector<std::string> parts = absl::StrSplit(text, ',');
  double x = 0.0, y = 0.0;
  if (parts.size() != 2 || !absl::SimpleAtod(parts[0], &x) || !absl::SimpleAtod(parts[1], &y)) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, ": '", text, "' is not X,Y (world units)"));
  }
  point->set_x(x);
  point->set_y(y);
  return absl::OkStatus();
}

absl::StatusOr<walk::v1::BlockerChange> ParseBlockerChange(const std::string& text) {
  const std::vector<std::string> words = absl::StrSplit(text, ' ', absl::SkipEmpty());
  if (words.empty()) return absl::InvalidArgumentError("change '': empty");
  auto form = Forms().find(words[0]);
  if (form == Forms().end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "change '", text, "': '", words[0],
        "' is not a change (add-building, remove-building, move-building, add-gate, remove-gate, "
        "open-gate, shut-gate, harvest, place-tree, place-boulder, place-ore)"));
  }
  const ChangeForm& f = form->second;
  const std::size_t count = f.ids + (f.rect ? 4 : 0) + (f.point ? 2 : 0) + (f.open_word ? 1 : 0);
  if (absl::Status s = Words(words, count, text); !s.ok()) return s;
  BlockerChange change;
  change.set_kind(f.kind);
  for (std::size_t k = 0; k < f.ids; ++k) {
    absl::StatusOr<std::uint32_t> id = Id(words, 1 + k, text);
    if (!id.ok()) return id.status();
    k == 0 ? change.set_id(*id) : change.set_owner(*id);
  }
  if (f.rect) {
    if (absl::Status s = Rect(words, 1 + f.ids, text, &change); !s.ok()) return s;
  }
  if (f.point) {
    absl::StatusOr<double> x = Number(words, 1, text), y = Number(words, 2, text);
    if (!x.ok()) return x.status();
    if (!y.ok()) return y.status();
    change.set_x(*x);
    change.set_y(*y);
  }
  if (f.open_word) {
    const std::string& last = words.back();
    if (last != "open" && last != "shut") {
      return absl::InvalidArgumentError(
          absl::StrCat("change '", text, "': '", last, "' is not open or shut"));
    }
    change.set_open(last == "open");
  }
  return change;
}

void AddLiveCommands(CLI::App& app, LiveArgs& a) {
  CLI::App* live = app.add_subcommand("live", "Live RTS worlds (LiveService)");
  live->require_subcommand(1);
  auto common = [&](CLI::App* command) {
    command->add_option("--world", a.world, "The live world's name (`walkctl info` lists them)")
        ->required();
    command->add_flag("--heavy", a.heavy, "Heavy units (cavalry, siege): forest blocks");
    command->add_flag("--json", a.json, "Print the reply as JSON");
    command
        ->add_option("--units", a.units,
                     "How places (X,Y), radius and slot offsets are read: cells or world units")
        ->check(CLI::IsMember({"cells", "world"}))
        ->capture_default_str();
  };
  auto body = [&](CLI::App* command) {
    command->add_option("--radius", a.radius,
                        "The body's radius (in --units): it keeps that far "
                        "from anything blocking");
  };
  auto width = [&](CLI::App* command) {
    command->add_option("--half-width", a.half_width,
                        "A formation's lateral half-extent (in --units): ground nearer blocked "
                        "cells than this costs more");
  };
  a.path = live->add_subcommand("path", "A path between two cells, pulled taut");
  common(a.path);
  a.path->add_option("--from", a.from, "Start cell X,Y")->required();
  a.path->add_option("--to", a.to, "Goal cell X,Y")->required();
  a.path->add_flag("--keep-goal", a.keep_goal, "Do not resolve a blocked goal");
  a.path->add_option("--unit", a.unit, "The unit's id: its route is kept for small goal moves");
  a.path->add_flag("--recover", a.recover,
                   "A blocked start is recovered: the path runs from the nearest standable cell");
  body(a.path);
  width(a.path);
  a.update = live->add_subcommand("update", "Place or remove blockers, all or nothing");
  common(a.update);
  a.update
      ->add_option("changes", a.changes,
                   "Changes in order, each one argument: 'add-building ID X0 Y0 X1 Y1', "
                   "'remove-building ID', 'move-building ID X0 Y0 X1 Y1', 'add-gate ID OWNER X0 "
                   "Y0 X1 Y1 open|shut', 'remove-gate ID', 'open-gate ID', 'shut-gate ID', "
                   "'harvest X Y', 'place-tree X Y', 'place-boulder X Y', 'place-ore X Y' "
                   "(world units)")
      ->required();
  a.nearest = live->add_subcommand("nearest", "The nearest standable cell");
  common(a.nearest);
  a.nearest->add_option("--cell", a.cell, "Cell X,Y")->required();
  body(a.nearest);
  a.reachable = live->add_subcommand("reachable", "Whether two cells reach each other");
  common(a.reachable);
  a.reachable->add_option("--a", a.a, "Cell X,Y")->required();
  a.reachable->add_option("--b", a.b, "Cell X,Y")->required();
  body(a.reachable);
  a.group = live->add_subcommand("group", "Many starts to one goal (or formation slots)");
  common(a.group);
  a.group->add_option("--starts", a.starts, "Cells X,Y;X,Y;...")->required();
  a.group->add_option("--goal", a.goal, "Goal cell X,Y (the formation's centre)")->required();
  a.group->add_option("--slots", a.slots, "Formation slots FORWARD,RIGHT;... (one per start)");
  a.group->add_option("--facing", a.facing_degrees, "Degrees clockwise from east (90: south)");
  body(a.group);
  width(a.group);
  a.formation = live->add_subcommand("formation", "Where a formation's slots go");
  common(a.formation);
  a.formation->add_option("--center", a.center, "Cell X,Y the formation is ordered to")->required();
  a.formation->add_option("--slots", a.slots, "Slots FORWARD,RIGHT;... (cells)")->required();
  a.formation->add_option("--facing", a.facing_degrees, "Degrees clockwise from east (90: south)")
      ->capture_default_str();
  a.formation->add_option("--from", a.formation_from,
                          "Where it stands: a blocked centre "
                          "resolves toward this side");
  body(a.formation);
  a.cell_at = live->add_subcommand("cell", "What a cell holds (the cursor's question)");
  common(a.cell_at);
  a.cell_at->add_option("--cell", a.cell, "Cell X,Y")->required();
  a.work_cell =
      live->add_subcommand("work-cell", "Where a worker stands to harvest a resource or build");
  common(a.work_cell);
  a.work_cell->add_option("--target", a.target, "The resource's or building's cell X,Y")
      ->required();
  a.work_cell->add_option("--from", a.from, "Where the worker stands, X,Y")->required();
  body(a.work_cell);
  a.create = live->add_subcommand("create", "A new live world from a map and layers");
  a.create->add_option("--world", a.world, "Its name")->required();
  a.create->add_option("--map", a.map_file, "The map (MovingAI form, header optional; -: stdin)")
      ->required();
  a.create->add_option("--layers", a.layers_file, "The layer file");
  a.create->add_option("--cell-size", a.cell_size, "World units per cell (default: 1)");
  a.create->add_option("--origin", a.origin, "Cell (0, 0)'s corner X,Y in world units");
  a.create->add_flag("--json", a.json, "Print the reply as JSON");
  a.reset = live->add_subcommand("reset", "A live world back to its created state");
  a.reset->add_option("--world", a.world, "Its name")->required();
  a.reset->add_flag("--json", a.json, "Print the reply as JSON");
  a.drop = live->add_subcommand("drop", "Remove a created live world");
  a.drop->add_option("--world", a.world, "Its name")->required();
  a.drop->add_flag("--json", a.json, "Print the reply as JSON");
  a.list = live->add_subcommand("list", "Every live world: size, revision, memory, age");
  a.list->add_flag("--json", a.json, "Print the reply as JSON");
}

bool LiveChosen(const LiveArgs& a) {
  for (const CLI::App* c : {a.path, a.update, a.nearest, a.reachable, a.group, a.formation,
                            a.create, a.reset, a.drop, a.list, a.cell_at, a.work_cell}) {
    if (c != nullptr && *c) return true;
  }
  return false;
}

int RunLive(const Connection& connection, double timeout_s, const LiveArgs& args) {
  LiveCall call(connection, timeout_s);
  if (*args.path) return RunPath(call, args);
  if (*args.update) return RunUpdate(call, args);
  if (*args.nearest) return RunNearest(call, args);
  if (*args.reachable) return RunReachable(call, args);
  if (*args.group) return RunGroup(call, args);
  if (*args.formation) return RunFormation(call, args);
  if (*args.create) return RunCreate(call, args);
  if (*args.reset) return RunReset(call, args);
  if (*args.drop) return RunDrop(call, args);
  if (*args.list) return RunList(call, args);
  if (*args.cell_at) return RunCellAt(call, args);
  if (*args.work_cell) return RunWorkCell(call, args);
  return kExitUsage;
}

}  // namespace walk::client
