#pragma once
// One application path for a measured run: its traces (one file per rank) loaded and aligned,
// mapped to the plan's units and held against its simulation (check_trace_run) or fitted to its
// cost model (calibrate_trace_run). `slimpack simulate --check-trace`, `slimpack fit-costs
// --trace` and the explorer's Traces tab all build a TraceRunRequest and call these, so they see
// the same units, errors and fitted profile for the same run. No Qt, no threads.
//
// Ranks: a file's rank is its distributedInfo.rank, else a number in its name (rank3, _3.json),
// else its position among the files given. Rank r is stage r % stages of replica r / stages
// (rank = replica * stages + stage), and every lane of its file (CPU threads, GPU streams) is
// that stage; our own `simulate --trace` exports map by their thread names instead, and a lane
// file (TraceSpec::lanes_file) replaces both.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/scenario.h"
#include "common/cancel.h"
#include "common/progress.h"
#include "common/status.h"
#include "common/task_pool.h"
#include "cost/cost_model.h"
#include "plan/plan.h"
#include "schedule/torch_pp_actions.h"
#include "sim/sim_result.h"
#include "trace/trace_calibrate.h"
#include "trace/trace_check.h"
#include "trace/trace_import.h"
#include "trace/trace_units.h"

namespace slimpack {

// Where rank r of a run runs: a schedule file's rank table gives it; without one, rank =
// replica * stages + stage.
struct RankPosition {
  int replica = 0;
  int stage = 0;
  bool operator==(const RankPosition&) const = default;
};

// What a front end asks for: the files (a folder stands for the trace files in it) and how to
// read them.
struct TraceRunRequest {
  std::vector<std::string> files;
  TraceSpec options;
  std::string rules_json;  // rules edited in the explorer's dialog; empty: options.rules
  std::vector<RankPosition> rank_table;  // by rank; empty: rank = replica * stages + stage
  bool operator==(const TraceRunRequest&) const = default;
};

enum class RankFrom { DistributedInfo, FileName, Order };
const char* rank_from_name(RankFrom from);  // "distributedInfo", "file name", "order"

struct RankTrace {
  std::string path;
  std::string label;  // the file name
  int rank = 0;
  RankFrom rank_from = RankFrom::Order;
  double shift_us = 0.0;  // added to every time of the file by the alignment
  std::shared_ptr<const ImportedTrace> trace;
};

// Which rank of a run runs which stage, from a file of the run (core/app/run_layout.h): a
// PyTorch pipeline CSV (one row per pipeline rank) or a slimpack schedule (its rank table).
struct RunTable {
  std::string file;
  bool torch_csv = false;
  // torch CSV: per pipeline rank (row) its stage, the micro-batch count and the rows.
  std::vector<int> stage_of_rank;
  int microbatches = 0;
  TorchPPRows rows;
  // torchtitan's layout puts the pipeline outermost: rank = pipeline rank * replicas + replica.
  // Otherwise (the runtime's) rank = replica * pipeline ranks + pipeline rank.
  bool pipeline_outermost = false;
  std::vector<RankPosition> ranks;  // schedule: by rank
};

struct TraceRun {
  std::vector<RankTrace> ranks;  // sorted by rank
  std::int64_t bytes = 0;        // JSON text read (decompressed)
  std::optional<RunTable> table;
  std::string layout_note;  // where the traces were found, when a folder's layout chose them
};

// The files a request names: a folder becomes its trace files (core/trace/trace_sniff.h) in name
// order, or those of torchtitan's latest iteration folder (core/app/run_layout.h). A file named
// twice is an error, not "the last one wins".
Expected<std::vector<std::string>> trace_run_files(const std::vector<std::string>& given);

// A run opened whole (the explorer's File > Open Run…): a plan file and its rank traces, given as
// files or a folder holding them. The plan is the one JSON file whose "format" is slimpack-plan or
// slimpack-schedule; the traces are the files that look like traces (in a folder, as
// run_layout finds them: torchtitan's iteration folders too). Errors: no plan or two, no trace, a
// file that is neither.
struct RunFiles {
  std::string plan_file;
  // The files of the run's TraceRunRequest: the traces, then the run's PyTorch pipeline CSV when
  // it has one (it says which rank runs which stage; load_trace_run reads it as the table).
  std::vector<std::string> traces;
};
Expected<RunFiles> run_files(const std::vector<std::string>& given);

// Gives each file its rank: `info_ranks[i]` (file i's distributedInfo.rank, -1 when it has none),
// else a number in its name, else the lowest free number in the order given (RankTrace::rank and
// rank_from set). Two files of one rank are an error naming both. Only `path` is read of each
// file, so a caller that does not keep the traces (the streaming summary) assigns ranks alike.
Status assign_ranks(std::vector<RankTrace>& files, const std::vector<int>& info_ranks);

// Imports every file (events kept; args too when `keep_args`, for the explorer's tooltips), gives
// each its rank (two files of one rank are an error naming both) and aligns the clocks
// (TraceSpec::align_event or offsets_us). The first failure is the result: nothing partial.
// The files are imported on the pool's workers (several ranks at once).
Expected<TraceRun> load_trace_run(const TraceRunRequest& request, bool keep_args = false,
                                  const CancelToken& cancel = CancelToken::none(),
                                  ProgressSink& progress = ProgressSink::none(),
                                  TaskPool& pool = TaskPool::serial());

// The request's unit rules: the edited set, a built-in set's name, or a rules file.
Expected<UnitRuleSet> trace_rule_set(const TraceRunRequest& request);

// The units of the run for a plan of `stages` stages and `replicas` replicas, each rank's file at
// its place in the request's rank table, else the run's table (a torch CSV or a schedule beside
// the traces: then every rank of it needs its file), else the default one.
Expected<MappedTrace> map_trace_run(const TraceRun& run, const TraceRunRequest& request, int stages,
                                    int replicas);

struct TraceRunCheck {
  MappedTrace mapped;
  TraceCheck check;
  // How the simulation priced the units when not as the plan stands: a run of torch's runtime
  // computes every pack padded to the largest one, and is held against that ("" otherwise).
  std::string priced_as;
  // Why the run cannot be a run of the plan (run_plan_mismatch), "" when it can be. When set, no
  // per-unit or makespan percentage is shown by any front end: it would compare two different
  // runs (trace_report.h prints the verdict instead, the explorer's table has no Error column).
  std::string mismatch;
  // What priced the simulation (check_run, core/app/run_check.h: "the schedule's setup (...)"),
  // "" when the caller priced it.
  std::string priced_by;
};

// The units of the run for `plan`: map_trace_run, and for the `torch-pp` rules the run checked
// against the plan (core/app/torch_pp_run.h: every PP: range names an action of the plan on its
// rank) with torch's micro-batches renumbered as the plan's backward packs.
Expected<MappedTrace> map_plan_run(const TraceRun& run, const TraceRunRequest& request,
                                   const Plan& plan);

// Measured against simulated, with the verdict: the run's units against `sim`, the simulation of
// `plan`, and whether the run can be one of the plan (TraceRunCheck::mismatch). A run of
// torch's runtime (rules torch-pp) is held against the plan padded as torch runs it
// (torch_pp_padded_plan), simulated with `cost`; without a cost model (a plan of explicit times,
// which padding does not change) against `sim`.
Expected<TraceRunCheck> check_trace_run(const TraceRun& run, const TraceRunRequest& request,
                                        const Plan& plan, const SimResult& sim,
                                        const CostModel* cost);

// The cost model a run of `plan` is inverted through: the simulation's own when it had one (the
// explorer's snapshot, `simulate`), else the plan-file rule (plan_cost_model, core/app/pipeline.h)
// with the model named, as `fit-costs --trace --plan` does.
Expected<std::shared_ptr<const CostModel>> trace_cost_model(
    const Plan& plan, const ConfigSpec& config,
    const std::shared_ptr<const CostModel>& simulated = nullptr);

// Calibrate from the run: its units fitted to `cost`'s per-layer coefficients; a run of torch's
// runtime with each unit's padded pack (torch_pp_padded_plan), the rows it really computed.
Expected<TraceCalibration> calibrate_trace_run(const TraceRun& run, const TraceRunRequest& request,
                                               const Plan& plan, const CostModel& cost);

// Why the measured run cannot be a run of the plan it was checked against, or "" when it can be:
// too few of the plan's units found in the trace, units of the trace with no pack of the plan, or
// a makespan off by more than kRunScaleLimit times (another scale: a 112 ms trace beside a 9.3 s
// plan). A percentage error means nothing then; the explorer says this instead.
inline constexpr double kRunUnmatchedLimit = 0.1;  // of the plan's units
inline constexpr double kRunScaleLimit = 3.0;
std::string run_plan_mismatch(const TraceCheck& check);
// Only the units' part of run_plan_mismatch: too few of the plan's units in the trace, or units
// with no pack of the plan. A run at another scale is still a run of the plan for calibration,
// which exists to fit that scale (a CPU run of a schedule priced by nominal FLOPs, a slower GPU).
std::string run_units_mismatch(const TraceCheck& check);

// The calibration of a run with its review, one call for both front ends:
// core/app/run_calibration.h.

}  // namespace slimpack
