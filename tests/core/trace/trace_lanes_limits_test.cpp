// Regression for the input the lane_mapping fuzzer found: a stage beyond int was cast to a
// negative stage. The input is kept as tests/fuzz/seeds/lane_mapping/crash-stage-beyond-int.json.
#include <gtest/gtest.h>

#include <string>

#include "trace/trace_lanes.h"

namespace slimpack {
namespace {

TEST(TraceLanesLimits, FuzzerInputWithAStageBeyondIntIsRefused) {
  const std::string path = std::string(SLIMPACK_SOURCE_DIR) +
                           "/tests/fuzz/seeds/lane_mapping/crash-stage-beyond-int.json";
  auto m = read_lane_mapping(path);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message,
            path + ": $.lanes[1].stage: 922337203685477583 is out of range [0, 4095]");
}

TEST(TraceLanesLimits, StageAndReplicaRanges) {
  const auto error_of = [](const std::string& entry) {
    auto m = parse_lane_mapping(R"({"lanes": [)" + entry + "]}", "m.json");
    return m.ok() ? std::string("(read)") : m.error().message;
  };
  EXPECT_EQ(error_of(R"({"pid": 1, "tid": 1, "stage": 4095, "replica": 65535})"), "(read)");
  EXPECT_EQ(error_of(R"({"pid": 1, "tid": 1, "stage": 4096})"),
            "m.json: $.lanes[0].stage: 4096 is out of range [0, 4095]");
  EXPECT_EQ(error_of(R"({"pid": 1, "tid": 1, "stage": 0, "replica": 65536})"),
            "m.json: $.lanes[0].replica: 65536 is out of range [0, 65535]");
  // A pid beyond int64 keeps its digits (it used to wrap to a negative number).
  auto big = parse_lane_mapping(
      R"({"lanes": [{"pid": 18446744073709551615, "tid": 2, "stage": 1}]})", "m.json");
  ASSERT_TRUE(big.ok()) << big.error().message;
  EXPECT_EQ(big->stage_of_lane.count("18446744073709551615/2"), 1u);
}

}  // namespace
}  // namespace slimpack
