// The one application path for a measured run (core/app/trace_run.h) on generated rank traces
// (tests/common/rank_trace_generator.h): Kineto-style with distributedInfo and user_annotation
// ranges, and the legacy profiler's bare arrays without categories. Every unit maps, and the
// calibration recovers the cost coefficients the durations were generated with.
#include "app/trace_run.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "../../common/rank_trace_generator.h"
#include "app/pipeline.h"
#include "app/trace_report.h"
#include "sim/simulator.h"

namespace slimpack {
namespace {

namespace fs = std::filesystem;
using testing::TraceStyle;

// testing::two_by_two_plan with recompute on stage 0.
Plan test_plan() {
  Plan plan = testing::two_by_two_plan();
  plan.recompute_layers = {4, 0};
  return plan;
}

// The coefficients the "machine" has: not the model's, so the fit has something to find.
CostCoeffs machine(const CostCoeffs& model) {
  CostCoeffs k = model;
  k.forward.kappa *= 1.7;
  k.forward.alpha *= 1.3;
  k.forward.beta *= 0.8;
  k.backward.kappa *= 0.6;
  k.backward.alpha *= 1.4;
  k.backward.beta *= 1.25;
  return k;
}

void expect_near(const PassCoeffs& got, const PassCoeffs& want) {
  EXPECT_NEAR(got.kappa, want.kappa, 1e-4 * std::abs(want.kappa) + 1e-12);
  EXPECT_NEAR(got.alpha, want.alpha, 1e-4 * std::abs(want.alpha) + 1e-15);
  EXPECT_NEAR(got.beta, want.beta, 1e-4 * std::abs(want.beta) + 1e-19);
}

class TraceRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("slimpack-trace-run-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    plan_ = test_plan();
    auto cost = trace_cost_model(plan_, ConfigSpec{});
    ASSERT_TRUE(cost.ok()) << cost.error().message;
    model_ = *cost;
    auto truth = std::make_shared<CostModel>(*model_);
    truth->set_coeffs(machine(model_->coeffs()));
    truth_ = truth;
    auto sim = simulate(plan_, truth_.get());
    ASSERT_TRUE(sim.ok()) << sim.error().message;
    sim_ = std::move(*sim);
    auto model_sim = simulate(plan_, model_.get());
    ASSERT_TRUE(model_sim.ok());
    model_sim_ = std::move(*model_sim);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::size_t compute_units() const {
    std::size_t n = 0;
    for (const auto& r : sim_.replicas)
      for (const auto& s : r.stages)
        for (const TimedOp& op : s.ops)
          n += op.kind == OpKind::Forward || op.kind == OpKind::Backward;
    return n;
  }

  fs::path dir_;
  Plan plan_;
  std::shared_ptr<const CostModel> model_;
  std::shared_ptr<const CostModel> truth_;
  SimResult sim_;
  SimResult model_sim_;
};

TEST_F(TraceRunTest, EveryUnitOfBothStylesMapsAndCalibrationRecoversTheCoefficients) {
  for (TraceStyle style : {TraceStyle::Kineto, TraceStyle::Legacy}) {
    SCOPED_TRACE(style == TraceStyle::Kineto ? "kineto" : "legacy");
    TraceRunRequest request;
    request.files = testing::write_rank_traces(sim_, style, dir_.string());
    auto run = load_trace_run(request);
    ASSERT_TRUE(run.ok()) << run.error().message;
    ASSERT_EQ(run->ranks.size(), 4u);
    for (int r = 0; r < 4; ++r) {
      EXPECT_EQ(run->ranks[static_cast<std::size_t>(r)].rank, r);
      EXPECT_EQ(run->ranks[static_cast<std::size_t>(r)].rank_from,
                style == TraceStyle::Kineto ? RankFrom::DistributedInfo : RankFrom::FileName);
    }
    // Against the simulation the durations came from: every unit, no error.
    auto check = check_trace_run(*run, request, plan_, sim_, nullptr);
    ASSERT_TRUE(check.ok()) << check.error().message;
    EXPECT_EQ(check->check.units.size(), compute_units());
    EXPECT_EQ(check->check.units.size(), 2u * 2u * 6u * 2u);
    EXPECT_EQ(check->check.only_simulated, 0);
    EXPECT_EQ(check->check.only_measured, 0);
    EXPECT_LT(check->check.mape, 1e-6);
    EXPECT_NEAR(check->check.measured_makespan_us, check->check.simulated_makespan_us,
                1e-6 * check->check.simulated_makespan_us);
    // Each unit names its one event: the file, its position in the file and "F<k>"/"B<k>".
    for (const UnitComparison& u : check->check.units) {
      ASSERT_EQ(u.events.size(), 1u);
      const UnitEventRef& e = u.events.front();
      EXPECT_EQ(e.name,
                std::string(u.pass == Pass::Forward ? "F" : "B") + std::to_string(u.pack + 1));
      EXPECT_GE(e.event, 0);
      EXPECT_EQ(check->check.sources[static_cast<std::size_t>(e.source)],
                run->ranks[static_cast<std::size_t>(u.replica * 2 + u.stage)].label);
    }
    // Against the model's own simulation: the model's error, per unit.
    auto against_model = check_trace_run(*run, request, plan_, model_sim_, nullptr);
    ASSERT_TRUE(against_model.ok());
    EXPECT_EQ(against_model->check.units.size(), compute_units());
    EXPECT_GT(against_model->check.mape, 0.05);
    // Calibration through the model recovers the machine's coefficients.
    auto cal = calibrate_trace_run(*run, request, plan_, *model_);
    ASSERT_TRUE(cal.ok()) << cal.error().message;
    EXPECT_EQ(cal->units_used, 48);
    EXPECT_EQ(cal->units_skipped, 0);
    ASSERT_TRUE(cal->profile.forward && cal->profile.backward);
    expect_near(cal->profile.forward->coeffs, truth_->coeffs().forward);
    expect_near(cal->profile.backward->coeffs, truth_->coeffs().backward);
    EXPECT_LT(cal->mape, 1e-5);
    for (const auto& f : request.files) fs::remove(f);
  }
}

TEST_F(TraceRunTest, GpuTimeFollowsAc2gFlowsToTheKernels) {
  TraceRunRequest request;
  request.files = testing::write_rank_traces(sim_, TraceStyle::Kineto, dir_.string(), 2.0);
  request.options.gpu_flows = true;
  auto run = load_trace_run(request);
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto check = check_trace_run(*run, request, plan_, sim_, nullptr);
  ASSERT_TRUE(check.ok()) << check.error().message;
  EXPECT_EQ(check->check.units.size(), compute_units());
  EXPECT_EQ(check->check.only_measured, 0);
  for (const UnitComparison& u : check->check.units) {
    // The kernel starts 2 us into its unit and ends with it.
    EXPECT_NEAR(u.measured_us, u.simulated_us - 2.0, 1e-3);
    ASSERT_EQ(u.events.size(), 1u);
    EXPECT_EQ(u.events.front().kernels, 1);
  }
  EXPECT_NE(unit_events_text(check->check.units.front(), check->check).find("+1 kernels"),
            std::string::npos);
}

TEST_F(TraceRunTest, RanksComeFromTheNameThenTheOrderAndCollisionsAreErrors) {
  const auto legacy = testing::write_rank_traces(sim_, TraceStyle::Legacy, dir_.string());
  // Names without a number: ranks in the order given.
  std::vector<std::string> plain;
  for (const char* n : {"x.json", "y.json", "z.json", "w.json"}) {
    const std::string p = (dir_ / n).string();
    fs::copy_file(legacy[plain.size()], p);  // legacy[0] is rank 3
    plain.push_back(p);
  }
  TraceRunRequest request;
  request.files = plain;
  auto run = load_trace_run(request);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->ranks.front().path, plain.front());
  EXPECT_EQ(run->ranks.front().rank_from, RankFrom::Order);
  // A file given twice is an error, not "the last one wins".
  request.files = {legacy[0], legacy[1], legacy[0]};
  auto twice = load_trace_run(request);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, legacy[0] + ": given twice: one file per rank");
  // Two files of one rank.
  const std::string again = (dir_ / "copy_rank3.json").string();
  fs::copy_file(legacy[0], again);
  request.files = {legacy[0], again};
  auto clash = load_trace_run(request);
  ASSERT_FALSE(clash.ok());
  EXPECT_EQ(clash.error().message, again + ": rank 3 (from its file name) is also the rank of " +
                                       legacy[0] + ": one file per rank");
  // A folder stands for its trace files.
  fs::remove(again);
  for (const auto& p : plain) fs::remove(p);
  request.files = {dir_.string()};
  auto folder = load_trace_run(request);
  ASSERT_TRUE(folder.ok()) << folder.error().message;
  EXPECT_EQ(folder->ranks.size(), 4u);
  // A rank the plan does not have.
  Plan one_replica = plan_;
  one_replica.replicas.resize(1);
  auto outside = map_trace_run(*folder, request, one_replica.stages, one_replica.dp());
  ASSERT_FALSE(outside.ok());
  EXPECT_NE(outside.error().message.find("rank 2 (from its file name) is not a rank of the plan: "
                                         "it has 2 (1 replicas x 2 stages"),
            std::string::npos)
      << outside.error().message;
}

TEST_F(TraceRunTest, AnExplicitRankTablePlacesTheRanks) {
  // The ranks numbered stage-major (rank = stage * replicas + replica), as a schedule's rank table
  // may say: the files are renamed to match, and the table puts them back in place.
  const auto files = testing::write_rank_traces(sim_, TraceStyle::Legacy, dir_.string());
  std::vector<std::string> renamed;
  for (int rank = 0; rank < 4; ++rank) {
    const int replica = rank / 2, stage = rank % 2;
    const std::string to =
        (dir_ / ("stage_major_rank" + std::to_string(stage * 2 + replica) + ".json")).string();
    fs::copy_file((dir_ / ("legacy_rank" + std::to_string(rank) + ".json")).string(), to);
    renamed.push_back(to);
  }
  TraceRunRequest request;
  request.files = renamed;
  auto run = load_trace_run(request);
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto wrong = check_trace_run(*run, request, plan_, sim_, nullptr);
  ASSERT_TRUE(wrong.ok());
  EXPECT_GT(wrong->check.mape, 0.01);  // ranks 1 and 2 swapped
  request.rank_table = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
  auto right = check_trace_run(*run, request, plan_, sim_, nullptr);
  ASSERT_TRUE(right.ok()) << right.error().message;
  EXPECT_LT(right->check.mape, 1e-6);
  EXPECT_EQ(right->check.units.size(), compute_units());
  request.rank_table = {{0, 0}, {1, 0}, {0, 1}};
  auto short_table = check_trace_run(*run, request, plan_, sim_, nullptr);
  ASSERT_FALSE(short_table.ok());
  EXPECT_NE(short_table.error().message.find("rank 3 (from its file name) is not a rank of the "
                                             "plan: it has 3 in its rank table"),
            std::string::npos)
      << short_table.error().message;
  (void)files;
}

TEST_F(TraceRunTest, ClocksAlignAtANamedEventOrByOffsets) {
  const auto files = testing::write_rank_traces(sim_, TraceStyle::Legacy, dir_.string());
  TraceRunRequest request;
  request.files = files;
  request.options.offsets_us = {100.0, 0.0, 0.0, 0.0};  // files[0] is rank 3
  auto shifted = load_trace_run(request);
  ASSERT_TRUE(shifted.ok()) << shifted.error().message;
  EXPECT_EQ(shifted->ranks.back().shift_us, 100.0);
  auto check = check_trace_run(*shifted, request, plan_, sim_, nullptr);
  ASSERT_TRUE(check.ok());
  EXPECT_LT(check->check.mape, 1e-6);  // durations unchanged
  // Rank 3's units (replica 1, stage 1) start 100 us later than the simulation's.
  auto mapped = map_trace_run(*shifted, request, 2, 2);
  ASSERT_TRUE(mapped.ok());
  for (const MeasuredUnit& u : mapped->units) {
    if (u.replica != 1 || u.stage != 1 || u.pass != Pass::Forward || u.pack != 0) continue;
    const auto& ops = sim_.replicas[1].stages[1].ops;
    const auto op = std::find_if(ops.begin(), ops.end(), [](const TimedOp& o) {
      return o.kind == OpKind::Forward && o.pack == 0;
    });
    ASSERT_NE(op, ops.end());
    EXPECT_NEAR(u.start_us, op->start * 1e6 + 100.0, 1e-3);
  }

  request.options.offsets_us = {1.0};
  auto count = load_trace_run(request);
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(count.error().message, "--trace-offsets: 1 offsets for 4 trace files");

  request.options.offsets_us.clear();
  request.options.align_event = "F1";
  auto aligned = load_trace_run(request);
  ASSERT_TRUE(aligned.ok()) << aligned.error().message;
  for (const RankTrace& r : aligned->ranks) EXPECT_LE(r.shift_us, 0.0);
  request.options.align_event = "ProfilerStep#9";
  auto missing = load_trace_run(request);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("no event named 'ProfilerStep#9' to align the ranks at"),
            std::string::npos);
}

TEST_F(TraceRunTest, RuleSetsMatchWholeNamesInAnyCategory) {
  const auto files = testing::write_rank_traces(sim_, TraceStyle::Kineto, dir_.string());
  TraceRunRequest request;
  request.files = files;
  auto run = load_trace_run(request);
  ASSERT_TRUE(run.ok());
  for (const char* rules : {"slimpack", "pytorch"}) {
    request.options.rules = rules;
    auto mapped = map_trace_run(*run, request, 2, 2);
    ASSERT_TRUE(mapped.ok()) << mapped.error().message;
    // Not the waits ("wait RECV_F3"), not the GPU copies of the annotations.
    EXPECT_EQ(mapped->units.size(), compute_units()) << rules;
  }
  request.options.rules = "megatron";
  auto none = map_trace_run(*run, request, 2, 2);
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("4 trace files: no event matches the rules of 'megatron'"),
            std::string::npos)
      << none.error().message;
}

TEST_F(TraceRunTest, TheReportNamesFilesRanksAndEvents) {
  TraceRunRequest request;
  request.files = testing::write_rank_traces(sim_, TraceStyle::Kineto, dir_.string());
  auto run = load_trace_run(request);
  ASSERT_TRUE(run.ok());
  auto check = check_trace_run(*run, request, plan_, sim_, nullptr);
  ASSERT_TRUE(check.ok());
  const nlohmann::json j = trace_check_json(*run, request, *check);
  EXPECT_EQ(j["files"].size(), 4u);
  EXPECT_EQ(j["files"][0]["rank"], 0);
  EXPECT_EQ(j["files"][0]["rank_from"], "distributedInfo");
  EXPECT_EQ(j["matched_units"], 48);
  EXPECT_EQ(j["units"][0]["events"][0]["name"].get<std::string>().substr(0, 1) == "F" ||
                j["units"][0]["events"][0]["name"].get<std::string>().substr(0, 1) == "B",
            true);
  const std::string text = trace_check_text(*run, *check, 2);
  EXPECT_NE(text.find("4 rank files"), std::string::npos) << text;
  EXPECT_NE(text.find("rank 3       "), std::string::npos) << text;
  EXPECT_NE(text.find("from kineto-"), std::string::npos) << text;
}

}  // namespace
}  // namespace slimpack
