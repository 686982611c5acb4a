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

}  // namespace
}  // namespace slimpack
