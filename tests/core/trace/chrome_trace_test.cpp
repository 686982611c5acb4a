#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../sim/sim_test_plans.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;

TEST(ChromeTrace, EventsAndMetadata) {
  // p = 2, M = 2 with latency 0.5: 8 F/B events, 2 activation and 2 gradient sends.
  Plan plan = test::uniform_plan(2, 2, 1.0, 2.0, ScheduleKind::OneFOneB, 0, 1, 0.5);
  plan.sequences[0].id = "quote\"d";
  auto res = simulate(plan, nullptr, {});
  ASSERT_TRUE(res.ok()) << res.error().message;
  const std::string text = chrome_trace_json(plan, *res);
  const Json j = Json::parse(text);  // throws (fails the test) on invalid JSON
  ASSERT_TRUE(j["traceEvents"].is_array());
  std::map<std::string, int> by_cat, by_meta;
  std::map<std::pair<int, int>, std::string> thread_names;
  for (const Json& e : j["traceEvents"]) {
    const auto ph = e["ph"].get<std::string>();
    if (ph == "M") {
      ++by_meta[e["name"].get<std::string>()];
      if (e["name"] == "thread_name")
        thread_names[{e["pid"].get<int>(), e["tid"].get<int>()}] =
            e["args"]["name"].get<std::string>();
      continue;
    }
    if (ph == "s" || ph == "f" || ph == "C") {  // flows and memory counters: their own tests
      ++by_cat[ph];
      continue;
    }
    ASSERT_EQ(ph, "X");
    const std::string cat = e["cat"].get<std::string>();
    ++by_cat[cat];
    // chrome://tracing colours: forward blue, backward orange; other events keep their own.
    const std::string cname = e.value("cname", "");
    const std::string want = cat == "forward"    ? "rail_response"
                             : cat == "backward" ? "thread_state_iowait"
                                                 : "";
    EXPECT_EQ(cname, want) << cat;
  }
  EXPECT_EQ(by_cat["forward"], 4);
  EXPECT_EQ(by_cat["backward"], 4);
  EXPECT_EQ(by_cat["p2p"], 4);
  // Symmetric packs: F_i feeds B_i only, so one flow per pack per stage (2 packs x 2 stages).
  EXPECT_EQ(by_cat["s"], 4);
  EXPECT_EQ(by_cat["f"], 4);
  EXPECT_EQ(by_meta["process_name"], 1);
  EXPECT_EQ(by_meta["thread_name"], 4);
  EXPECT_EQ((thread_names[{0, 0}]), "stage 0");
  EXPECT_EQ((thread_names[{0, 2}]), "stage 1");
  EXPECT_EQ((thread_names[{0, 3}]), "stage 1 p2p");
  EXPECT_EQ(j["otherData"]["us_per_unit"].get<double>(), 1000.0);

  // Stage 1's F1 runs [1.5, 2.5] units -> ts 1500 us, dur 1000 us, with its args.
  bool found = false;
  for (const Json& e : j["traceEvents"]) {
    if (e["ph"] != "X" || e["name"] != "F1" || e["tid"] != 2) continue;
    found = true;
    EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 1500.0);
    EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 1000.0);
    EXPECT_EQ(e["args"]["pack"].get<int>(), 0);
    EXPECT_EQ(e["args"]["tokens"].get<int>(), 8);
    EXPECT_DOUBLE_EQ(e["args"]["attention_pairs"].get<double>(), 36.0);
    ASSERT_EQ(e["args"]["segments"].size(), 1u);
    EXPECT_EQ(e["args"]["segments"][0].get<std::string>(), "quote\"d[0:8)");
  }
  EXPECT_TRUE(found);
}

TEST(ChromeTrace, LongSegmentListsTruncated) {
  Plan plan;
  plan.stages = 1;
  Pack f;
  for (int i = 0; i < 100; ++i) {
    plan.sequences.push_back({"q" + std::to_string(i), 2});
    f.segments.push_back({i, 0, 2});
  }
  f.time = 1.0;
  Pack b = f;
  b.time = 2.0;
  plan.replicas.push_back({{f}, {b}});
  auto res = simulate(plan, nullptr, {});
  ASSERT_TRUE(res.ok()) << res.error().message;
  const Json j = Json::parse(chrome_trace_json(plan, *res));
  int packs = 0;
  for (const Json& e : j["traceEvents"]) {
    if (e["ph"] != "X") continue;
    ++packs;
    EXPECT_EQ(e["args"]["segments"].size(), 64u);
    EXPECT_EQ(e["args"]["segments_total"].get<int>(), 100);
  }
  EXPECT_EQ(packs, 2);
}

// One 8-token sequence on one stage, forward in one pack, backward in two (asymmetric):
// F1 [0,8) feeds B1 [4,8) and B2 [0,4), so two flows leave F1, one ending on each backward pack.
TEST(ChromeTrace, FlowsJoinForwardToTheBackwardPacksOfItsSlices) {
  Plan plan;
  plan.stages = 1;
  plan.sequences.push_back({"x", 8});
  Pack f;
  f.segments.push_back({0, 0, 8});
  f.time = 1.0;
  Pack b1, b2;
  b1.segments.push_back({0, 4, 8});
  b1.time = 2.0;
  b2.segments.push_back({0, 0, 4});
  b2.time = 2.0;
  plan.replicas.push_back({{f}, {b1, b2}});
  auto res = simulate(plan, nullptr, {});
  ASSERT_TRUE(res.ok()) << res.error().message;
  const Json j = Json::parse(chrome_trace_json(plan, *res));
  std::map<long long, double> start_ts, end_ts;
  std::map<long long, std::string> names;
  for (const Json& e : j["traceEvents"]) {
    if (e["ph"] == "s") {
      start_ts[e["id"].get<long long>()] = e["ts"].get<double>();
      names[e["id"].get<long long>()] = e["name"].get<std::string>();
      EXPECT_EQ(e["cat"], "slice");
    } else if (e["ph"] == "f") {
      end_ts[e["id"].get<long long>()] = e["ts"].get<double>();
      EXPECT_EQ(e["bp"], "e");  // binds to the backward pack that starts there
    }
  }
  ASSERT_EQ(start_ts.size(), 2u);
  ASSERT_EQ(end_ts.size(), 2u);
  std::map<std::string, double> end_by_name;
  for (const auto& [id, ts] : start_ts) {
    EXPECT_DOUBLE_EQ(ts, 0.0);  // F1 starts at 0
    ASSERT_EQ(end_ts.count(id), 1u);
    end_by_name[names[id]] = end_ts[id];
  }
  // Units are written as ms: B1 runs [1, 3] units, B2 [3, 5].
  EXPECT_DOUBLE_EQ(end_by_name["F1 -> B1"], 1000.0);
  EXPECT_DOUBLE_EQ(end_by_name["F1 -> B2"], 3000.0);
}

TEST(ChromeTrace, MemoryCountersFollowTheTimeline) {
  const Plan plan = test::uniform_plan(2, 3, 1.0, 2.0);
  auto res = simulate(plan, nullptr, {});
  ASSERT_TRUE(res.ok());
  const Json j = Json::parse(chrome_trace_json(plan, *res));
  std::map<std::string, std::vector<std::pair<double, double>>> counters;
  for (const Json& e : j["traceEvents"])
    if (e["ph"] == "C")
      counters[e["name"].get<std::string>()].push_back(
          {e["ts"].get<double>(), e["args"]["GB"].get<double>()});
  for (std::size_t s = 0; s < 2; ++s) {
    const auto& memory = res->replicas[0].stages[s].memory;
    const auto& track = counters["memory stage " + std::to_string(s)];
    ASSERT_EQ(track.size(), memory.size()) << s;
    for (std::size_t i = 0; i < memory.size(); ++i) {
      EXPECT_DOUBLE_EQ(track[i].first, memory[i].time * 1000.0);
      EXPECT_DOUBLE_EQ(track[i].second, memory[i].bytes / 1e9);
    }
  }
}

TEST(ChromeTrace, WritesFile) {
  const Plan plan = test::uniform_plan(2, 2, 1.0, 2.0);
  auto res = simulate(plan, nullptr, {});
  ASSERT_TRUE(res.ok());
  const std::string path = ::testing::TempDir() + "slimpack_trace_test.json";
  ASSERT_TRUE(write_chrome_trace(path, plan, *res).ok());
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), chrome_trace_json(plan, *res));
  std::remove(path.c_str());
  EXPECT_FALSE(write_chrome_trace("/nonexistent-dir/x/trace.json", plan, *res).ok());
}

}  // namespace
}  // namespace slimpack
