#include "app/rank_table.h"

namespace slimpack {

Expected<RankTable> run_rank_table(const TraceRun& run, const TraceRunRequest& request, int stages,
                                   int replicas) {
  RankTable t;
  if (!request.rank_table.empty()) {
    t.positions = request.rank_table;
    t.how = "in its rank table";
    return t;
  }
  const std::string plan_shape =
      std::to_string(replicas) + " replicas x " + std::to_string(stages) + " stages";
  if (run.table && !run.table->torch_csv) {
    t.file = run.table->file;
    t.positions = run.table->ranks;
    if (static_cast<int>(t.positions.size()) != stages * replicas)
      return Error::bad_input(t.file + ": its rank table has " +
                              std::to_string(t.positions.size()) + " ranks, the plan " +
                              plan_shape + ": not a run of this plan");
    t.how = "in the rank table of " + t.file;
    return t;
  }
  if (run.table) {
    const RunTable& csv = *run.table;
    t.file = csv.file;
    const int rows = static_cast<int>(csv.stage_of_rank.size());
    if (rows != stages)
      return Error::bad_input(t.file + ": " + std::to_string(rows) +
                              " pipeline ranks (rows), and the plan has " + std::to_string(stages) +
                              " stages: not a run of this plan");
    for (int r = 0; r < rows * replicas; ++r) {
      const int pipeline_rank = csv.pipeline_outermost ? r / replicas : r % rows;
      const int replica = csv.pipeline_outermost ? r % replicas : r / rows;
      t.positions.push_back({replica, csv.stage_of_rank[static_cast<std::size_t>(pipeline_rank)]});
    }
    t.how =
        "(" + std::to_string(rows) + " pipeline ranks of " + t.file + " x " +
        std::to_string(replicas) + " replicas, " +
        (csv.pipeline_outermost ? "rank = pipeline rank * replicas + replica, torchtitan's order)"
                                : "rank = replica * pipeline ranks + pipeline rank)");
    return t;
  }
  for (int r = 0; r < stages * replicas; ++r) t.positions.push_back({r / stages, r % stages});
  t.how = "(" + plan_shape + ", rank = replica * stages + stage)";
  return t;
}

}  // namespace slimpack
