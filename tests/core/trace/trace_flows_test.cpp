// Flow points and event positions kept by the importer, and a unit's GPU time found by following
// Kineto's ac2g flows from its CPU range to its kernels (core/trace/trace_flows.h).
#include "trace/trace_flows.h"

#include <gtest/gtest.h>

#include "trace/trace_flow_pairs.h"

#include "trace/trace_import.h"
#include "trace/trace_lanes.h"
#include "trace/trace_units.h"

namespace slimpack {
namespace {

// Rank 1 of a run: F1 (10..30 us) launches a kernel at 14..29 us; B1 (a B/E pair, 35..60 us)
// launches one at 40..58 us (string flow id). A flow point on a pid/tid with nothing else.
const char* kTrace = R"({"distributedInfo": {"rank": 1}, "traceEvents": [
 {"ph": "M", "name": "process_name", "pid": 11, "args": {"name": "python3"}},
 {"ph": "X", "name": "F1", "cat": "user_annotation", "pid": 11, "tid": 11, "ts": 10, "dur": 20},
 {"ph": "s", "id": 7, "pid": 11, "tid": 11, "ts": 11, "cat": "ac2g", "name": "ac2g"},
 {"ph": "X", "name": "gemm", "cat": "kernel", "pid": 0, "tid": 7, "ts": 14, "dur": 15},
 {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 14, "cat": "ac2g", "name": "ac2g", "bp": "e"},
 {"ph": "X", "name": "F1", "cat": "gpu_user_annotation", "pid": 0, "tid": 7, "ts": 14, "dur": 15},
 {"ph": "B", "name": "B1", "cat": "user_annotation", "pid": 11, "tid": 11, "ts": 35},
 {"ph": "s", "id": "8", "pid": 11, "tid": 11, "ts": 36, "cat": "ac2g", "name": "ac2g"},
 {"ph": "E", "pid": 11, "tid": 11, "ts": 60},
 {"ph": "f", "id": "8", "pid": 0, "tid": 7, "ts": 40, "cat": "ac2g", "name": "ac2g", "bp": "e"},
 {"ph": "X", "name": "gemm_bwd", "cat": "kernel", "pid": 0, "tid": 7, "ts": 40, "dur": 18},
 {"ph": "s", "id": 9, "pid": 99, "tid": 99, "ts": 50, "cat": "fwdbwd", "name": "fwdbwd"}]})";

TEST(TraceFlows, ImporterKeepsFlowPointsAndEventPositions) {
  auto t = import_chrome_trace_text(kTrace, "rank1.json");
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->rank, 1);
  ASSERT_EQ(t->lanes.size(), 2u);  // 0/7 and 11/11; the flow point's 99/99 makes no lane
  ASSERT_EQ(t->flows.size(), 5u);
  EXPECT_EQ(t->flows.back().lane, -1);
  EXPECT_EQ(t->names[static_cast<std::size_t>(t->flows.back().cat)], "fwdbwd");
  EXPECT_EQ(t->flows[1].phase, 'f');
  EXPECT_EQ(t->lanes[static_cast<std::size_t>(t->flows[1].lane)].pid, "0");
  const TraceLane& cpu = t->lanes[1];
  ASSERT_EQ(cpu.events.size(), 2u);
  EXPECT_EQ(cpu.events[0].index, 1);  // traceEvents[1]: F1
  EXPECT_EQ(cpu.events[1].index, 6);  // the "B" of the B1 pair
}

TEST(TraceFlows, AUnitsGpuTimeIsItsKernelsSpan) {
  auto t = import_chrome_trace_text(kTrace, "rank1.json");
  ASSERT_TRUE(t.ok());
  const FlowIndex flows(*t);
  const auto f1 = flows.gpu_span(1, 10.0, 30.0);
  ASSERT_TRUE(f1.has_value());
  EXPECT_DOUBLE_EQ(f1->start_us, 14.0);
  EXPECT_DOUBLE_EQ(f1->end_us, 29.0);
  EXPECT_EQ(f1->kernels, 1);
  EXPECT_FALSE(flows.gpu_span(1, 61.0, 70.0).has_value());
  EXPECT_FALSE(flows.gpu_span(0, 0.0, 100.0).has_value());  // no launch on the GPU lane

  auto rules = builtin_unit_rules("slimpack");
  for (GpuTime mode : {GpuTime::CpuRange, GpuTime::Flows}) {
    auto mapped = map_trace_files({{&*t, "rank1.json", rank_lane_mapping(*t, 0, 1)}}, *rules, mode);
    ASSERT_TRUE(mapped.ok()) << mapped.error().message;
    // F1 and B1 on the CPU lane; the gpu_user_annotation copy of F1 is no unit.
    ASSERT_EQ(mapped->units.size(), 2u);
    const MeasuredUnit& f = mapped->units[0];
    const MeasuredUnit& b = mapped->units[1];
    EXPECT_EQ(f.stage, 1);
    EXPECT_EQ(mapped->name_of(f), "F1");
    EXPECT_EQ(f.event, 1);
    EXPECT_EQ(b.event, 6);
    if (mode == GpuTime::CpuRange) {
      EXPECT_DOUBLE_EQ(f.dur_us, 20.0);
      EXPECT_DOUBLE_EQ(b.dur_us, 25.0);
      EXPECT_EQ(f.kernels, 0);
    } else {
      EXPECT_DOUBLE_EQ(f.start_us, 14.0);
      EXPECT_DOUBLE_EQ(f.dur_us, 15.0);
      EXPECT_DOUBLE_EQ(b.dur_us, 18.0);
      EXPECT_EQ(b.kernels, 1);
    }
  }
}

// Every flow as one arrow (the explorer's All Flows): the two launch flows, the fwdbwd start with
// no end and no lane left out; each end's event is the deepest one holding its time.
TEST(TraceFlows, PairsAndTheEventsHoldingTheirEnds) {
  auto t = import_chrome_trace_text(kTrace, "rank1.json");
  ASSERT_TRUE(t.ok()) << t.error().message;
  const auto pairs = flow_pairs(*t);
  ASSERT_EQ(pairs.size(), 2u);
  EXPECT_DOUBLE_EQ(pairs[0].from_us, 11.0);
  EXPECT_DOUBLE_EQ(pairs[0].to_us, 14.0);
  EXPECT_DOUBLE_EQ(pairs[1].from_us, 36.0);
  EXPECT_DOUBLE_EQ(pairs[1].to_us, 40.0);
  const TraceLane& cpu = t->lanes[static_cast<std::size_t>(pairs[0].from_lane)];
  const TraceLane& gpu = t->lanes[static_cast<std::size_t>(pairs[0].to_lane)];
  EXPECT_EQ(cpu.pid, "11");
  EXPECT_EQ(gpu.pid, "0");
  const auto name = [&](const TraceLane& l, std::int32_t i) {
    return t->names[static_cast<std::size_t>(l.events[static_cast<std::size_t>(i)].name)];
  };
  EXPECT_EQ(name(cpu, event_holding(cpu, 11.0)), "F1");
  EXPECT_EQ(name(cpu, event_holding(cpu, 36.0)), "B1");
  EXPECT_EQ(event_holding(cpu, 32.0), -1);  // between F1 and B1
  EXPECT_EQ(name(gpu, event_holding(gpu, 40.0)), "gemm_bwd");
}

}  // namespace
}  // namespace slimpack
