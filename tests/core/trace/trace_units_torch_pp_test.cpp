// The built-in rule set "torch-pp": PyTorch's pipeline runtime names each action's profiler
// range "PP:<action>" (schedules.py: _get_profiler_function_name). Compute ranges are units of
// their micro-batch (counted from 0), I and W both backward work; communication and the other
// actions, Kineto's GPU copy and our own "F3" names are not units.
#include <gtest/gtest.h>

#include <algorithm>

#include "trace/trace_units.h"

namespace slimpack {
namespace {

ImportedTrace import_text(const std::string& json) {
  auto t = import_chrome_trace_text(json, "rank0.json");
  EXPECT_TRUE(t.ok()) << t.error().message;
  return t.ok() ? *t : ImportedTrace{};
}

TEST(TraceUnitsTorchPP, ComputeRangesAreUnits) {
  const std::string json = R"J({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "PP:0UNSHARD", "pid": 1, "tid": 1, "ts": 0, "dur": 1},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0F3", "pid": 1, "tid": 1, "ts": 1, "dur": 10},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0SEND_F3", "pid": 1, "tid": 1, "ts": 11, "dur": 1},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0RECV_B2", "pid": 1, "tid": 1, "ts": 12, "dur": 1},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0B2", "pid": 1, "tid": 1, "ts": 13, "dur": 20},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0I1", "pid": 1, "tid": 1, "ts": 33, "dur": 7},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0W1", "pid": 1, "tid": 1, "ts": 40, "dur": 5},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0WAIT_SEND_F3", "pid": 1, "tid": 1, "ts": 45, "dur": 1},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0REDUCE_GRAD", "pid": 1, "tid": 1, "ts": 46, "dur": 1},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "PP:0F3", "pid": 0, "tid": 7, "ts": 2, "dur": 9},
    {"ph": "X", "cat": "user_annotation", "name": "F3", "pid": 1, "tid": 1, "ts": 50, "dur": 1},
    {"ph": "X", "cat": "user_annotation", "name": "PP:0F30 grad", "pid": 1, "tid": 1, "ts": 52, "dur": 1}
  ]})J";
  const ImportedTrace trace = import_text(json);
  auto rules = builtin_unit_rules("torch-pp");
  ASSERT_TRUE(rules.ok()) << rules.error().message;
  ASSERT_TRUE(validate_unit_rules(*rules));
  auto mapped = map_trace_units(trace, rank_lane_mapping(trace, 0, 0), *rules);
  ASSERT_TRUE(mapped.ok()) << mapped.error().message;
  ASSERT_EQ(mapped->units.size(), 4u);
  // Sorted by pass, then pack: F3; B1 (I), B1 (W), B2.
  EXPECT_EQ(mapped->units[0].pass, Pass::Forward);
  EXPECT_EQ(mapped->units[0].pack, 3);
  EXPECT_DOUBLE_EQ(mapped->units[0].dur_us, 10.0);
  EXPECT_EQ(mapped->name_of(mapped->units[0]), "PP:0F3");
  EXPECT_EQ(mapped->units[1].pass, Pass::Backward);
  EXPECT_EQ(mapped->units[1].pack, 1);
  EXPECT_EQ(mapped->units[2].pack, 1);
  EXPECT_DOUBLE_EQ(mapped->units[1].dur_us + mapped->units[2].dur_us, 12.0);
  EXPECT_EQ(mapped->units[3].pack, 2);
  EXPECT_DOUBLE_EQ(mapped->units[3].dur_us, 20.0);
}

TEST(TraceUnitsTorchPP, IsBuiltIn) {
  const auto& names = builtin_unit_rule_set_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "torch-pp"), names.end());
  auto rules = builtin_unit_rules("torch-pp");
  ASSERT_TRUE(rules.ok());
  // The rules file form reads back the same set.
  auto back = parse_unit_rules(unit_rules_to_json(*rules), "torch-pp.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->rules.size(), 2u);
  EXPECT_EQ(back->rules[0].pack_base, 0);
  EXPECT_EQ(back->name, "torch-pp");
}

TEST(TraceUnitsTorchPP, OurNamesAreNoMatch) {
  const ImportedTrace trace = import_text(
      R"J([{"ph": "X", "cat": "user_annotation", "name": "F1", "pid": 0, "tid": 0, "ts": 0, "dur": 1}])J");
  auto mapped =
      map_trace_units(trace, rank_lane_mapping(trace, 0, 0), *builtin_unit_rules("torch-pp"));
  ASSERT_FALSE(mapped.ok());
  EXPECT_NE(mapped.error().message.find("no event matches the rules of 'torch-pp'"),
            std::string::npos)
      << mapped.error().message;
}

}  // namespace
}  // namespace slimpack
