#include "app/dataset_json.h"

namespace slimpack {
namespace {

constexpr double kGB = 1e9;

nlohmann::json spread_json(const std::optional<Spread>& s, double scale = 1.0) {
  if (!s) return nullptr;
  return {{"median", s->median / scale}, {"p95", s->p95 / scale}, {"max", s->max / scale}};
}

nlohmann::json cell_json(const DatasetCell& c) {
  if (!c.solved()) return {{"infeasible", c.reason}};
  return {{"iteration_s", c.iteration_s},
          {"peak_memory_gb", c.peak_memory_bytes / kGB},
          {"solver_s", c.solver_s}};
}

nlohmann::json strategy_json(const DatasetResult& result, const DatasetStrategy& s) {
  nlohmann::json cells = nlohmann::json::array();
  for (const DatasetCell& c : s.cells) cells.push_back(cell_json(c));
  nlohmann::json first = nullptr;
  if (s.first_infeasible >= 0)
    first = {{"batch", dataset_batch_json(result, s.first_infeasible)}, {"reason", s.first_reason}};
  return {{"strategy", s.strategy},
          {"baseline", s.baseline},
          {"speedup", s.speedup ? nlohmann::json(*s.speedup) : nlohmann::json(nullptr)},
          {"solved", s.solved},
          {"infeasible", s.infeasible},
          {"first_infeasible", first},
          {"iteration_s", spread_json(s.iteration_s)},
          {"peak_memory_gb", spread_json(s.peak_memory_bytes, kGB)},
          {"solver_s", spread_json(s.solver_s)},
          {"worst_batch",
           s.worst_batch >= 0 ? dataset_batch_json(result, s.worst_batch) : nlohmann::json()},
          {"per_batch", cells}};
}

}  // namespace

nlohmann::json dataset_batch_json(const DatasetResult& result, int batch) {
  const DatasetBatch& id = result.batches.at(static_cast<std::size_t>(batch));
  nlohmann::json j =
      result.file_batches ? nlohmann::json{{"index", id.index}} : nlohmann::json{{"seed", id.seed}};
  j["simulate"] = dataset_batch_option(result, batch);
  return j;
}

nlohmann::json dataset_json(const DatasetResult& result, const nlohmann::json& header) {
  nlohmann::json j = {{"format", "slimpack-dataset"}, {"version", 1}};
  for (const auto& [key, value] : header.items()) j[key] = value;
  j["batch_order"] = result.file_batches ? "file" : "seeded";
  j["available_batches"] = result.available;
  nlohmann::json batches = nlohmann::json::array();
  for (std::size_t b = 0; b < result.batches.size(); ++b) {
    nlohmann::json id = dataset_batch_json(result, static_cast<int>(b));
    id["sequences"] = result.batches[b].sequences;
    id["tokens"] = result.batches[b].tokens;
    batches.push_back(std::move(id));
  }
  j["batches"] = std::move(batches);
  nlohmann::json strategies = nlohmann::json::array();
  for (const DatasetStrategy& s : result.strategies) strategies.push_back(strategy_json(result, s));
  j["strategies"] = std::move(strategies);
  return j;
}

}  // namespace slimpack
