// An automatic choice is never beaten by a value the user can pick: auto S is at most every point
// of the explorer's slice-size sweep (the same sweep_point() the chart and `slimpack sweep` use),
// and on small batches auto packs are at most every explicit `--packs M`. The solve says what it
// compared.
#include <gtest/gtest.h>

#include "app/scenario.h"
#include "app/sweep.h"

namespace slimpack {
namespace {

struct Case {
  const char* preset;
  Tokens batch_tokens;  // 0 = the preset's default (1M)
  int batch_count;      // 0 = by tokens
  int pp;
  int tp;
  double cap_gb;  // 0 = the GPU's memory
};

Batch batch_of(const Case& c) {
  WorkloadSpec w;
  w.preset = c.preset;
  w.seed = kDefaultSeed;
  if (c.batch_tokens > 0) w.batch_tokens = c.batch_tokens;
  if (c.batch_count > 0) w.batch_count = c.batch_count, w.batch_tokens = 0;
  auto pool = load_pool(w);
  EXPECT_TRUE(pool.ok());
  auto batch = make_batch(**pool, w);
  EXPECT_TRUE(batch.ok());
  return *batch;
}

ConfigSpec config_of(const Case& c) {
  ConfigSpec config;
  config.pp = c.pp;
  config.tp = c.tp;
  config.memory_cap_gb = c.cap_gb;
  return config;
}

// One solve and simulation as the explorer's jobs and the CLI make it.
SweepPoint point(const Batch& batch, const ConfigSpec& config) {
  auto inputs = make_run_inputs(config, batch, kDefaultSeed);
  EXPECT_TRUE(inputs.ok()) << inputs.error().message;
  auto pt = sweep_point("auto", config.strategy, batch, *inputs);
  EXPECT_TRUE(pt.ok()) << pt.error().message;
  return *pt;
}

Tokens longest(const Batch& batch) {
  Tokens most = 0;
  for (const Sequence& s : batch.sequences) most = std::max(most, s.length);
  return most;
}

class AutoSlice : public ::testing::TestWithParam<Case> {};

TEST_P(AutoSlice, IsAtMostEverySweptSliceSize) {
  const Case c = GetParam();
  const Batch batch = batch_of(c);
  const ConfigSpec config = config_of(c);
  const SweepPoint automatic = point(batch, config);
  ASSERT_TRUE(automatic.ok) << automatic.error;
  SweepRequest req{batch, config, kDefaultSeed, default_slice_sizes(longest(batch))};
  auto swept = run_sweep(req, CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(swept.ok()) << swept.error().message;
  ASSERT_GE(swept->size(), 2u);
  for (const SweepPoint& p : *swept)
    if (p.ok) {
      EXPECT_LE(automatic.iteration_time, p.iteration_time * (1 + 1e-12))
          << c.preset << " S=" << p.slice_size;
    }
}

// The default workload (the 9.31 s at S = 1024 against 9.51 s for auto), memory caps of
// 25 and 45 GB, p = 2, and other presets.
INSTANTIATE_TEST_SUITE_P(DefaultAndPresets, AutoSlice,
                         ::testing::Values(Case{"long-sft-128k", 0, 0, 4, 8, 0.0},
                                           Case{"long-sft-128k", 0, 0, 4, 8, 25.0},
                                           Case{"long-sft-128k", 0, 0, 4, 8, 45.0},
                                           Case{"long-sft-128k", 0, 0, 2, 8, 0.0},
                                           Case{"chat-sft", 0, 0, 4, 8, 0.0},
                                           Case{"long-256k", 0, 0, 4, 8, 0.0},
                                           Case{"short-heavy-tail", 0, 0, 4, 8, 0.0}));

class AutoPacks : public ::testing::TestWithParam<Case> {};

TEST_P(AutoPacks, IsAtMostEveryExplicitPackCountOnASmallBatch) {
  const Case c = GetParam();
  const Batch batch = batch_of(c);
  ConfigSpec config = config_of(c);
  const SweepPoint automatic = point(batch, config);
  ASSERT_TRUE(automatic.ok) << automatic.error;
  for (int m = 1; m <= 32; ++m) {
    config.packs = m;
    const SweepPoint fixed = point(batch, config);
    if (fixed.ok) {
      EXPECT_LE(automatic.iteration_time, fixed.iteration_time * (1 + 1e-12))
          << c.preset << " --packs " << m;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SmallBatches, AutoPacks,
                         ::testing::Values(Case{"long-sft-128k", 0, 9, 4, 8, 0.0},
                                           Case{"uniform", 0, 9, 4, 8, 0.0},
                                           Case{"long-256k", 0, 9, 4, 8, 0.0},
                                           Case{"chat-sft", 0, 24, 4, 8, 0.0},
                                           Case{"short-heavy-tail", 65536, 0, 2, 8, 0.0}));

TEST(AutoChoice, TheSolveSaysWhatItCompared) {
  const Case c{"long-sft-128k", 0, 9, 4, 8, 0.0};
  const Batch batch = batch_of(c);
  auto inputs = make_run_inputs(config_of(c), batch, kDefaultSeed);
  ASSERT_TRUE(inputs.ok());
  SolveInput in{batch, inputs->cost.get(), inputs->params};
  auto automatic = solve("slimpack", in);
  ASSERT_TRUE(automatic.ok()) << automatic.error().message;
  const std::vector<Tokens> sizes = default_slice_sizes(longest(batch));
  EXPECT_EQ(automatic->stats.compared, "S = 512.." + std::to_string(sizes.back()) + " (" +
                                           std::to_string(sizes.size()) +
                                           " sizes), packs balanced and 1..32");
  in.params.slice_size = 2048;
  auto fixed_s = solve("slimpack", in);
  ASSERT_TRUE(fixed_s.ok());
  EXPECT_EQ(fixed_s->stats.compared, "packs balanced and 1..32");
  in.params.packs = 4;
  auto fixed = solve("slimpack", in);
  ASSERT_TRUE(fixed.ok());
  EXPECT_EQ(fixed->stats.compared, "");
}

}  // namespace
}  // namespace slimpack
