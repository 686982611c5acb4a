// `trace pipeline` through core/app: every sample run (and our export of every sample schedule,
// run as a run) has per stage busy + idle by cause = makespan, measured and simulated; the sample
// run's figures; a run of another plan is an error naming its file.
#include "app/trace_pipeline.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "../../common/rank_trace_generator.h"
#include "app/input_file.h"
#include "app/pipeline.h"
#include "app/trace_pipeline_report.h"
#include "sim/simulator.h"
#include "trace/chrome_trace.h"

namespace slimpack {
namespace {

namespace fs = std::filesystem;

const std::string kSamples = SLIMPACK_SAMPLES_DIR;

// The plan simulated as `slimpack trace pipeline --plan` (and simulate --plan) simulates it.
SnapshotPtr simulate_plan_file(const std::string& path) {
  auto opened = open_plan_file(path);
  EXPECT_TRUE(opened) << opened.error().message;
  if (!opened) return nullptr;
  PipelineRequest request;
  request.plan = opened->plan;
  request.plan_file = path;
  request.build_timeline = false;
  if (opened->schedule) {
    request.config = opened->schedule->config;
    request.plan_cost_fixed = true;
    request.plan_cost = opened->schedule->cost;
  }
  auto snap = run_pipeline(request, CancelToken::none(), ProgressSink::none());
  EXPECT_TRUE(snap) << snap.error().message;
  if (!snap) return nullptr;
  return std::make_shared<const ExplorerSnapshot>(std::move(*snap));
}

Expected<TracePipeline> pipeline_of(const std::vector<std::string>& traces, const SnapshotPtr& snap,
                                    TraceRun* loaded = nullptr,
                                    const std::string& rules = "slimpack") {
  TraceRunRequest request;
  request.files = traces;
  request.options.rules = rules;
  auto run = load_trace_run(request);
  if (!run) return run.error();
  if (loaded) *loaded = *run;
  return trace_pipeline_run(*run, request, *snap->plan, snap->sim, snap->cost.get());
}

void expect_adds_up(const PipelineBubbles& b, const std::string& what) {
  ASSERT_FALSE(b.stages.empty()) << what;
  for (const StageBubbles& s : b.stages) {
    double idle = 0.0;
    for (const double v : s.by_cause) idle += v;
    EXPECT_NEAR(s.busy_us + idle, b.makespan_us, 1.0) << what << " stage " << s.stage;
    EXPECT_NEAR(s.busy_us + s.idle_us, b.makespan_us, 1.0) << what << " stage " << s.stage;
    for (const IdleInterval& w : s.waits) EXPECT_GT(w.duration_us(), 0.0) << what;
  }
}

TEST(TracePipeline, EverySampleRunAddsUpToItsMakespan) {
  int runs = 0;
  for (const auto& entry : fs::directory_iterator(kSamples + "/runs")) {
    if (!entry.is_directory()) continue;
    auto files = run_files({entry.path().string()});
    ASSERT_TRUE(files) << files.error().message;
    const SnapshotPtr snap = simulate_plan_file(files->plan_file);
    ASSERT_TRUE(snap);
    // A run of PyTorch's pipeline runtime holds its schedule CSV: its ranges are torch-pp's.
    const bool torch = std::any_of(files->traces.begin(), files->traces.end(),
                                   [](const std::string& f) { return f.ends_with(".csv"); });
    auto result = pipeline_of(files->traces, snap, nullptr, torch ? "torch-pp" : "slimpack");
    ASSERT_TRUE(result) << entry.path() << ": " << result.error().message;
    expect_adds_up(result->measured, entry.path().string() + " measured");
    expect_adds_up(result->simulated, entry.path().string() + " simulated");
    ++runs;
  }
  EXPECT_GE(runs, 1);
}

// Every sample schedule, exported by the simulator and read back as its run (the sends give the
// arrivals): the measured bubbles are the simulated ones, cause by cause.
TEST(TracePipeline, EverySampleScheduleExportedIsItsOwnRun) {
  const fs::path dir = fs::temp_directory_path() / "slimpack-trace-pipeline-test";
  fs::create_directories(dir);
  for (const auto& entry : fs::directory_iterator(kSamples + "/schedules")) {
    const SnapshotPtr snap = simulate_plan_file(entry.path().string());
    ASSERT_TRUE(snap);
    const std::string trace = (dir / (entry.path().stem().string() + ".trace.json")).string();
    ASSERT_TRUE(write_chrome_trace(trace, *snap->plan, snap->sim));
    auto result = pipeline_of({trace}, snap);
    ASSERT_TRUE(result) << entry.path() << ": " << result.error().message;
    EXPECT_EQ(result->messages, "sends");
    expect_adds_up(result->measured, entry.path().string());
    ASSERT_EQ(result->measured.stages.size(), result->simulated.stages.size());
    for (std::size_t s = 0; s < result->measured.stages.size(); ++s)
      for (std::size_t c = 0; c < kBubbleCauses; ++c)
        EXPECT_NEAR(result->measured.stages[s].by_cause[c], result->simulated.stages[s].by_cause[c],
                    1e-3)
            << entry.path() << " stage " << s;
  }
  fs::remove_all(dir);
}

// samples/runs/calibrate: our runtime's form (wait RECV ranges between the units) with the
// simulated durations, so measured and simulated agree; stage 0 starts at once (no fill) and
// waits longest for B1 of stage 1.
TEST(TracePipeline, TheSampleRunAgreesWithItsSimulation) {
  const std::string dir = kSamples + "/runs/calibrate";
  const SnapshotPtr snap = simulate_plan_file(dir + "/plan.json");
  ASSERT_TRUE(snap);
  TraceRun run;
  auto result = pipeline_of({dir}, snap, &run);
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->units, 48);
  EXPECT_EQ(result->messages, "receives");
  const PipelineBubbles& m = result->measured;
  const PipelineBubbles& s = result->simulated;
  EXPECT_NEAR(m.makespan_us, s.makespan_us, 1e-3);
  for (std::size_t i = 0; i < m.stages.size(); ++i) {
    EXPECT_NEAR(m.stages[i].busy_us, s.stages[i].busy_us, 1e-3);
    EXPECT_NEAR(m.stages[i].cause_us(BubbleCause::Dependency),
                s.stages[i].cause_us(BubbleCause::Dependency), 1e-3);
    EXPECT_NEAR(m.stages[i].cause_us(BubbleCause::Fill), s.stages[i].cause_us(BubbleCause::Fill),
                1e-3);
  }
  EXPECT_DOUBLE_EQ(m.stages[0].cause_us(BubbleCause::Fill), 0.0);
  const auto worst = worst_dependency_waits(m, 1);
  ASSERT_EQ(worst.size(), 1u);
  EXPECT_EQ(bubble_unit_text(m, worst[0].unit), "stage 0 B1");
  EXPECT_EQ(bubble_unit_text(m, worst[0].producer), "stage 1 B1");
  // The JSON has what the issue names, adding up.
  const nlohmann::json j = trace_pipeline_json(run, *result);
  for (const auto& st : j["stages"]) {
    double sum = st["busy_us"].get<double>();
    for (const char* c : {"dependency", "transfer", "fill", "other"})
      sum += st["bubbles_by_cause"][c].get<double>();
    EXPECT_NEAR(sum, j["makespan_us"].get<double>(), 1.0);
  }
  EXPECT_FALSE(j["critical_path"].empty());
  EXPECT_EQ(j["simulated"]["stages"].size(), j["stages"].size());
}

// A PyTorch-profiler run (Kineto form: record_function ranges, kernels reached by ac2g flows) of
// two stages and two replicas, timed as simulated: its `wait RECV` ranges end as each unit
// starts, so the measured causes are the simulated ones on every stage of both replicas, by
// CPU ranges or by GPU kernels alike.
TEST(TracePipeline, AKinetoRunOfTwoReplicasHasTheSimulatedCauses) {
  const Plan plan = testing::two_by_two_plan();
  auto cost = trace_cost_model(plan, ConfigSpec{});
  ASSERT_TRUE(cost) << cost.error().message;
  auto sim = simulate(plan, cost->get());
  ASSERT_TRUE(sim) << sim.error().message;
  const fs::path dir = fs::temp_directory_path() / "slimpack-trace-pipeline-kineto";
  fs::create_directories(dir);
  TraceRunRequest request;
  request.files = testing::write_rank_traces(*sim, testing::TraceStyle::Kineto, dir.string(), 0.0);
  for (const bool flows : {false, true}) {
    request.options.gpu_flows = flows;
    auto run = load_trace_run(request);
    ASSERT_TRUE(run) << run.error().message;
    auto result = trace_pipeline_run(*run, request, plan, *sim, cost->get());
    ASSERT_TRUE(result) << result.error().message;
    EXPECT_EQ(result->messages, "receives");
    expect_adds_up(result->measured, flows ? "kineto by flows" : "kineto");
    ASSERT_EQ(result->measured.stages.size(), 4u);  // 2 replicas x 2 stages
    for (std::size_t s = 0; s < 4; ++s)
      for (std::size_t c = 0; c < kBubbleCauses; ++c)
        EXPECT_NEAR(result->measured.stages[s].by_cause[c], result->simulated.stages[s].by_cause[c],
                    1e-3)
            << "stage entry " << s << " " << bubble_cause_name(static_cast<BubbleCause>(c));
  }
  fs::remove_all(dir);
}

// samples/runs/torch-pp, a real run of PyTorch's runtime: each unit's range waits for its message
// before its first operator, so the arrivals are known there and no receive wait counts as busy:
// stage 0 waited for B1's gradients (dependency on stage 1's B1, or its transfer).
TEST(TracePipeline, TorchsRuntimeWaitsInsideItsUnitsRanges) {
  const std::string dir = kSamples + "/runs/torch-pp";
  const SnapshotPtr snap = simulate_plan_file(dir + "/schedule.json");
  ASSERT_TRUE(snap);
  TraceRun run;
  auto result = pipeline_of({dir}, snap, &run, "torch-pp");
  ASSERT_TRUE(result) << result.error().message;
  EXPECT_EQ(result->rule_set, "torch-pp");
  EXPECT_EQ(result->messages, "waits inside units");
  EXPECT_GT(result->measured.receives_known, 0);
  expect_adds_up(result->measured, "torch-pp");
  // The units are the operators' time: shorter than their PP: ranges.
  double ranges = 0.0, busy = 0.0;
  for (const TimelineUnit& u : result->measured.units) busy += u.end_us - u.start_us;
  TraceRunRequest request;
  request.files = {dir};
  request.options.rules = "torch-pp";
  auto mapped = map_plan_run(run, request, *snap->plan);
  ASSERT_TRUE(mapped) << mapped.error().message;
  for (const MeasuredUnit& u : mapped->units) ranges += u.dur_us;
  EXPECT_LT(busy, ranges);
  double waited = 0.0;
  for (const StageBubbles& s : result->measured.stages)
    waited += s.cause_us(BubbleCause::Dependency) + s.cause_us(BubbleCause::Transfer);
  EXPECT_GT(waited, 0.0);
}

TEST(TracePipeline, ARunOfAnotherPlanIsAnErrorNamingItsFile) {
  const SnapshotPtr snap = simulate_plan_file(kSamples + "/plans/asymmetric-example.json");
  ASSERT_TRUE(snap);
  auto result = pipeline_of({kSamples + "/runs/calibrate"}, snap);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().kind, ErrorKind::BadInput);
  EXPECT_NE(result.error().message.find("worker-a.pt.trace.json#"), std::string::npos)
      << result.error().message;
  EXPECT_NE(result.error().message.find("not a run of this plan"), std::string::npos);
  auto wrong_rules =
      pipeline_of({kSamples + "/runs/calibrate"},
                  simulate_plan_file(kSamples + "/runs/calibrate/plan.json"), nullptr, "megatron");
  ASSERT_FALSE(wrong_rules);
  EXPECT_NE(wrong_rules.error().message.find("megatron"), std::string::npos);
}

}  // namespace
}  // namespace slimpack
