#include "trace/trace_lanes.h"

#include <gtest/gtest.h>

#include <fstream>

#include "../sim/sim_test_plans.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"

namespace slimpack {
namespace {

const std::string kSample = std::string(SLIMPACK_SAMPLES_DIR) + "/traces/kineto_small.json";

TEST(TraceLanes, UserMappingFile) {
  const std::string path = ::testing::TempDir() + "traceimport_mapping.json";
  std::ofstream(path) << R"({"lanes":[{"pid":"0","tid":"stream 7","stage":1},
                                     {"pid":4242,"tid":4242,"stage":0,"replica":2}]})";
  auto m = read_lane_mapping(path);
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto t = import_chrome_trace(kSample);
  ASSERT_TRUE(t.ok()) << t.error().message;
  // Lanes: 0/stream 20, 0/stream 7, 4242/4242, 4242/4250.
  EXPECT_EQ(stage_of(*m, t->lanes[0]), -1);
  EXPECT_EQ(stage_of(*m, t->lanes[1]), 1);
  EXPECT_EQ(replica_of(*m, t->lanes[1]), 0);
  EXPECT_EQ(stage_of(*m, t->lanes[2]), 0);
  EXPECT_EQ(replica_of(*m, t->lanes[2]), 2);
  EXPECT_EQ(stage_of(*m, t->lanes[3]), -1);
}

TEST(TraceLanes, MappingErrorsNameFileAndPath) {
  auto no_lanes = parse_lane_mapping(R"({"stages":[]})", "m.json");
  ASSERT_FALSE(no_lanes.ok());
  EXPECT_EQ(no_lanes.error().message, "m.json: $.lanes: expected an array of {pid, tid, stage}");
  auto no_stage = parse_lane_mapping(R"({"lanes":[{"pid":1,"tid":1}]})", "m.json");
  ASSERT_FALSE(no_stage.ok());
  EXPECT_NE(no_stage.error().message.find("m.json: $.lanes[0]"), std::string::npos)
      << no_stage.error().message;
  EXPECT_NE(no_stage.error().message.find("stage"), std::string::npos);
  auto twice = parse_lane_mapping(
      R"({"lanes":[{"pid":1,"tid":1,"stage":0},{"pid":"1","tid":"1","stage":1}]})", "m.json");
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "m.json: $.lanes[1]: lane 1/1 is mapped twice");
  auto bad_pid = parse_lane_mapping(R"({"lanes":[{"pid":1.5,"tid":1,"stage":0}]})", "m.json");
  ASSERT_FALSE(bad_pid.ok());
  EXPECT_EQ(bad_pid.error().message, "m.json: $.lanes[0].pid: expected a string or an integer");
  auto missing = read_lane_mapping(::testing::TempDir() + "traceimport_no_mapping.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("traceimport_no_mapping.json"), std::string::npos);
}

TEST(TraceLanes, DefaultMappingOfOwnExport) {
  // Two replicas of 2 stages: the export labels processes "replica r", threads "stage s [p2p]".
  Plan plan = test::uniform_plan(2, 2, 1.0, 2.0, ScheduleKind::OneFOneB, 0, 1, 0.5);
  plan.replicas.push_back(plan.replicas[0]);
  SimOptions opts;
  opts.check_legality = false;  // the copied replica reuses the sequences: only lanes matter here
  auto res = simulate(plan, nullptr, opts);
  ASSERT_TRUE(res.ok()) << res.error().message;
  const std::string path = ::testing::TempDir() + "traceimport_lanes_export.json";
  ASSERT_TRUE(write_chrome_trace(path, plan, *res).ok());
  auto t = import_chrome_trace(path);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->lanes.size(), 8u);
  const LaneMapping m = default_lane_mapping(*t);
  EXPECT_EQ(m.stage_of_lane.size(), 8u);
  for (const TraceLane& l : t->lanes) {
    const int tid = std::stoi(l.tid);
    EXPECT_EQ(stage_of(m, l), tid / 2) << l.label;  // compute tid 2s, p2p tid 2s+1
    EXPECT_EQ(replica_of(m, l), std::stoi(l.pid)) << l.label;
  }
}

TEST(TraceLanes, DefaultMappingOfOtherTraceIsOneStagePerProcess) {
  auto t = import_chrome_trace(kSample);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const LaneMapping m = default_lane_mapping(*t);
  // pid 0 (two GPU streams) is the first process, pid 4242 the second.
  EXPECT_EQ(stage_of(m, t->lanes[0]), 0);
  EXPECT_EQ(stage_of(m, t->lanes[1]), 0);
  EXPECT_EQ(stage_of(m, t->lanes[2]), 1);
  EXPECT_EQ(stage_of(m, t->lanes[3]), 1);
  EXPECT_EQ(m.stage_of_lane.count(lane_key("4242", "4250")), 1u);
}

}  // namespace
}  // namespace slimpack

namespace slimpack {
namespace {

// Kineto names the CPU and the GPU process alike ("python3") and tells them apart by
// process_labels; the lane labels and the process part say which is which.
TEST(TraceLanes, ProcessLabelsNameTheDevice) {
  const std::string json = R"({"traceEvents": [
    {"ph": "M", "name": "process_name", "pid": 7, "tid": 0, "args": {"name": "python3"}},
    {"ph": "M", "name": "process_labels", "pid": 7, "tid": 0, "args": {"labels": "CPU"}},
    {"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "python3"}},
    {"ph": "M", "name": "process_labels", "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
    {"ph": "M", "name": "thread_name", "pid": 0, "tid": 7, "args": {"name": "stream 7"}},
    {"ph": "M", "name": "process_labels", "pid": 3, "tid": 0, "args": {"labels": "GPU 1"}},
    {"ph": "M", "name": "process_name", "pid": 4, "tid": 0, "args": {"name": "same"}},
    {"ph": "M", "name": "process_labels", "pid": 4, "tid": 0, "args": {"labels": "same"}},
    {"ph": "X", "name": "a", "pid": 7, "tid": 7, "ts": 0, "dur": 1},
    {"ph": "X", "name": "k", "pid": 0, "tid": 7, "ts": 0, "dur": 1},
    {"ph": "X", "name": "k", "pid": 3, "tid": 1, "ts": 0, "dur": 1},
    {"ph": "X", "name": "k", "pid": 4, "tid": 1, "ts": 0, "dur": 1}]})";
  auto t = import_chrome_trace_text(json, "labels.json");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->lanes.size(), 4u);
  EXPECT_EQ(t->lanes[0].label, "python3 (GPU 0) / stream 7");
  EXPECT_EQ(t->lanes[0].process_name, "python3");  // kept apart for lane mappings
  EXPECT_EQ(t->lanes[0].process_labels, "GPU 0");
  EXPECT_EQ(t->lanes[1].label, "GPU 1");  // labels without a process name
  EXPECT_EQ(t->lanes[2].label, "same");   // not repeated
  EXPECT_EQ(t->lanes[3].label, "python3 (CPU)");
  EXPECT_EQ(process_label(t->lanes[3]), "python3 (CPU)");
}

}  // namespace
}  // namespace slimpack
