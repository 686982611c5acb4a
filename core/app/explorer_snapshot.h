#pragma once
// The immutable result of one pipeline run (core/app/pipeline.h). The GUI keeps a shared_ptr<const
// ExplorerSnapshot> and replaces it wholesale when a newer one arrives, so nothing the painter
// reads is ever mutated.
#include <memory>
#include <string>
#include <vector>

#include "app/scenario.h"
#include "cost/cost_model.h"
#include "plan/plan.h"
#include "render/gantt_model.h"
#include "sim/sim_result.h"
#include "solver/strategy.h"
#include "workload/lengths.h"

namespace slimpack {

struct ExplorerSnapshot {
  WorkloadSpec workload;
  ConfigSpec config;
  // The pool the batch was drawn from; reused by the next request when only the seed, budget or
  // configuration changed.
  std::shared_ptr<const LengthPool> pool;
  std::vector<Tokens> batch_lengths;  // in batch order
  LengthStats batch_stats;
  // Set when the plan came from a plan file instead of the solver.
  std::string plan_file;
  std::shared_ptr<const Plan> plan;
  SolveStats solve_stats;
  SimResult sim;
  std::shared_ptr<const GanttModel> gantt;  // the timeline the Gantt view draws
  std::string workload_label;               // "preset long-sft-128k, seed 42", "plan FILE"
  std::shared_ptr<const CostModel> cost;    // null for an explicit-time plan
  double memory_cap_bytes = 0.0;            // 0 = not modelled (explicit-time plans)
  double seconds_load = 0.0;  // wall time of each pipeline stage, shown in the status bar
  double seconds_solve = 0.0;
  double seconds_simulate = 0.0;
};

using SnapshotPtr = std::shared_ptr<const ExplorerSnapshot>;

}  // namespace slimpack
