// The session file reads back what it wrote: every part of a session that differs from the
// defaults survives session_to_json -> session_from_json (the fuzz target checks the same on
// arbitrary inputs; these are the cases it found).
#include "app/session_file.h"

#include <gtest/gtest.h>

namespace slimpack {
namespace {

SessionFile round_trip(const SessionFile& s) {
  auto back = session_from_json(session_to_json(s), "s.slimpack");
  EXPECT_TRUE(back.ok()) << (back ? "" : back.error().message);
  return back ? *back : SessionFile{};
}

// Found by fuzz_session: run B's files were dropped when run A had none and the trace options
// were the defaults, because the writer only looked at run A's files and the options.
TEST(SessionFile, CompareFilesWithoutRunAReadBack) {
  SessionFile s;
  s.traces.compare_files = {"b0.json"};
  EXPECT_EQ(round_trip(s), s);
  EXPECT_EQ(round_trip(s).traces.compare_files, std::vector<std::string>{"b0.json"});
}

TEST(SessionFile, MeasuredVsSimulatedAloneReadsBack) {
  SessionFile s;
  s.traces.measured_vs_simulated = true;
  EXPECT_TRUE(round_trip(s).traces.measured_vs_simulated);
}

TEST(SessionFile, DefaultSessionWritesNoTracesObject) {
  EXPECT_EQ(session_to_json(SessionFile{}).find("\"traces\""), std::string::npos);
  EXPECT_EQ(round_trip(SessionFile{}), SessionFile{});
}

TEST(SessionFile, FullSessionReadsBack) {
  SessionFile s;
  s.plan_file = "plan.json";
  s.view.t0 = 0.25;
  s.view.t1 = 1.5;
  s.view.tab = "traces";
  s.view.saved_views.push_back({"warm-up", 0.0, 0.2, "compare", 3});
  s.traces.files = {"r0.json", "r1.json.gz"};
  s.traces.compare_files = {"b0.json"};
  s.traces.measured_vs_simulated = true;
  EXPECT_EQ(round_trip(s), s);
}

// The Search tab's settings: written only when not the tab's defaults, lists in the CLI's spelling.
TEST(SessionFile, SearchSettingsReadBack) {
  SessionFile s;
  EXPECT_EQ(session_to_json(s).find("\"search\""), std::string::npos);
  s.search.space.gpus = 16;
  s.search.space.min_gpus = 4;
  s.search.space.gpus_per_node = 4;
  s.search.batches = 2;
  s.search.space.pp = {2, 4};
  s.search.space.recompute = {{RecomputeMode::Full, 0}, {RecomputeMode::Layers, 6}};
  s.search.space.strategies = {"slimpack"};
  const std::string text = session_to_json(s);
  EXPECT_NE(text.find("\"pp\": \"2,4\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"recompute\": \"full,6\""), std::string::npos) << text;
  EXPECT_EQ(round_trip(s), s);
}

TEST(SessionFile, BadSearchSettingsAreNamed) {
  auto with_search = [](const std::string& search) {
    return R"({"format": "slimpack-session", "version": 1, "search": )" + search + "}";
  };
  auto bad = session_from_json(with_search(R"({"pp": "2,x"})"), "s.slimpack");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "s.slimpack: $.search.pp: expected an integer, got 'x'");
  bad = session_from_json(with_search(R"({"gpus": 0})"), "s.slimpack");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "s.slimpack: $.search.gpus: 0 is outside 1..65536");
  bad = session_from_json(with_search(R"({"batches": "8"})"), "s.slimpack");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("$.search.batches"), std::string::npos) << bad.error().message;
  // Absent keys keep the tab's defaults.
  auto good = session_from_json(with_search(R"({"cp": "1,2"})"), "s.slimpack");
  ASSERT_TRUE(good.ok()) << good.error().message;
  EXPECT_EQ(good->search.space.gpus, 64);
  EXPECT_EQ(good->search.batches, 8);
  EXPECT_EQ(good->search.space.cp, (std::vector<int>{1, 2}));
}

}  // namespace
}  // namespace slimpack
