// The wait PyTorch's pipeline runtime does inside a unit's range: the part before the range's
// first nested event is the unit's receive, and the unit starts where its work starts.
#include "trace/unit_waits.h"

#include <gtest/gtest.h>

#include "trace/trace_lanes.h"

namespace slimpack {
namespace {

// One thread: PP:1F0 [100, 200) whose first operator starts at 130; PP:1B0 [200, 250) working at
// once; a split backward of micro-batch 1, I [300, 340) first operator at 310 and W [340, 360)
// first operator at 345: only the I (the first event of the unit) receives.
constexpr const char* kTrace = R"({"traceEvents": [
  {"ph": "X", "name": "PP:1F0", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
  {"ph": "X", "name": "aten::linear", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 130, "dur": 60},
  {"ph": "X", "name": "PP:1B0", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 200, "dur": 50},
  {"ph": "X", "name": "aten::mm", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 200, "dur": 40},
  {"ph": "X", "name": "PP:1I1", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 300, "dur": 40},
  {"ph": "X", "name": "aten::mm", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 310, "dur": 20},
  {"ph": "X", "name": "PP:1W1", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 340, "dur": 20},
  {"ph": "X", "name": "aten::mm", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 345, "dur": 10},
  {"ph": "X", "name": "PP:1F2", "cat": "user_annotation", "pid": 1, "tid": 1, "ts": 400, "dur": 10}
]})";

TEST(UnitWaits, TheRangeBeforeItsFirstOperatorIsTheReceive) {
  auto trace = import_chrome_trace_text(kTrace, "rank1.json");
  ASSERT_TRUE(trace) << trace.error().message;
  LaneMapping lanes;
  lanes.stage_of_lane[lane_key("1", "1")] = 1;
  auto rules = builtin_unit_rules("torch-pp");
  ASSERT_TRUE(rules) << rules.error().message;
  auto units = map_trace_units(*trace, lanes, *rules);
  ASSERT_TRUE(units) << units.error().message;
  ASSERT_EQ(units->units.size(), 5u);
  const MappedTrace waits = split_leading_waits({&*trace}, *units);
  ASSERT_EQ(waits.units.size(), 2u);  // F0's and the split backward's I
  auto find = [](const MappedTrace& m, Pass pass, int pack, double start) -> const MeasuredUnit* {
    for (const MeasuredUnit& u : m.units)
      if (u.pass == pass && u.pack == pack && u.start_us == start) return &u;
    return nullptr;
  };
  const MeasuredUnit* f0_wait = find(waits, Pass::Forward, 0, 100.0);
  ASSERT_TRUE(f0_wait);
  EXPECT_DOUBLE_EQ(f0_wait->dur_us, 30.0);
  const MeasuredUnit* f0 = find(*units, Pass::Forward, 0, 130.0);
  ASSERT_TRUE(f0);
  EXPECT_DOUBLE_EQ(f0->dur_us, 70.0);
  EXPECT_TRUE(find(*units, Pass::Backward, 0, 200.0));  // worked at once: unchanged
  const MeasuredUnit* i1_wait = find(waits, Pass::Backward, 1, 300.0);
  ASSERT_TRUE(i1_wait);
  EXPECT_DOUBLE_EQ(i1_wait->dur_us, 10.0);
  EXPECT_TRUE(find(*units, Pass::Backward, 1, 340.0));  // the W keeps its range
  EXPECT_TRUE(find(*units, Pass::Forward, 2, 400.0));   // nothing nested: unchanged
}

}  // namespace
}  // namespace slimpack
