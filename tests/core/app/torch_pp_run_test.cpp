// A run of PyTorch's pipeline runtime read against its plan (core/app/torch_pp_run.h, through
// core/app/trace_run.h as `simulate --check-trace`, `fit-costs --trace` and the explorer's Open
// Run take it): a folder holding the exported CSV and Kineto-like rank traces with `PP:` ranges
// (tests/common/torch_pp_trace_generator.h), also in torchtitan's layout. Every unit of the plan
// is matched; a range that names no unit, a CSV of another syntax and ranks that do not match the
// CSV are errors naming the file and the reason.
#include "app/torch_pp_run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>

#include "../../common/torch_pp_trace_generator.h"
#include "app/pipeline.h"
#include "app/torch_pp_export.h"
#include "app/trace_report.h"
#include "plan/plan_json.h"
#include "schedule/torch_pp_lowering.h"
#include "sim/simulator.h"

namespace slimpack {
namespace {

namespace fs = std::filesystem;

Plan packed_plan(int replicas, const std::vector<std::vector<Tokens>>& packs) {
  Plan plan;
  plan.stages = 2;
  for (int r = 0; r < replicas; ++r) {
    ReplicaPlan rep;
    for (const auto& lengths : packs) {
      Pack p;
      for (Tokens len : lengths) {
        const auto seq = static_cast<SeqIndex>(plan.sequences.size());
        plan.sequences.push_back({"s" + std::to_string(seq), len * (r + 1)});
        p.segments.push_back({seq, 0, len * (r + 1)});
      }
      rep.forward.push_back(p);
    }
    rep.backward = rep.forward;
    plan.replicas.push_back(rep);
  }
  return plan;
}

class TorchPPRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("slimpack-torch-pp-run-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    use(packed_plan(1, {{4096}, {2048, 1024}, {8192}}));
  }
  void TearDown() override { fs::remove_all(dir_); }

  void use(Plan plan) {
    plan_ = std::move(plan);
    auto cost = plan_cost_model(plan_, ConfigSpec{}, /*model_requested=*/true);
    ASSERT_TRUE(cost.ok()) << cost.error().message;
    cost_ = *cost;
    auto sim = simulate(plan_, cost_.get());
    ASSERT_TRUE(sim.ok()) << sim.error().message;
    sim_ = std::move(*sim);
    auto out = export_torch_pp(plan_, cost_.get(), TorchPPFormat::ComputeOnly);
    ASSERT_TRUE(out.ok()) << out.error().message;
    export_ = std::move(*out);
    auto lowered = lower_torch_pp(export_.rows, {0, 1}, export_.layout.microbatches);
    ASSERT_TRUE(lowered.ok());
    lowered_ = std::move(*lowered);
  }

  // The CSV and every rank's trace in `where` (default the test's folder), rank r at
  // `name(r)`; `extra[r]` are more events of rank r.
  void write_run(const fs::path& where, const std::string& csv_text,
                 std::function<std::string(int)> name, bool split = false,
                 std::map<int, std::vector<std::string>> extra = {}) {
    fs::create_directories(where);
    if (!csv_text.empty()) std::ofstream(dir_ / "torch-pp.csv") << csv_text;
    const int world = plan_.stages * plan_.dp();
    for (int rank = 0; rank < world; ++rank) {
      const int replica = rank / plan_.stages, stage = rank % plan_.stages;
      std::ofstream(where / name(rank)) << testing::torch_pp_rank_trace(
          sim_, export_.layout.backward_of, lowered_[static_cast<std::size_t>(stage)], replica,
          rank, world, split, extra[rank]);
    }
  }
  // The export's rows, with each backward split into its input and weight parts.
  std::string split_csv() const {
    TorchPPRows rows;
    for (const auto& row : export_.rows) {
      rows.emplace_back();
      for (TorchPPAction a : row) {
        if (a.type != TorchPPType::FullBackward) {
          rows.back().push_back(a);
          continue;
        }
        a.type = TorchPPType::BackwardInput;
        rows.back().push_back(a);
        a.type = TorchPPType::BackwardWeight;
        rows.back().push_back(a);
      }
    }
    return torch_pp_csv_text(rows);
  }
  void write_run(bool split = false, std::map<int, std::vector<std::string>> extra = {}) {
    write_run(
        dir_, split ? split_csv() : export_.csv,
        [](int r) { return "rank" + std::to_string(r) + ".json"; }, split, std::move(extra));
  }

  TraceRunRequest request(const std::string& rules = "torch-pp") const {
    TraceRunRequest r;
    r.files = {dir_.string()};
    r.options.rules = rules;
    return r;
  }

  Expected<TraceRunCheck> check(const TraceRunRequest& r) const {
    auto run = load_trace_run(r);
    if (!run) return run.error();
    return check_trace_run(*run, r, plan_, sim_, nullptr);
  }

  std::string error_of(const TraceRunRequest& r) const {
    auto c = check(r);
    EXPECT_FALSE(c.ok());
    return c ? "" : c.error().message;
  }

  std::size_t plan_units() const {
    std::size_t n = 0;
    for (const ReplicaPlan& rep : plan_.replicas)
      n += static_cast<std::size_t>(plan_.stages) * (rep.forward.size() + rep.backward.size());
    return n;
  }

  void expect_every_unit(const TraceRunCheck& c) const {
    EXPECT_EQ(c.check.units.size(), plan_units());
    EXPECT_EQ(c.check.only_simulated, 0);
    EXPECT_EQ(c.check.only_measured, 0);
    EXPECT_NEAR(c.check.mape, 0.0, 1e-6);
    EXPECT_TRUE(run_plan_mismatch(c.check).empty()) << run_plan_mismatch(c.check);
  }

  fs::path dir_;
  Plan plan_;
  std::shared_ptr<const CostModel> cost_;
  SimResult sim_;
  TorchPPExport export_;
  TorchPPRows lowered_;
};

TEST_F(TorchPPRunTest, EveryUnitMatched) {
  write_run();
  auto run = load_trace_run(request());
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_TRUE(run->table.has_value());
  EXPECT_TRUE(run->table->torch_csv);
  EXPECT_EQ(fs::path(run->table->file).filename(), "torch-pp.csv");
  auto c = check_trace_run(*run, request(), plan_, sim_, nullptr);
  ASSERT_TRUE(c.ok()) << c.error().message;
  expect_every_unit(*c);
  const nlohmann::json j = trace_check_json(*run, request(), *c);
  EXPECT_EQ(j["rules"], "torch-pp");
  EXPECT_EQ(j["rank_table"]["kind"], "torch-pp csv");
  EXPECT_NE(trace_check_text(*run, *c, 1).find("ranks         as "), std::string::npos);
}

// torch computes every pack padded to the largest (8192 tokens here): a run whose units last
// what the padded plan costs is exact against the padded plan, which check_trace_run prices with
// the cost model, and off against the plan as it stands; fit-costs fits the padded rows back to
// the model's coefficients (kappa folded into alpha: every unit has 8192 tokens).
TEST_F(TorchPPRunTest, PricedAsTorchRunsIt) {
  auto padded = torch_pp_padded_plan(plan_);
  ASSERT_TRUE(padded.ok()) << padded.error().message;
  for (const ReplicaPlan& rep : padded->replicas)
    for (const Pack& f : rep.forward) EXPECT_EQ(f.tokens(), 8192);
  const SimResult unpadded = sim_;
  auto padded_sim = simulate(*padded, cost_.get());
  ASSERT_TRUE(padded_sim.ok());
  sim_ = *padded_sim;
  write_run();
  auto run = load_trace_run(request());
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto c = check_trace_run(*run, request(), plan_, unpadded, cost_.get());
  ASSERT_TRUE(c.ok()) << c.error().message;
  expect_every_unit(*c);
  EXPECT_EQ(c->priced_as, "every pack padded to 8192 tokens, as torch runs it");
  EXPECT_EQ(trace_check_json(*run, request(), *c)["priced_as"], c->priced_as);
  auto as_planned = check_trace_run(*run, request(), plan_, unpadded, nullptr);
  ASSERT_TRUE(as_planned.ok());
  EXPECT_TRUE(as_planned->priced_as.empty());
  EXPECT_GT(as_planned->check.mape, 0.05);
  auto cal = calibrate_trace_run(*run, request(), plan_, *cost_);
  ASSERT_TRUE(cal.ok()) << cal.error().message;
  EXPECT_LT(cal->mape, 1e-6);
  EXPECT_EQ(cal->units_skipped, 0);
}

TEST_F(TorchPPRunTest, SplitBackwardAddsUp) {
  write_run(/*split=*/true);
  auto c = check(request());
  ASSERT_TRUE(c.ok()) << c.error().message;
  expect_every_unit(*c);
}

TEST_F(TorchPPRunTest, TwoReplicas) {
  use(packed_plan(2, {{4096}, {2048, 1024}, {8192}, {512}}));
  write_run();
  auto c = check(request());
  ASSERT_TRUE(c.ok()) << c.error().message;
  expect_every_unit(*c);
}

// Backward packs in another order than their forward packs: torch's B j is the plan's backward
// pack that runs forward pack j's backward.
TEST_F(TorchPPRunTest, BackwardPacksRenumbered) {
  Plan plan = packed_plan(1, {{4096}, {2048, 1024}, {8192}});
  plan.schedule = ScheduleKind::GPipe;
  std::swap(plan.replicas[0].backward[0], plan.replicas[0].backward[2]);
  use(plan);
  ASSERT_EQ(export_.layout.backward_of, (std::vector<int>{2, 1, 0}));
  write_run();
  auto c = check(request());
  ASSERT_TRUE(c.ok()) << c.error().message;
  expect_every_unit(*c);
}

// The CSV says which rank runs which stage: here pipeline rank 0 runs stage 1.
TEST_F(TorchPPRunTest, StagesFromTheCsv) {
  write_run(dir_, "1F0,1B0,1F1,1B1,1F2,1B2\n0F0,0F1,0B0,0F2,0B1,0B2\n",
            [](int r) { return "rank" + std::to_string(1 - r) + ".json"; });
  // rank<1 - r>.json holds stage r's ranges, so rank 0 holds stage 1's: as the CSV says. The
  // files' distributedInfo still says rank r: drop it by naming the ranks in the files only.
  for (int r = 0; r < 2; ++r) {
    const fs::path p = dir_ / ("rank" + std::to_string(r) + ".json");
    std::ifstream in(p);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("\"rank\": "), 8, "\"was\": ");
    std::ofstream(p) << text;
  }
  auto c = check(request());
  ASSERT_TRUE(c.ok()) << c.error().message;
  expect_every_unit(*c);
}

TEST_F(TorchPPRunTest, TorchtitanLayoutTakesTheHighestIteration) {
  const fs::path traces = dir_ / "profiling" / "traces";
  // iteration_2 holds a broken file: only iteration_10 (the highest, not the last by name) is read.
  fs::create_directories(traces / "iteration_2");
  std::ofstream(traces / "iteration_2" / "rank0_trace.json") << "{broken";
  write_run(traces / "iteration_10", export_.csv,
            [](int r) { return "rank" + std::to_string(r) + "_trace.json"; });
  auto run = load_trace_run(request());
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_NE(run->layout_note.find("iteration_10 (the highest of 2 iteration folders)"),
            std::string::npos)
      << run->layout_note;
  EXPECT_TRUE(run->table->pipeline_outermost);
  auto c = check_trace_run(*run, request(), plan_, sim_, nullptr);
  ASSERT_TRUE(c.ok()) << c.error().message;
  expect_every_unit(*c);
  EXPECT_EQ(trace_check_json(*run, request(), *c)["layout"], run->layout_note);
}

TEST_F(TorchPPRunTest, OpenRunCarriesTheCsv) {
  write_run();
  std::ofstream(dir_ / "plan.json") << plan_to_string(plan_);
  auto files = run_files({dir_.string()});
  ASSERT_TRUE(files.ok()) << files.error().message;
  EXPECT_EQ(fs::path(files->plan_file).filename(), "plan.json");
  ASSERT_EQ(files->traces.size(), 3u);
  EXPECT_EQ(fs::path(files->traces.back()).filename(), "torch-pp.csv");
  // The explorer's request is these files: the CSV is the table again.
  TraceRunRequest r;
  r.files = files->traces;
  r.options.rules = "torch-pp";
  auto run = load_trace_run(r);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->ranks.size(), 2u);
  ASSERT_TRUE(run->table.has_value());
}

// ---- errors -----------------------------------------------------------------------------------

TEST_F(TorchPPRunTest, RangeNamingNoUnit) {
  write_run(false, {{0,
                     {R"({"ph": "X", "cat": "user_annotation", "name": "PP:0F7", "pid": 100, )"
                      R"("tid": 100, "ts": 1e6, "dur": 3})"}}});
  const std::string e = error_of(request());
  EXPECT_NE(e.find("rank0.json: traceEvents["), std::string::npos) << e;
  EXPECT_NE(e.find("]: PP:0F7 names micro-batch 7, and the plan has 3 packs per replica "
                   "(micro-batches 0-2): it names no unit of the plan"),
            std::string::npos)
      << e;
}

TEST_F(TorchPPRunTest, RangeOfAnotherStage) {
  write_run(false, {{1,
                     {R"({"ph": "X", "cat": "user_annotation", "name": "PP:0SEND_F1", )"
                      R"("pid": 101, "tid": 101, "ts": 1e6, "dur": 3})"}}});
  const std::string e = error_of(request());
  EXPECT_NE(e.find("rank1.json: traceEvents["), std::string::npos) << e;
  EXPECT_NE(e.find("PP:0SEND_F1 is an action of stage 0, and this rank runs stage 1 ("),
            std::string::npos)
      << e;
}

TEST_F(TorchPPRunTest, RangeOfAnotherSyntax) {
  write_run(false, {{0,
                     {R"({"ph": "X", "cat": "user_annotation", "name": "PP:0BW1", "pid": 100, )"
                      R"("tid": 100, "ts": 1e6, "dur": 3})"}}});
  EXPECT_NE(error_of(request()).find("PP:0BW1 is not a range of torch's pipeline runtime: '0BW1' "
                                     "is not an action"),
            std::string::npos);
}

TEST_F(TorchPPRunTest, ComputeRangeNotInTheCsv) {
  write_run(false, {{0,
                     {R"({"ph": "X", "cat": "user_annotation", "name": "PP:0I1", "pid": 100, )"
                      R"("tid": 100, "ts": 1e6, "dur": 3})"}}});
  EXPECT_NE(error_of(request()).find("PP:0I1 is not in row 1 (rank 0) of "), std::string::npos);
}

TEST_F(TorchPPRunTest, CsvOfAnotherSyntax) {
  write_run(dir_, "0F0,0F1,0B0,0F2,0BW1,0B2\n1F0,1B0,1F1,1B1,1F2,1B2\n",
            [](int r) { return "rank" + std::to_string(r) + ".json"; });
  const std::string e = error_of(request());
  EXPECT_NE(e.find("torch-pp.csv: row 1 (rank 0), cell 5: '0BW1' is not an action of PyTorch's "
                   "pipeline action syntax"),
            std::string::npos)
      << e;
}

TEST_F(TorchPPRunTest, RanksDoNotMatchTheCsv) {
  write_run();
  fs::remove(dir_ / "rank1.json");
  EXPECT_NE(error_of(request()).find("torch-pp.csv: rank 1 (stage 1, replica 0) has no trace "
                                     "among the run's 1 files: the run's ranks do not match it"),
            std::string::npos);
  write_run();
  fs::copy_file(dir_ / "rank1.json", dir_ / "rank2.json");
  // rank2.json says rank 1 in its distributedInfo: two files of rank 1.
  EXPECT_NE(error_of(request()).find("is also the rank of"), std::string::npos);
  fs::remove(dir_ / "rank2.json");
  std::ofstream(dir_ / "rank2.json")
      << testing::torch_pp_rank_trace(sim_, export_.layout.backward_of, lowered_[1], 0, 2, 3);
  EXPECT_NE(error_of(request()).find("rank2.json: rank 2 (from its distributedInfo) is not a rank "
                                     "of the plan: it has 2 (2 pipeline ranks of "),
            std::string::npos);
  fs::remove(dir_ / "rank2.json");
  std::ofstream(dir_ / "torch-pp.csv") << "0F0,0B0\n1F0,1B0\n2F0,2B0\n";
  EXPECT_NE(error_of(request()).find("torch-pp.csv: 3 pipeline ranks (rows), and the plan has 2 "
                                     "stages: not a run of this plan"),
            std::string::npos);
}

TEST_F(TorchPPRunTest, OtherRulesHintAtTorchPP) {
  write_run();
  EXPECT_NE(error_of(request("slimpack")).find("--trace-rules torch-pp)"), std::string::npos);
}

TEST_F(TorchPPRunTest, PlanTorchCannotRun) {
  write_run();
  Plan other = plan_;
  Pack both;
  both.segments = {other.replicas[0].forward[0].segments[0],
                   other.replicas[0].forward[1].segments[0]};
  other.replicas[0].backward[0] = both;
  other.replicas[0].backward[1].segments.erase(other.replicas[0].backward[1].segments.begin());
  auto run = load_trace_run(request());
  ASSERT_TRUE(run.ok());
  auto m = map_trace_run(*run, request(), 2, 1);
  ASSERT_TRUE(m.ok()) << m.error().message;
  const Status s = apply_torch_pp_plan(*run, other, *m);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("but torch's pipeline runtime cannot run this plan: backward "
                                   "pack 0 regroups forward packs 0 and 1"),
            std::string::npos)
      << s.error().message;
}

}  // namespace
}  // namespace slimpack
