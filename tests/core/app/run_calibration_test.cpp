// core/app's "calibrate from a run" (run_calibration.h) on a run of the tiny-model schedule
// samples/schedules/tiny-p4.schedule.json, whose rank traces are generated from its own
// simulation on a "machine" with other coefficients (tests/common/rank_trace_generator.h). The
// schedule's setup prices it whatever configuration the caller holds (the explorer's panel says
// Llama-3-8B on H100), a run at another scale is refused as not a run of the plan, and a run of
// the plan whose first units paid a warm-up is refused for its scatter, not as another plan's.
#include "app/run_calibration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "../../common/rank_trace_generator.h"
#include "app/schedule_input.h"
#include "app/trace_report.h"
#include "sim/simulator.h"

namespace slimpack {
namespace {

namespace fs = std::filesystem;

const std::string kSchedule =
    std::string(SLIMPACK_SAMPLES_DIR) + "/schedules/tiny-p4.schedule.json";

class RunCalibrationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("slimpack-run-calibration-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto loaded = load_schedule_file(kSchedule);
    ASSERT_TRUE(loaded.ok()) << loaded.error().message;
    schedule_ = std::move(*loaded);
    // What the explorer's Configuration panel holds beside the schedule: its defaults.
    auto panel = trace_cost_model(*schedule_.plan, ConfigSpec{});
    ASSERT_TRUE(panel.ok());
    panel_cost_ = *panel;
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The run's traces: the plan simulated on a machine whose coefficients are `scale` times the
  // schedule's (forward kappa 1.3 times more); `warm_up` times longer first six units on each
  // stage, every later unit shifted by the difference.
  TraceRun run_on_machine(double scale, double warm_up = 1.0) {
    CostModel machine = *schedule_.cost;
    CostCoeffs k = machine.coeffs();
    for (PassCoeffs* p : {&k.forward, &k.backward}) {
      p->kappa *= scale;
      p->alpha *= scale;
      p->beta *= scale;
    }
    k.forward.kappa *= 1.3;
    machine.set_coeffs(k);
    auto sim = simulate(*schedule_.plan, &machine);
    EXPECT_TRUE(sim.ok());
    machine_makespan_ = sim->makespan;
    machine_mfu_ = sim->mfu;
    for (auto& replica : sim->replicas)
      for (auto& stage : replica.stages) {
        double shift = 0.0;
        int units = 0;
        for (TimedOp& op : stage.ops) {
          op.start += shift;
          op.end += shift;
          if (units < 6 && (op.kind == OpKind::Forward || op.kind == OpKind::Backward)) {
            const double extra = (warm_up - 1.0) * op.duration();
            op.end += extra;
            shift += extra;
            ++units;
          }
        }
      }
    const auto files = testing::write_rank_traces(*sim, testing::TraceStyle::Kineto, dir_.string());
    request_.files = files;
    auto run = load_trace_run(request_);
    EXPECT_TRUE(run.ok()) << run.error().message;
    return std::move(*run);
  }

  fs::path dir_;
  LoadedSchedule schedule_;
  std::shared_ptr<const CostModel> panel_cost_;
  TraceRunRequest request_;
  double machine_makespan_ = 0.0;  // the plan on the machine, without warm-up
  double machine_mfu_ = 0.0;
};

TEST_F(RunCalibrationTest, ATinyModelRunIsPricedByItsSchedule) {
  auto pricing = run_pricing(*schedule_.plan, kSchedule, ConfigSpec{}, panel_cost_);
  ASSERT_TRUE(pricing.ok()) << pricing.error().message;
  EXPECT_TRUE(pricing->by_schedule);
  EXPECT_EQ(pricing->cost->model().name, "tiny-8x256");
  EXPECT_EQ(pricing->label, "the schedule's setup (tiny-8x256 on cpu-core-fp64-flops, tp 1)");

  const TraceRun run = run_on_machine(1.2);
  const std::string profile = (dir_ / "profile.json").string();
  auto cal = calibrate_run(run, request_, *schedule_.plan, *pricing, {.profile_out = profile});
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  EXPECT_EQ(cal->mismatch, "");
  EXPECT_TRUE(cal->review.acceptable) << cal->review.problem;
  EXPECT_TRUE(cal->written);
  EXPECT_TRUE(fs::exists(profile));
  EXPECT_LT(cal->calibration.mape, 1e-6);
  const CostCoeffs& base = schedule_.cost->coeffs();
  EXPECT_NEAR(cal->calibration.profile.forward->coeffs.kappa, base.forward.kappa * 1.2 * 1.3,
              1e-4 * base.forward.kappa);
  EXPECT_NEAR(cal->calibration.profile.backward->coeffs.alpha, base.backward.alpha * 1.2,
              1e-4 * base.backward.alpha);

  // Priced by the tiny model on its CPU "GPU": its memory, not Llama-3-8B's on H100.
  auto own = simulate(*schedule_.plan, schedule_.cost.get());
  auto panel = simulate(*schedule_.plan, panel_cost_.get());
  ASSERT_TRUE(own.ok() && panel.ok());
  EXPECT_DOUBLE_EQ(cal->review.peak_memory_bytes, own->peak_memory_bytes);
  EXPECT_LT(cal->review.peak_memory_bytes, 1e9);
  EXPECT_GT(panel->peak_memory_bytes, 10 * own->peak_memory_bytes);
  // The machine's figures: its compute 1.2 times the schedule's pricing (forward kappa 1.56).
  EXPECT_NEAR(cal->review.makespan_s, machine_makespan_, 1e-6 * machine_makespan_);
  EXPECT_NEAR(cal->review.mfu, machine_mfu_, 1e-6 * machine_mfu_);
  EXPECT_GT(cal->review.makespan_s, 1.15 * own->makespan);
  EXPECT_LT(cal->review.mfu, own->mfu / 1.15);

  // A schedule fixes its costs: the CLI's own refusal of --cost-profile with it.
  EXPECT_EQ(cal->not_applicable,
            "--cost-profile " + profile +
                " contradicts the schedule's setup (not set): a schedule file fixes its model, "
                "parallelism and costs; drop the option");
}

TEST_F(RunCalibrationTest, APlanFileIsPricedByTheConfiguration) {
  auto pricing = run_pricing(*schedule_.plan, "", ConfigSpec{}, panel_cost_);
  ASSERT_TRUE(pricing.ok());
  EXPECT_FALSE(pricing->by_schedule);
  EXPECT_EQ(pricing->cost, panel_cost_);
  EXPECT_EQ(pricing->label, "the configuration (llama-3-8b on h100-sxm, tp 8)");
}

TEST_F(RunCalibrationTest, ARunAtAnotherScaleIsCalibratedToIt) {
  auto pricing = run_pricing(*schedule_.plan, kSchedule, ConfigSpec{});
  ASSERT_TRUE(pricing.ok());
  // Ten times slower than the schedule prices it (a CPU run of a plan priced by nominal FLOPs):
  // every unit is the plan's, so the calibration fits that scale.
  const TraceRun run = run_on_machine(10.0);
  const std::string profile = (dir_ / "slower.json").string();
  auto cal = calibrate_run(run, request_, *schedule_.plan, *pricing, {.profile_out = profile});
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  EXPECT_EQ(cal->mismatch, "");
  EXPECT_TRUE(cal->review.acceptable) << cal->review.problem;
  EXPECT_TRUE(cal->written && fs::exists(profile));
  EXPECT_LT(cal->calibration.mape, 1e-6);
  EXPECT_NEAR(cal->review.makespan_s, machine_makespan_, 1e-6 * machine_makespan_);
  EXPECT_NEAR(cal->review.mfu, machine_mfu_, 1e-6 * machine_mfu_);

  // The check carries the same verdict, and its report shows no percentage.
  auto sim = simulate(*schedule_.plan, schedule_.cost.get());
  ASSERT_TRUE(sim.ok());
  auto check = check_trace_run(run, request_, *schedule_.plan, *sim, schedule_.cost.get());
  ASSERT_TRUE(check.ok());
  EXPECT_EQ(check->mismatch.rfind("the trace runs ", 0), 0u) << check->mismatch;
  const nlohmann::json j = trace_check_json(run, request_, *check);
  EXPECT_EQ(j["mismatch"].get<std::string>(), check->mismatch);
  EXPECT_FALSE(j.contains("mape"));
  EXPECT_FALSE(j.contains("makespan_error"));
  EXPECT_EQ(j["matched_units"].get<std::size_t>(), check->check.units.size());
  for (const auto& u : j["units"]) EXPECT_FALSE(u.contains("error"));
  const std::string text = trace_check_text(run, *check, 5);
  EXPECT_EQ(text.find('%'), std::string::npos) << text;
  EXPECT_NE(text.find("no error is computed"), std::string::npos) << text;
}

TEST_F(RunCalibrationTest, ARunNoGpuCouldMakeIsRefused) {
  auto pricing = run_pricing(*schedule_.plan, kSchedule, ConfigSpec{});
  ASSERT_TRUE(pricing.ok());
  auto own = simulate(*schedule_.plan, schedule_.cost.get());
  ASSERT_TRUE(own.ok());
  // Fast enough that the fitted coefficients put the plan above 100 % MFU.
  const double scale = 0.5 * own->mfu;
  const TraceRun run = run_on_machine(scale);
  const std::string profile = (dir_ / "refused.json").string();
  auto cal = calibrate_run(run, request_, *schedule_.plan, *pricing, {.profile_out = profile});
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  EXPECT_EQ(cal->mismatch, "");
  EXPECT_GT(cal->review.mfu, 1.0);
  EXPECT_FALSE(cal->review.acceptable);
  EXPECT_NE(cal->review.problem.find("above what the GPUs can do"), std::string::npos)
      << cal->review.problem;
  EXPECT_FALSE(cal->written);  // refused: not written unless asked
  EXPECT_FALSE(fs::exists(profile));
  auto forced = calibrate_run(run, request_, *schedule_.plan, *pricing,
                              {.profile_out = profile, .write_refused = true});
  ASSERT_TRUE(forced.ok());
  EXPECT_TRUE(forced->written && fs::exists(profile));
}

TEST_F(RunCalibrationTest, AWarmUpIsThisPlanWithScatteredTimes) {
  auto pricing = run_pricing(*schedule_.plan, kSchedule, ConfigSpec{});
  ASSERT_TRUE(pricing.ok());
  // The first six units of each rank six times longer: allocation and kernel warm-up.
  const TraceRun run = run_on_machine(1.0, 6.0);
  auto cal = calibrate_run(run, request_, *schedule_.plan, *pricing, {});
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  EXPECT_EQ(cal->mismatch, "");  // every unit found, at the plan's scale
  EXPECT_GT(cal->calibration.mape, kCalibrationMaxMape) << cal->calibration.mape;
  EXPECT_FALSE(cal->review.acceptable);
  EXPECT_EQ(cal->review.problem.find("not a run of this plan"), std::string::npos)
      << cal->review.problem;
  EXPECT_NE(cal->review.problem.find("warm-up iteration"), std::string::npos)
      << cal->review.problem;
}

}  // namespace
}  // namespace slimpack
