#include "client/batch_resume.h"

#include <charconv>
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

// The shortest text that reads back to `value` (JSON allows 1e+300; a question's numbers are
// finite, as walkctl read them).
void AppendShortest(double value, std::string* out) {
  char text[64];
  const auto [end, error] = std::to_chars(text, text + sizeof text, value);
  if (error != std::errc()) {
    *out += "null";
    return;
  }
  out->append(text, end);
}

void AppendPlace(const walk::v1::Place& place, std::string* out) {
  *out += '[';
  AppendShortest(place.x_yards(), out);
  *out += ',';
  AppendShortest(place.y_yards(), out);
  if (place.has_z_yards()) {
    *out += ',';
    AppendShortest(place.z_yards(), out);
  }
  *out += ']';
}

const char* BackendName(walk::v1::Backend backend) {
  switch (backend) {
    case walk::v1::BACKEND_GRID:
      return "grid";
    case walk::v1::BACKEND_NAVMESH:
      return "navmesh";
    case walk::v1::BACKEND_HYBRID:
      return "hybrid";
    default:
      return "default";
  }
}

// Where the question's fields start in a line walkctl wrote (`{"line":N,"id":...,"world":...`):
// a key cannot hide inside a string, whose quotes are escaped.
constexpr char kQuestionStart[] = ",\"world\":";

}  // namespace

std::string QuestionFields(const walk::v1::WalkRequest& walk, bool trip) {
  std::string out = "\"world\":";
  out += nlohmann::json(walk.world()).dump();
  out += ",\"from\":";
  AppendPlace(walk.from(), &out);
  out += ",\"to\":";
  AppendPlace(walk.to(), &out);
  if (walk.from().continent() == walk.to().continent()) {
    absl::StrAppend(&out, ",\"continent\":", walk.from().continent());
  } else {
    absl::StrAppend(&out, ",\"from_continent\":", walk.from().continent(),
                    ",\"to_continent\":", walk.to().continent());
  }
  out += ",\"profile\":";
  out += nlohmann::json(walk.profile()).dump();
  absl::StrAppend(&out, ",\"band\":", walk.band(), ",\"backend\":\"", BackendName(walk.backend()),
                  "\"");
  if (trip) out += ",\"trip\":true";
  return out;
}

ServedModels::ServedModels(const walk::v1::InfoResponse& info) {
  for (const walk::v1::WorldInfo& w : info.worlds()) {
    if (w.state() != walk::v1::WORLD_STATE_READY) continue;
    World& world = worlds_[w.name()];
    world.default_backend = w.default_backend();
    for (const walk::v1::ModelInfo& m : w.models()) {
      world.by_question[{m.profile(), m.band(), m.continent()}] = {
          m.grid_model(), m.navmesh_model(), m.trip_model()};
    }
  }
}

std::string ServedModels::For(const walk::v1::WalkRequest& walk, bool trip) const {
  const auto world = worlds_.find(walk.world());
  if (world == worlds_.end()) return "";
  // An empty profile is "shortest" (WalkRequest.profile).
  const std::string profile = walk.profile().empty() ? "shortest" : walk.profile();
  // A walk's (and a trip's) model is looked up on its start's continent.
  const auto models =
      world->second.by_question.find({profile, walk.band(), walk.from().continent()});
  if (models == world->second.by_question.end()) return "";
  const Models& m = models->second;
  if (trip) return m.trip;  // trips walk the grid
  walk::v1::Backend backend = walk.backend();
  if (backend == walk::v1::BACKEND_UNSPECIFIED) backend = world->second.default_backend;
  switch (backend) {
    case walk::v1::BACKEND_GRID:
      return m.grid;
    case walk::v1::BACKEND_NAVMESH:
      return m.navmesh;
    case walk::v1::BACKEND_HYBRID:
      return m.grid.empty() || m.navmesh.empty() ? "" : absl::StrCat(m.grid, "+", m.navmesh);
    default:
      return "";
  }
}

std::string ModelText(std::uint64_t model) { return absl::StrFormat("%016x", model); }

std::string LineModel(const std::string& served, const std::string& answer_model) {
  if (served.empty() || answer_model.empty()) return answer_model;
  for (std::size_t start = 0; start <= served.size();) {
    std::size_t end = served.find('+', start);
    if (end == std::string::npos) end = served.size();
    if (served.compare(start, end - start, answer_model) == 0) return served;
    start = end + 1;
  }
  return answer_model;
}

EarlierAnswers EarlierAnswers::Read(const std::string& path) {
  EarlierAnswers earlier;
  std::ifstream in(path);
  std::string text;
  const BatchDefaults no_defaults{.world = "", .profile = "", .band = 0, .backend = ""};
  while (std::getline(in, text)) {
    nlohmann::json json = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (json.is_discarded() || !json.is_object() || json.contains("summary")) continue;
    if (json.contains("error")) continue;  // refused: asked again, never an answer
    const bool identified =
        absl::StartsWith(text, "{\"line\":") && text.find(kQuestionStart) != std::string::npos &&
        json.contains("model") && json["model"].is_string() && json.contains("world") &&
        json.contains("profile") && json.contains("band") && json.contains("backend");
    absl::StatusOr<BatchPair> question =
        identified ? ParseJsonPair(text, 0, no_defaults) : absl::InvalidArgumentError("");
    if (!question.ok()) {
      ++earlier.unidentified_;
      continue;
    }
    const bool trip = json.value("trip", false);
    earlier.by_question_.emplace(QuestionFields(question->walk, trip), earlier.lines_.size());
    earlier.lines_.push_back({std::move(text), json["model"].get<std::string>()});
  }
  return earlier;
}

std::string EarlierAnswers::Take(const BatchPair& pair, bool trip, const std::string& model) {
  if (lines_.empty() || model.empty()) return "";
  const auto [begin, end] = by_question_.equal_range(QuestionFields(pair.walk, trip));
  Line* found = nullptr;
  for (auto it = begin; it != end; ++it) {
    Line& line = lines_[it->second];
    if (line.model != model) {
      line.model_differed = true;
      continue;
    }
    // An unused line first; an answer already taken answers a repeated question as well.
    if (found == nullptr || (found->used && !line.used)) found = &line;
  }
  if (found == nullptr) return "";
  found->used = true;
  std::string out = absl::StrCat("{\"line\":", pair.line);
  if (!pair.id.empty()) absl::StrAppend(&out, ",\"id\":", nlohmann::json(pair.id).dump());
  out.append(found->text, found->text.find(kQuestionStart));
  out += '\n';
  return out;
}

StaleCounts EarlierAnswers::Stale() const {
  StaleCounts stale;
  stale.pair = unidentified_;
  for (const Line& line : lines_) {
    if (line.used) continue;
    ++(line.model_differed ? stale.model : stale.pair);
  }
  return stale;
}

}  // namespace walk::client
