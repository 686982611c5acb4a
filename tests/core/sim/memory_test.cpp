// Memory timeline: same accounting as peak_memory_per_stage(), at simulated times.
#include <gtest/gtest.h>

#include <algorithm>

#include "plan/legality.h"
#include "sim/simulator.h"
#include "sim_test_plans.h"

namespace slimpack {
namespace {

MemoryModel flat_memory(int stages, double base, double act, double dkdv) {
  MemoryModel m;
  m.static_bytes.assign(static_cast<std::size_t>(stages), base);
  m.activation_per_token.assign(static_cast<std::size_t>(stages), act);
  m.dkdv_per_context_token.assign(static_cast<std::size_t>(stages), dkdv);
  return m;
}

SimResult run(const Plan& plan, const MemoryModel& memory) {
  SimOptions o;
  o.check_legality = true;
  o.memory = &memory;
  auto res = simulate(plan, nullptr, o);
  EXPECT_TRUE(res.ok()) << (res.ok() ? "" : res.error().message);
  return res.ok() ? *res : SimResult{};
}

void expect_well_formed(const StageResult& st, double base) {
  ASSERT_FALSE(st.memory.empty());
  EXPECT_DOUBLE_EQ(st.memory.front().time, 0.0);
  EXPECT_DOUBLE_EQ(st.memory.front().bytes, base);
  EXPECT_DOUBLE_EQ(st.memory.back().bytes, base);  // everything freed at the end
  EXPECT_TRUE(
      std::is_sorted(st.memory.begin(), st.memory.end(),
                     [](const MemoryPoint& a, const MemoryPoint& b) { return a.time < b.time; }));
  double max_bytes = 0.0;
  for (const MemoryPoint& p : st.memory) max_bytes = std::max(max_bytes, p.bytes);
  EXPECT_DOUBLE_EQ(max_bytes, st.peak_memory_bytes);
}

// Both stages run F1 F2 B1 B2 B3 with 10 bytes/token and 1 byte per dK/dV context token:
// F1 +20 -> 20, F2 +40 -> 60, B1 sets long's accumulator to 1 * 2 (prefix [0,2)) -> 62 (peak),
// frees 20 -> 40 + 2, B2 clears the accumulator (prefix 0) -> 40, frees 20, B3 frees 20.
TEST(SimMemory, HandExampleMatchesChecker) {
  const Plan plan = test::asymmetric_plan();
  const MemoryModel mem = flat_memory(2, 100.0, 10.0, 1.0);
  const SimResult r = run(plan, mem);
  const std::vector<double> expected = peak_memory_per_stage(plan, 0, mem);
  for (std::size_t s = 0; s < 2; ++s) {
    const StageResult& st = r.replicas[0].stages[s];
    EXPECT_DOUBLE_EQ(st.peak_memory_bytes, 162.0);
    EXPECT_DOUBLE_EQ(st.peak_memory_bytes, expected[s]);
    expect_well_formed(st, 100.0);
  }
  EXPECT_DOUBLE_EQ(r.peak_memory_bytes, 162.0);
  // Stage 1's B1 runs [5,7]: 162 from 5, 142 from 7.
  const auto& m1 = r.replicas[0].stages[1].memory;
  const auto at5 = std::find_if(
      m1.begin(), m1.end(), [](const MemoryPoint& p) { return p.time == 5.0 && p.bytes == 162.0; });
  EXPECT_NE(at5, m1.end());
  const auto at7 = std::find_if(
      m1.begin(), m1.end(), [](const MemoryPoint& p) { return p.time == 7.0 && p.bytes == 142.0; });
  EXPECT_NE(at7, m1.end());
}

// 1F1B holds p - s packs in flight on stage s (+ w more on every stage with extra warm-up).
TEST(SimMemory, OneFOneBInFlightPacks) {
  const MemoryModel mem = flat_memory(4, 0.0, 1.0, 0.0);
  for (int w : {0, 2}) {
    const Plan plan = test::uniform_plan(4, 8, 1.0, 2.0, ScheduleKind::OneFOneB, w);
    const SimResult r = run(plan, mem);
    const std::vector<double> expected = peak_memory_per_stage(plan, 0, mem);
    for (int s = 0; s < 4; ++s) {
      const StageResult& st = r.replicas[0].stages[static_cast<std::size_t>(s)];
      EXPECT_DOUBLE_EQ(st.peak_memory_bytes, 8.0 * std::min(8, 4 - s + w)) << "w=" << w;
      EXPECT_DOUBLE_EQ(st.peak_memory_bytes, expected[static_cast<std::size_t>(s)]);
      expect_well_formed(st, 0.0);
    }
  }
}

TEST(SimMemory, InterleavedMatchesChecker) {
  const Plan plan = test::uniform_plan(2, 4, 1.0, 2.0, ScheduleKind::Interleaved, 0, 2);
  const MemoryModel mem = flat_memory(2, 5.0, 3.0, 0.0);
  const SimResult r = run(plan, mem);
  const std::vector<double> expected = peak_memory_per_stage(plan, 0, mem);
  for (std::size_t s = 0; s < 2; ++s) {
    EXPECT_DOUBLE_EQ(r.replicas[0].stages[s].peak_memory_bytes, expected[s]);
    expect_well_formed(r.replicas[0].stages[s], 5.0);
  }
}

TEST(SimMemory, NoModelNoTimeline) {
  auto res = simulate(test::uniform_plan(2, 2, 1.0, 2.0), nullptr, {});
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_TRUE(res->replicas[0].stages[0].memory.empty());
  EXPECT_DOUBLE_EQ(res->peak_memory_bytes, 0.0);
}

TEST(SimMemory, PeaksWithoutPoints) {
  const MemoryModel mem = flat_memory(2, 100.0, 10.0, 1.0);
  SimOptions o;
  o.memory = &mem;
  o.memory_timeline = false;
  auto res = simulate(test::asymmetric_plan(), nullptr, o);
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_TRUE(res->replicas[0].stages[0].memory.empty());
  EXPECT_DOUBLE_EQ(res->replicas[0].stages[0].peak_memory_bytes, 162.0);
}

}  // namespace
}  // namespace slimpack
