// Peak memory per stage (the accounting documented in docs/file-formats-plan.md) and rule L4.
#include <gtest/gtest.h>

#include "plan/legality.h"
#include "plan_builders.h"

namespace slimpack {
namespace {

using test::merged;
using test::pack;
using test::seg;

MemoryModel model(std::vector<double> fixed, std::vector<double> act, std::vector<double> dkdv,
                  double cap = 0.0) {
  return MemoryModel{std::move(fixed), std::move(act), std::move(dkdv), cap};
}

// X (8 tokens) in slices [0,4) and [4,8); a has 2 tokens. p = 2, w = 1.
// F1 = X[0,4); F2 = X[4,8) + a; B1 = X[4,8) + a; B2 = X[0,4).
Plan sliced_plan() {
  return test::make_plan(
      2, {{"X", 8}, {"a", 2}}, {pack({seg(0, 0, 4)}), pack({seg(0, 4, 8), seg(1, 0, 2)})},
      {pack({seg(0, 4, 8), seg(1, 0, 2)}), pack({seg(0, 0, 4)})}, ScheduleKind::OneFOneB, 1);
}

TEST(PeakMemory, HandComputedSlicedPlan) {
  // Both stages run F1 F2 B1 B2 (stage 0 warms up with 2, stage 1 with 1 + 1 forward).
  // Stage 0 (act 10/token, dK/dV 1/prefix token): F1 -> 40, F2 -> 100, B1: X's accumulator becomes
  // 1 * 4 = 4 while its activations are still held -> 104, then frees 60; B2: accumulator 0 -> 40.
  // Stage 1 (act 20, dK/dV 2): 80, 200, 200 + 8 = 208, then 80.
  const auto peaks = peak_memory_per_stage(sliced_plan(), 0, model({100, 50}, {10, 20}, {1, 2}));
  ASSERT_EQ(peaks.size(), 2u);
  EXPECT_DOUBLE_EQ(peaks[0], 204.0);
  EXPECT_DOUBLE_EQ(peaks[1], 258.0);
}

TEST(PeakMemory, UnslicedSequencesKeepNoAccumulator) {
  Plan p = sliced_plan();
  p.replicas[0].backward = {pack({seg(1, 0, 2)}), pack({seg(0, 0, 8)})};
  // Stage 0: F1 40, F2 100, B1 (a) 100 then 80, B2 80: no dK/dV term for a one-segment backward.
  const auto peaks = peak_memory_per_stage(p, 0, model({0, 0}, {10, 20}, {1000, 1000}));
  EXPECT_DOUBLE_EQ(peaks[0], 100.0);
  EXPECT_DOUBLE_EQ(peaks[1], 200.0);
}

Plan analytic(ScheduleKind kind) {
  std::vector<Sequence> seqs;
  std::vector<Pack> f, b;
  for (int i = 0; i < 8; ++i) {
    seqs.push_back({"u" + std::to_string(i), 4096});
    f.push_back(pack({seg(i, 0, 4096)}, 1.0));
    b.push_back(pack({seg(i, 0, 4096)}, 2.0));
  }
  return test::make_plan(4, seqs, f, b, kind);
}

TEST(PeakMemory, OneFOneBHoldsAtMostPPacksOnTheFirstStage) {
  const MemoryModel m = model({0, 0, 0, 0}, {1, 1, 1, 1}, {0, 0, 0, 0});
  // Stage s holds p - s packs at most under 1F1B; GPipe holds all eight everywhere.
  EXPECT_EQ(peak_memory_per_stage(analytic(ScheduleKind::OneFOneB), 0, m),
            (std::vector<double>{4 * 4096.0, 3 * 4096.0, 2 * 4096.0, 4096.0}));
  EXPECT_EQ(peak_memory_per_stage(analytic(ScheduleKind::GPipe), 0, m),
            (std::vector<double>(4, 8 * 4096.0)));
}

TEST(PeakMemory, InterleavedChunksHoldAShareOfTheStage) {
  Plan p =
      test::make_plan(2, {{"a", 10}, {"b", 10}}, {pack({seg(0, 0, 10)}), pack({seg(1, 0, 10)})},
                      {pack({seg(0, 0, 10)}), pack({seg(1, 0, 10)})}, ScheduleKind::Interleaved);
  p.vchunks = 2;
  // M = p = 2: every stage runs all four (pack, chunk) forwards first, each holding half the
  // stage's layers: 4 ops * 10 tokens * 2 / 2 = 40, the same as both packs on a plain stage.
  const auto peaks = peak_memory_per_stage(p, 0, model({5, 5}, {2, 2}, {0, 0}));
  EXPECT_DOUBLE_EQ(peaks[0], 45.0);
  EXPECT_DOUBLE_EQ(peaks[1], 45.0);
}

TEST(PeakMemory, DpMergedSegmentsCountThisReplicasShard) {
  Plan p;
  p.stages = 1;
  p.sequences = {{"X", 4097}};
  p.replicas.push_back({{pack({merged(0, 0, 4097, 2, 0)})}, {pack({merged(0, 0, 4097, 2, 0)})}});
  p.replicas.push_back({{pack({merged(0, 0, 4097, 2, 1)})}, {pack({merged(0, 0, 4097, 2, 1)})}});
  const MemoryModel m = model({0}, {1}, {0});
  EXPECT_DOUBLE_EQ(peak_memory_per_stage(p, 0, m)[0], 2049.0);
  EXPECT_DOUBLE_EQ(peak_memory_per_stage(p, 1, m)[0], 2048.0);
  EXPECT_TRUE(check_legality(p).legal()) << check_legality(p).summary();
}

TEST(PeakMemory, L4NamesStageAndBytes) {
  LegalityOptions options;
  MemoryModel m = model({100, 50}, {10, 20}, {1, 2}, 258.0);
  options.memory = &m;
  EXPECT_TRUE(check_legality(sliced_plan(), options).legal());
  m.capacity_bytes = 250.0;
  const auto report = check_legality(sliced_plan(), options);
  ASSERT_EQ(report.violations.size(), 1u);
  EXPECT_EQ(report.violations[0].rule, Rule::L4);
  EXPECT_EQ(report.violations[0].stage, 1);
  // The numbers as values (what compare rows and the explorer show) and in words, through the one
  // formatter (core/common/format.h), with the overshoot so that two close figures still differ.
  EXPECT_DOUBLE_EQ(report.violations[0].needed, 258.0);
  EXPECT_DOUBLE_EQ(report.violations[0].cap, 250.0);
  EXPECT_EQ(report.summary(), "L4: stage 1 needs 258 B at its peak, 8 B over the cap of 250 B");
  m.capacity_bytes = 0.0;  // unlimited
  EXPECT_TRUE(check_legality(sliced_plan(), options).legal());
  m.capacity_bytes = 1.0;
  m.static_bytes = {1.0};  // wrong stage count
  EXPECT_EQ(check_legality(sliced_plan(), options).summary(),
            "structure: the memory model describes 1 stages but the plan has 2");
}

}  // namespace
}  // namespace slimpack
