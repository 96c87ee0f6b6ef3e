// Resuming walkctl batch: questions written in one fixed form, models resolved from Info, and
// earlier lines kept only for the same question under the model walkd serves now.
#include "client/batch_resume.h"

#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"

namespace walk::client {
namespace {

BatchPair PairOf(const std::string& text, std::uint64_t line) {
  absl::StatusOr<BatchPair> pair = ParseJsonPair(text, line, BatchDefaults());
  EXPECT_TRUE(pair.ok()) << pair.status();
  return pair.ok() ? *pair : BatchPair();
}

TEST(BatchResumeTest, QuestionsAreWrittenInOneFormAndReadBack) {
  const BatchPair a = PairOf(R"({"from": [0.1, 2e1], "to": [3, 4, -0.25], "band": 10})", 1);
  EXPECT_EQ(QuestionFields(a.walk, false),
            R"("world":"default","from":[0.1,20],"to":[3,4,-0.25],"continent":0,"profile":"",)"
            R"("band":10,"backend":"default")");
  // Equal numbers written differently are one question; a height makes another.
  const BatchPair b = PairOf(R"({"from": [1e-1, 20.0], "to": [3.0, 4, -2.5e-1], "band": 10})", 2);
  EXPECT_EQ(QuestionFields(a.walk, false), QuestionFields(b.walk, false));
  const BatchPair c = PairOf(R"({"from": [0.1, 20, 5], "to": [3, 4, -0.25], "band": 10})", 3);
  EXPECT_NE(QuestionFields(a.walk, false), QuestionFields(c.walk, false));
  EXPECT_NE(QuestionFields(a.walk, false), QuestionFields(a.walk, true));
  // Ends on two continents name both.
  const BatchPair d = PairOf(
      R"({"from": [1, 2], "to": [3, 4], "from_continent": 1, "to_continent": 2, "backend": "grid"})",
      4);
  EXPECT_EQ(d.walk.from().continent(), 1u);
  EXPECT_EQ(d.walk.to().continent(), 2u);
  EXPECT_NE(QuestionFields(d.walk, false).find(R"("from_continent":1,"to_continent":2)"),
            std::string::npos);
  // What is written reads back as the same question.
  const std::string line = "{\"line\":4," + QuestionFields(d.walk, false) + "}";
  EXPECT_EQ(QuestionFields(PairOf(line, 9).walk, false), QuestionFields(d.walk, false));
}

TEST(BatchResumeTest, ModelsComeFromInfoByBackend) {
  walk::v1::InfoResponse info;
  walk::v1::WorldInfo* w = info.add_worlds();
  w->set_name("city");
  w->set_state(walk::v1::WORLD_STATE_READY);
  w->set_default_backend(walk::v1::BACKEND_HYBRID);
  walk::v1::ModelInfo* m = w->add_models();
  m->set_profile("shortest");
  m->set_band(0);
  m->set_grid_model("aaaa");
  m->set_navmesh_model("bbbb");
  m->set_trip_model("cccc");
  const ServedModels models(info);
  walk::v1::WalkRequest walk;
  walk.set_world("city");
  EXPECT_EQ(models.For(walk, false), "aaaa+bbbb");  // the hybrid, "" is shortest
  EXPECT_EQ(models.For(walk, true), "cccc");
  walk.set_backend(walk::v1::BACKEND_NAVMESH);
  EXPECT_EQ(models.For(walk, false), "bbbb");
  walk.set_band(10);
  EXPECT_EQ(models.For(walk, false), "");  // a band Info does not list
  walk.set_world("elsewhere");
  EXPECT_EQ(models.For(walk, false), "");
  // A line records the served model when the answer's is part of it.
  EXPECT_EQ(LineModel("aaaa+bbbb", "bbbb"), "aaaa+bbbb");
  EXPECT_EQ(LineModel("aaaa+bbbb", "dddd"), "dddd");
  EXPECT_EQ(LineModel("aaaa", "aaaa"), "aaaa");
}

TEST(BatchResumeTest, EarlierLinesAreKeptByQuestionAndModelOnly) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("batch-resume-" + std::to_string(getpid())))
          .string();
  const BatchPair p = PairOf(R"({"id": "old", "from": [1, 2], "to": [3, 4]})", 1);
  const BatchPair q = PairOf(R"({"from": [5, 6], "to": [7, 8]})", 2);
  {
    std::ofstream out(path);
    out << "{\"line\":1,\"id\":\"old\"," << QuestionFields(p.walk, false)
        << ",\"model\":\"m1\",\"status\":\"ok\",\"seconds\":1.5}\n";
    out << "{\"line\":2," << QuestionFields(q.walk, false)
        << ",\"model\":\"m1\",\"status\":\"no_walk\"}\n";
    out << "{\"line\":3,\"status\":\"ok\",\"seconds\":9.0}\n";  // no question: never kept
    out << "{\"line\":4," << QuestionFields(q.walk, false) << ",\"error\":\"UNAVAILABLE: x\"}\n";
    out << "{\"summary\":{\"asked\":4}}\n";
  }
  EarlierAnswers earlier = EarlierAnswers::Read(path);
  // The same question on another line and with another id: kept, renumbered.
  BatchPair moved = p;
  moved.line = 7;
  moved.id = "new";
  EXPECT_EQ(earlier.Take(moved, false, "m1"),
            "{\"line\":7,\"id\":\"new\"," + QuestionFields(p.walk, false) +
                ",\"model\":\"m1\",\"status\":\"ok\",\"seconds\":1.5}\n");
  EXPECT_EQ(earlier.Take(moved, true, "m1"), "");  // a trip is another question
  EXPECT_EQ(earlier.Take(q, false, "m2"), "");     // another model
  EXPECT_EQ(earlier.Take(q, false, ""), "");       // walkd cannot say: never kept
  const StaleCounts stale = earlier.Stale();
  EXPECT_EQ(stale.model, 1u);
  EXPECT_EQ(stale.pair, 1u);  // the line without a question
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace walk::client
