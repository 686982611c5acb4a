#pragma once
// Where each rank of a measured run runs: the request's explicit table, else the run's own table
// (a PyTorch pipeline CSV or a schedule beside its traces, core/app/run_layout.h), else the
// default rank = replica * stages + stage.
#include <string>
#include <vector>

#include "app/trace_run.h"
#include "common/status.h"

namespace slimpack {

struct RankTable {
  std::vector<RankPosition> positions;  // by rank; its size is the run's world
  std::string how;   // how ranks are numbered, for errors: "(2 replicas x 2 stages, rank = ...)"
  std::string file;  // the run's table file, when it has one: then every rank needs its trace
};

// For a plan of `stages` stages and `replicas` replicas. Errors: a torch CSV whose pipeline ranks
// are not the plan's stages, a schedule whose table is not the plan's shape.
Expected<RankTable> run_rank_table(const TraceRun& run, const TraceRunRequest& request, int stages,
                                   int replicas);

}  // namespace slimpack
