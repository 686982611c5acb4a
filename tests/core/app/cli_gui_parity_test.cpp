// The CLI and the explorer give the same numbers and the same messages for the same input: each
// test runs the `slimpack` program (the CLI path) and core/app's functions the explorer's jobs call
// (the GUI path) on one input and compares what they report.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

#include "app/compare.h"
#include "app/dataset.h"
#include "app/input_file.h"
#include "app/ops_csv.h"
#include "app/pipeline.h"
#include "app/sweep.h"
#include "cost/stage_split.h"

namespace slimpack {
namespace {

struct CliRun {
  int exit_code = -1;
  std::string out;  // stdout, with stderr appended when `merge_stderr`
};

CliRun run_cli(const std::string& args, bool merge_stderr = false) {
  const std::string cmd = std::string("cd '") + SLIMPACK_SOURCE_DIR + "' && '" + SLIMPACK_CLI +
                          "' " + args + (merge_stderr ? " 2>&1" : " 2>/dev/null");
  CliRun run;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buf{};
  std::size_t n = 0;
  while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0) run.out.append(buf.data(), n);
  const int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

nlohmann::json cli_json(const std::string& args) {
  const CliRun run = run_cli(args);
  EXPECT_EQ(run.exit_code, 0) << args;
  return nlohmann::json::parse(run.out);
}

// The explorer's inputs for `--preset chat-sft --batch-tokens 65536` with the CLI's defaults.
WorkloadSpec chat_workload() {
  WorkloadSpec w;
  w.preset = "chat-sft";
  w.seed = kDefaultSeed;
  w.batch_tokens = 65536;
  return w;
}

TEST(CliGuiParity, CompareRowsNumbersAndMessages) {
  // A memory cap that the longest chat sample still fits at tp 8 but not every strategy's packs.
  const std::string opts = "--preset chat-sft --batch-tokens 65536 --memory-cap 30";
  const auto cli =
      cli_json("compare " + opts + " --strategies fixed,sliced,slimpack,fixed:cp=3 --json -");

  ConfigSpec config;
  config.memory_cap_gb = 30;
  auto prepared = prepare_scenario(chat_workload(), config);
  ASSERT_TRUE(prepared.ok()) << prepared.error().message;
  CompareRequest req;  // what ExplorerController::requestCompare sends
  req.batch = prepared->batch;
  req.config = config;
  req.seed = chat_workload().seed;
  req.strategies = {"fixed", "sliced", "slimpack", "fixed:cp=3"};
  auto gui = run_compare(req, CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(gui.ok()) << gui.error().message;

  const auto& rows = cli["rows"];
  ASSERT_EQ(rows.size(), gui->size());
  for (std::size_t i = 0; i < gui->size(); ++i) {
    const CompareEntry& e = (*gui)[i];
    SCOPED_TRACE(e.strategy);
    EXPECT_EQ(rows[i]["strategy"].get<std::string>(), e.strategy);
    if (!e.solved()) {
      EXPECT_EQ(rows[i]["error"].get<std::string>(), e.reason);
      EXPECT_EQ(rows[i]["not_applicable"].get<bool>(), e.outcome == RowOutcome::NotApplicable);
      continue;
    }
    EXPECT_DOUBLE_EQ(rows[i]["iteration_time"].get<double>(), e.sim->iteration_time);
    EXPECT_DOUBLE_EQ(rows[i]["bubble_ratio"].get<double>(), e.sim->bubble_ratio);
    ASSERT_TRUE(e.speedup.has_value());
    EXPECT_DOUBLE_EQ(rows[i]["speedup"].get<double>(), *e.speedup);
    ASSERT_EQ(rows[i]["stage_peak_memory_bytes"].size(), e.stage_peak_memory_bytes.size());
    for (std::size_t s = 0; s < e.stage_peak_memory_bytes.size(); ++s)
      EXPECT_DOUBLE_EQ(rows[i]["stage_peak_memory_bytes"][s].get<double>(),
                       e.stage_peak_memory_bytes[s]);
  }
  // cp=3 does not divide d * c = 1: a row saying so, in both.
  EXPECT_EQ(gui->back().outcome, RowOutcome::NotApplicable);
  EXPECT_NE(gui->back().reason.find("not applicable"), std::string::npos);
  // The baseline is the first row that solved; its speed-up is exactly 1.
  for (const CompareEntry& e : *gui)
    if (e.baseline) {
      EXPECT_DOUBLE_EQ(*e.speedup, 1.0);
    }
}

TEST(CliGuiParity, SliceSweepPointsAndReasons) {
  const auto cli =
      cli_json("sweep --preset chat-sft --batch-tokens 65536 --slice 1024,4096 --json -");
  auto prepared = prepare_scenario(chat_workload(), ConfigSpec{});
  ASSERT_TRUE(prepared.ok()) << prepared.error().message;
  SweepRequest req;  // what ExplorerController::requestSweep sends
  req.batch = prepared->batch;
  req.seed = chat_workload().seed;
  req.slice_sizes = {1024, 4096};
  auto gui = run_sweep(req, CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(gui.ok()) << gui.error().message;
  EXPECT_EQ(cli["strategy"].get<std::string>(), slice_sweep_strategy(ConfigSpec{}.strategy));
  ASSERT_EQ(cli["rows"].size(), gui->size());
  for (std::size_t i = 0; i < gui->size(); ++i) {
    const SweepPoint& p = (*gui)[i];
    EXPECT_EQ(cli["rows"][i]["value"].get<std::string>(), p.value);
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_DOUBLE_EQ(cli["rows"][i]["iteration_time"].get<double>(), p.iteration_time);
    EXPECT_DOUBLE_EQ(cli["rows"][i]["bubble_ratio"].get<double>(), p.bubble_ratio);
    EXPECT_DOUBLE_EQ(cli["rows"][i]["peak_memory_bytes"].get<double>(), p.peak_memory_bytes);
  }
}

TEST(CliGuiParity, InfeasibleSweepPointHasTheCompareReason) {
  // The same infeasible value reads the same as a sweep point and as a compare row.
  const std::string opts = "--preset long-sft-128k --tp 2 --recompute none --strategy fixed";
  const auto sweep = cli_json("sweep " + opts + " --pp 4,4 --json -");
  const auto compare = cli_json("compare " + opts + " --strategies fixed --json -");
  ASSERT_TRUE(sweep["rows"][0].contains("error"));
  EXPECT_EQ(sweep["rows"][0]["error"].get<std::string>(),
            compare["rows"][0]["error"].get<std::string>());
  EXPECT_EQ(sweep["rows"][0]["error"].get<std::string>().rfind("strategy ", 0), std::string::npos);
}

TEST(CliGuiParity, SimulateWorkloadMatchesThePipeline) {
  const auto cli = cli_json("simulate --preset chat-sft --batch-tokens 65536 --json -");
  PipelineRequest req;  // what ExplorerController::runPipeline sends
  req.workload = chat_workload();
  auto snap = run_pipeline(req, CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(snap.ok()) << snap.error().message;
  EXPECT_DOUBLE_EQ(cli["iteration_time"].get<double>(), snap->sim.iteration_time);
  EXPECT_DOUBLE_EQ(cli["bubble_ratio"].get<double>(), snap->sim.bubble_ratio);
  EXPECT_DOUBLE_EQ(cli["peak_memory_bytes"].get<double>(), snap->sim.peak_memory_bytes);
  EXPECT_EQ(cli["config"]["workload"].get<std::string>(), snap->workload_label);
}

// A value that only the scenario can refuse (the layers must sum to the model's) is named by its
// option in both front ends, from the option table.
TEST(CliGuiParity, ScenarioErrorsNameTheSameOption) {
  const CliRun cli =
      run_cli("simulate --preset chat-sft --batch-tokens 65536 --stage-layers 7,8,8,8", true);
  EXPECT_EQ(cli.exit_code, 2);
  PipelineRequest req;
  req.workload = chat_workload();
  auto split = parse_stage_split("7,8,8,8");
  ASSERT_TRUE(split.ok());
  req.config.stage_split = *split;
  auto snap = run_pipeline(req, CancelToken::none(), ProgressSink::none());
  ASSERT_FALSE(snap.ok());
  EXPECT_EQ(snap.error().message, "--stage-layers: the layers sum to 31, the model has 32");
  EXPECT_EQ(cli.out, "slimpack simulate: " + snap.error().message + "\n");
}

TEST(CliGuiParity, OneRuleAndOneMessageForPlanFiles) {
  const std::string path = "samples/plans/bad-l2-order.json";
  const std::string full = std::string(SLIMPACK_SOURCE_DIR) + "/" + path;
  auto opened = load_input_file(full);  // the explorer's File > Open
  ASSERT_FALSE(opened.ok());
  auto loaded = load_plan_file(full);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(opened.error().message, loaded.error().message);
  EXPECT_NE(loaded.error().message.find("illegal plan: L2: backward pack B1"), std::string::npos);
  const CliRun cli = run_cli("simulate --plan " + path, /*merge_stderr=*/true);
  EXPECT_EQ(cli.exit_code, 2);
  const std::string expected =
      "slimpack simulate: " +
      loaded.error().message.substr(std::string(SLIMPACK_SOURCE_DIR).size() + 1) + "\n";
  EXPECT_EQ(cli.out, expected);
}

TEST(CliGuiParity, OpsCsvExportIsTheSame) {
  const std::string path = "samples/plans/analytic-1f1b.json";
  const CliRun cli = run_cli("simulate --plan " + path + " --ops-csv -");
  ASSERT_EQ(cli.exit_code, 0);
  auto plan = load_plan_file(std::string(SLIMPACK_SOURCE_DIR) + "/" + path);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  PipelineRequest req;
  req.plan = std::make_shared<const Plan>(*plan);
  req.plan_file = path;
  auto snap = run_pipeline(req, CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(snap.ok()) << snap.error().message;
  const std::string csv = ops_csv(*snap->plan, snap->sim);
  EXPECT_EQ(cli.out, csv);
  EXPECT_EQ(csv.rfind("replica,stage,kind,pack,name,start,end,duration,tokens\n", 0), 0u);
  EXPECT_GT(std::count(csv.begin(), csv.end(), '\n'), 4);
}

// `slimpack dataset` names each strategy's worst batch by the option that picks it; `simulate`
// with that option gives the same iteration time (a file's batch index and a preset's seed), and
// core/app's run_dataset (the Dataset tab's job) the same figures.
TEST(CliGuiParity, DatasetWorstBatchReproducesWithSimulate) {
  const std::string config = " --pp 2 --tp 2";
  for (const std::string& workload :
       {std::string("--lengths samples/lengths/chat_sft_lengths.csv --batch-tokens 65536"),
        std::string("--preset chat-sft --batch-tokens 65536 --batches 4")}) {
    const nlohmann::json d =
        cli_json("dataset " + workload + config + " --strategy fixed,slimpack --json -");
    ASSERT_EQ(d["strategies"].size(), 2u);
    for (const auto& s : d["strategies"]) {
      const std::string option = s["worst_batch"]["simulate"].get<std::string>();
      std::string base = workload.substr(0, workload.find(" --batches"));
      const nlohmann::json sim =
          cli_json("simulate " + base + config + " --strategy " + s["strategy"].get<std::string>() +
                   " " + option + " --json -");
      EXPECT_DOUBLE_EQ(sim["iteration_time"].get<double>(), s["iteration_s"]["max"].get<double>())
          << workload << " " << option;
    }
  }
  DatasetRequest request;
  request.workload.file =
      std::string(SLIMPACK_SOURCE_DIR) + "/samples/lengths/chat_sft_lengths.csv";
  request.workload.batch_tokens = 65536;
  request.config.pp = 2;
  request.config.tp = 2;
  request.strategies = {"slimpack"};
  auto gui = run_dataset(request, TaskPool::serial(), CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(gui.ok()) << gui.error().message;
  const nlohmann::json cli =
      cli_json("dataset --lengths samples/lengths/chat_sft_lengths.csv --batch-tokens 65536" +
               config + " --strategy slimpack --json -");
  EXPECT_DOUBLE_EQ(cli["strategies"][0]["iteration_s"]["p95"].get<double>(),
                   gui->strategies[0].iteration_s->p95);
  EXPECT_EQ(cli["strategies"][0]["worst_batch"]["index"].get<int>(),
            gui->strategies[0].worst_batch);
}

}  // namespace
}  // namespace slimpack
