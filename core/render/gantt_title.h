#pragma once
// The title of an exported Gantt: what a reader of a slide needs to know about the picture — the
// workload, the parallel shape (p, t, d), the slice size S, the strategy and the iteration time.
// Pure strings: the GUI, the CLI and the tests build it the same way.
#include <string>

#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack {

struct GanttTitleFacts {
  std::string workload;   // "preset long-sft-128k, seed 42", "plan run.json"; empty = left out
  std::string strategy;   // empty = left out
  int pp = 0;             // pipeline stages p
  int tp = 0;             // tensor-parallel degree t; 0 = unknown, left out
  int dp = 0;             // data-parallel replicas d
  Tokens slice_size = 0;  // S; 0 = the plan slices nothing
  double iteration_time = 0.0;
  std::string time_unit = "s";
};

// The facts of a plan and its simulation; the workload label and t come from the caller (the
// plan does not hold them).
GanttTitleFacts gantt_title_facts(const Plan& plan, const SimResult& result,
                                  const std::string& workload, int tp);

// "long-sft-128k, seed 42 — slimpack · p=4 t=8 d=1 · S=8,192 · iteration 9.31 s"
std::string gantt_title(const GanttTitleFacts& facts);

}  // namespace slimpack
