#include <gtest/gtest.h>

#include "sim/result_json.h"
#include "sim/simulator.h"
#include "sim_test_plans.h"

namespace slimpack {
namespace {

TEST(SimResultJson, KeysAndValues) {
  const Plan plan = test::uniform_plan(4, 8, 1.0, 2.0);
  auto res = simulate(plan, nullptr, {});
  ASSERT_TRUE(res.ok()) << res.error().message;
  const nlohmann::json j = sim_result_to_json(plan, *res, false);
  for (const char* key :
       {"makespan", "bubble_ratio", "iteration_time", "tokens_per_second", "mfu", "legal",
        "peak_memory_bytes", "time_unit", "replicas", "stages", "critical_path", "pipeline"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_DOUBLE_EQ(j["makespan"].get<double>(), 33.0);
  EXPECT_DOUBLE_EQ(j["bubble_ratio"].get<double>(), 3.0 / 11.0);
  EXPECT_EQ(j["time_unit"].get<std::string>(), "units");
  EXPECT_TRUE(j["legal"].get<bool>());
  ASSERT_EQ(j["stages"].size(), 4u);
  for (const auto& st : j["stages"]) {
    EXPECT_DOUBLE_EQ(st["busy"].get<double>(), 24.0);
    EXPECT_DOUBLE_EQ(st["bubble_ratio"].get<double>(), 1.0 - 24.0 / 33.0);
    EXPECT_TRUE(st.contains("peak_memory_bytes"));
  }
  ASSERT_EQ(j["replicas"].size(), 1u);
  const auto& r0 = j["replicas"][0];
  for (const char* key : {"makespan", "finish", "stages", "critical_path"})
    EXPECT_TRUE(r0.contains(key)) << key;
  EXPECT_EQ(r0["stages"].size(), 4u);
  EXPECT_FALSE(r0["stages"][0].contains("ops"));
  for (const char* key : {"compute", "comm", "idle"})
    EXPECT_TRUE(j["critical_path"].contains(key)) << key;
  EXPECT_DOUBLE_EQ(j["critical_path"]["compute"].get<double>(), 33.0);
}

TEST(SimResultJson, OpsIncludedOnRequest) {
  const Plan plan = test::uniform_plan(2, 2, 1.0, 2.0);
  auto res = simulate(plan, nullptr, {});
  ASSERT_TRUE(res.ok());
  const nlohmann::json j = sim_result_to_json(plan, *res, true);
  const auto& ops = j["replicas"][0]["stages"][0]["ops"];
  ASSERT_EQ(ops.size(), 5u);  // F1 F2 B1 B2 + optimizer
  EXPECT_EQ(ops[0]["kind"].get<std::string>(), "forward");
  EXPECT_EQ(ops[0]["pack"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(ops[0]["end"].get<double>(), 1.0);
  EXPECT_EQ(j["replicas"][0]["stages"][0]["comm"].size(), 2u);
}

}  // namespace
}  // namespace slimpack
