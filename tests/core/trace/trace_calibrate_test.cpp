// Calibrate from a trace: the round trip simulate -> Chrome trace export -> import -> map with the
// built-in rule -> fit must give back the coefficients the simulation was priced with, and the
// refitted model must reproduce every unit's duration.
#include "trace/trace_calibrate.h"

#include <gtest/gtest.h>

#include <cmath>

#include "cost/cost_model.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"
#include "trace/trace_import.h"

namespace slimpack {
namespace {

CostModel llama(int pp, int cp = 1, int vchunks = 1) {
  auto model = model_preset("llama-2-7b");
  auto gpu = gpu_preset("h100-sxm");
  EXPECT_TRUE(model.ok() && gpu.ok());
  ParallelConfig par;
  par.pp = pp;
  par.cp = cp;
  par.vchunks = vchunks;
  return CostModel(*model, *gpu, par);
}

// Packs whose token counts and attention pairs vary independently: one long sequence, several
// short ones of the same total, and mixes, on `dp` replicas.
using PackLengths = std::vector<std::vector<Tokens>>;

Plan varied_plan(
    int stages, int dp = 1,
    const PackLengths& packs = {
        {8192}, {2048, 2048, 2048, 2048}, {4096}, {1024, 6144}, {512, 512, 512}, {16384}}) {
  Plan plan;
  plan.stages = stages;
  for (int r = 0; r < dp; ++r) {
    ReplicaPlan rp;
    for (const auto& lengths : packs) {
      Pack p;
      for (Tokens len : lengths) {
        const auto seq = static_cast<SeqIndex>(plan.sequences.size());
        plan.sequences.push_back({"s" + std::to_string(seq), len * (r + 1)});
        p.segments.push_back({seq, 0, len * (r + 1)});
      }
      rp.forward.push_back(p);
      rp.backward.push_back(p);
    }
    plan.replicas.push_back(rp);
  }
  return plan;
}

ImportedTrace exported(const Plan& plan, const CostModel& cost) {
  auto sim = simulate(plan, &cost);
  EXPECT_TRUE(sim.ok()) << sim.error().message;
  auto trace = import_chrome_trace_text(chrome_trace_json(plan, *sim), "export.json");
  EXPECT_TRUE(trace.ok()) << trace.error().message;
  return std::move(*trace);
}

Expected<TraceCalibration> calibrate(const ImportedTrace& trace, const Plan& plan,
                                     const CostModel& cost) {
  auto rules = builtin_unit_rules("slimpack");
  EXPECT_TRUE(rules.ok());
  return calibrate_from_trace(trace, default_lane_mapping(trace), *rules, plan, cost);
}

void expect_coeffs_near(const PassCoeffs& got, const PassCoeffs& want) {
  EXPECT_NEAR(got.kappa, want.kappa, 1e-6 * std::abs(want.kappa) + 1e-12);
  EXPECT_NEAR(got.alpha, want.alpha, 1e-6 * std::abs(want.alpha) + 1e-15);
  EXPECT_NEAR(got.beta, want.beta, 1e-6 * std::abs(want.beta) + 1e-19);
}

TEST(TraceCalibrate, RoundTripOfOwnExportReproducesEveryUnit) {
  const CostModel cost = llama(2);
  const Plan plan = varied_plan(2);
  const ImportedTrace trace = exported(plan, cost);
  auto cal = calibrate(trace, plan, cost);
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  // 6 packs x 2 passes x 2 stages, each a sample of per-layer time.
  EXPECT_EQ(cal->units_used, 24);
  EXPECT_EQ(cal->units_skipped, 0);
  ASSERT_TRUE(cal->profile.forward && cal->profile.backward);
  expect_coeffs_near(cal->profile.forward->coeffs, cost.coeffs().forward);
  expect_coeffs_near(cal->profile.backward->coeffs, cost.coeffs().backward);
  EXPECT_LT(cal->mape, 1e-6);
  EXPECT_LT(cal->max_error, 1e-5);  // the export prints microseconds to finite precision
  EXPECT_NEAR(cal->profile.forward->r2, 1.0, 1e-9);
  EXPECT_EQ(cal->profile.device, cost.gpu().name);
  EXPECT_EQ(cal->profile.provenance, "trace export.json (rules slimpack)");

  // The refitted model, simulated again, prices every unit as measured.
  CostModel refit = cost;
  refit.set_coeffs(coeffs_from_profile(cal->profile, cost.coeffs()));
  for (const auto& rp : plan.replicas)
    for (int s = 0; s < plan.stages; ++s)
      for (const Pack& p : rp.forward)
        EXPECT_NEAR(refit.pack_time(Pass::Forward, s, p), cost.pack_time(Pass::Forward, s, p),
                    1e-6 * cost.pack_time(Pass::Forward, s, p));
}

TEST(TraceCalibrate, ScaledMeasurementsScaleTheCoefficients) {
  // A machine 1.5x slower than the model in every layer: the fit finds 1.5x every coefficient.
  const CostModel cost = llama(2);
  const Plan plan = varied_plan(2);
  CostModel slow = cost;
  CostCoeffs k = cost.coeffs();
  for (PassCoeffs* pc : {&k.forward, &k.backward}) {
    pc->kappa *= 1.5;
    pc->alpha *= 1.5;
    pc->beta *= 1.5;
  }
  slow.set_coeffs(k);
  const ImportedTrace trace = exported(plan, slow);
  auto cal = calibrate(trace, plan, cost);  // fitted against the plan's (unscaled) model
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  expect_coeffs_near(cal->profile.forward->coeffs, k.forward);
  expect_coeffs_near(cal->profile.backward->coeffs, k.backward);
  EXPECT_LT(cal->mape, 1e-6);
}

TEST(TraceCalibrate, RecomputedLayersAndReplicasAreInverted) {
  const CostModel cost = llama(4);
  Plan plan = varied_plan(4, 2);
  plan.recompute_layers = {8, 4, 2, 0};  // backward re-runs that many forward layers
  const ImportedTrace trace = exported(plan, cost);
  auto cal = calibrate(trace, plan, cost);
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  EXPECT_EQ(cal->units_used, 6 * 2 * 4 * 2);
  expect_coeffs_near(cal->profile.forward->coeffs, cost.coeffs().forward);
  expect_coeffs_near(cal->profile.backward->coeffs, cost.coeffs().backward);
  EXPECT_LT(cal->max_error, 1e-5);
}

TEST(TraceCalibrate, VirtualChunksOfAPackAreOneUnit) {
  // Interleaved 1F1B: each pack runs twice per stage (chunks of half the layers), two "F3"
  // events on one lane; their sum is the stage's unit.
  const CostModel cost = llama(2, 1, 2);
  Plan plan = varied_plan(2);
  plan.schedule = ScheduleKind::Interleaved;
  plan.vchunks = 2;
  const ImportedTrace trace = exported(plan, cost);
  auto cal = calibrate(trace, plan, cost);
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  EXPECT_EQ(cal->units_used, 24);  // not 48: chunks are summed
  expect_coeffs_near(cal->profile.forward->coeffs, cost.coeffs().forward);
  expect_coeffs_near(cal->profile.backward->coeffs, cost.coeffs().backward);
  EXPECT_LT(cal->max_error, 1e-5);
}

TEST(TraceCalibrate, ContextParallelTokensArePerRank) {
  const CostModel cost = llama(2, 2);
  const Plan plan = varied_plan(2);
  auto cal = calibrate(exported(plan, cost), plan, cost);
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  // Samples hold each CP rank's share: the 8192-token pack is 4096 tokens per rank.
  EXPECT_EQ(cal->profile.samples.front().tokens, 4096.0);
  EXPECT_LT(cal->mape, 1e-3);  // the ring's overlap is priced with the model's own beta
}

TEST(TraceCalibrate, AnotherPlanOrTooFewUnitsAreErrors) {
  const CostModel cost = llama(2);
  const Plan plan = varied_plan(2);
  const ImportedTrace trace = exported(plan, cost);
  // A plan with no packs at the measured numbers: every unit is skipped.
  Plan empty = plan;
  empty.replicas[0].forward.clear();
  empty.replicas[0].backward.clear();
  auto none = calibrate(trace, empty, cost);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("no measured unit"), std::string::npos)
      << none.error().message;
  EXPECT_EQ(none.error().message.rfind("export.json: ", 0), 0u) << none.error().message;

  // Packs of one shape cannot tell kappa, alpha and beta apart.
  const Plan two = varied_plan(2, 1, {{4096}, {4096}, {4096}});
  auto few = calibrate(exported(two, cost), two, cost);
  ASSERT_FALSE(few.ok());
  EXPECT_NE(few.error().message.find("forward units"), std::string::npos) << few.error().message;

  // Explicit-time plans are not priced by the model: nothing to calibrate.
  Plan timed = plan;
  for (auto& p : timed.replicas[0].forward) p.time = 1.0;
  for (auto& p : timed.replicas[0].backward) p.time = 2.0;
  auto explicit_times = calibrate(trace, timed, cost);
  ASSERT_FALSE(explicit_times.ok());
  EXPECT_NE(explicit_times.error().message.find("explicit times"), std::string::npos);
}

}  // namespace
}  // namespace slimpack
