// Resuming walkctl batch from its own answers file: an earlier answer line is kept only for the
// same question under the model walkd serves now, never by its position. Every answer line
// carries its question (the ends as asked, world, continents, profile, band, backend, walk or
// trip) and the model its answer is under; a rerun matches earlier lines to the current pairs by
// question and checks the model against Info (docs/api.md, "walkctl batch").
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "client/batch_input.h"
#include "walk/v1/walk.pb.h"

namespace walk::client {

// The question fields of an answer line, as JSON members without braces, in a fixed form (the
// shortest text that reads back to each number), so equal questions give equal text:
//   "world":"W","from":[x,y],"to":[x,y,z],"continent":C,"profile":"P","band":B,"backend":"grid"
// (`from_continent` and `to_continent` instead of `continent` when they differ; "backend" is
// "default" when the pair names none), then "trip":true for a trip.
std::string QuestionFields(const walk::v1::WalkRequest& walk, bool trip);

// The models walkd serves now, from one Info reply.
class ServedModels {
 public:
  explicit ServedModels(const walk::v1::InfoResponse& info);

  // The model a question is answered under now: the grid's, the navmesh's, both joined by "+"
  // for the hybrid (its choice depends on both), or the trips' model; "" when walkd cannot say
  // (the world is unknown or not ready, the profile or band unknown).
  std::string For(const walk::v1::WalkRequest& walk, bool trip) const;

 private:
  struct Models {
    std::string grid, navmesh, trip;
  };
  struct World {
    walk::v1::Backend default_backend = walk::v1::BACKEND_UNSPECIFIED;
    // By profile, band and continent (each continent's answers have their own model).
    std::map<std::tuple<std::string, std::uint32_t, std::uint32_t>, Models> by_question;
  };
  std::map<std::string, World> worlds_;
};

// A model as walkd writes it (WalkResponse.model_id): 16 lower-case hex digits.
std::string ModelText(std::uint64_t model);

// The model to write on an answer line: `served` (ServedModels::For at asking time) when the
// answer's own model is one of its parts, else the answer's own (walkd changed its world while
// the batch ran: the line is then stale on the next run, never kept by mistake).
std::string LineModel(const std::string& served, const std::string& answer_model);

// Why earlier answer lines were not kept.
struct StaleCounts {
  std::uint64_t pair = 0;   // no current pair asks its question (or it records none)
  std::uint64_t model = 0;  // its question is asked, under another model now
};

// The earlier answers of an answers file that still hold.
class EarlierAnswers {
 public:
  // Reads `path` (absent: nothing). Lines with an error, without a question or model, or not
  // JSON are never kept.
  static EarlierAnswers Read(const std::string& path);

  // The earlier answer to pair `pair` when its question is the same and its model is `model` (the
  // one walkd serves now, not empty): the answer line rewritten with the pair's line number and
  // id (and a newline). Empty when there is none. Marks it used.
  std::string Take(const BatchPair& pair, bool trip, const std::string& model);

  // Earlier lines never taken, by why (call after every Take).
  StaleCounts Stale() const;

  bool empty() const { return lines_.empty(); }

 private:
  struct Line {
    std::string text;   // the line as read
    std::string model;  // its "model"
    bool used = false;
    bool model_differed = false;  // its question was asked under another model
  };
  std::vector<Line> lines_;
  std::multimap<std::string, std::size_t> by_question_;  // QuestionFields -> lines_ index
  std::uint64_t unidentified_ = 0;                       // lines without a question or model
};

}  // namespace walk::client
