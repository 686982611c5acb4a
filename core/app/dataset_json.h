#pragma once
// The JSON of `slimpack dataset --json` (format "slimpack-dataset", docs/file-formats-dataset.md),
// also what the explorer's Dataset tab exports.
#include <nlohmann/json.hpp>

#include "app/dataset.h"

namespace slimpack {

// `header` (workload, model, GPU, parallelism) is written first, as the caller names them.
nlohmann::json dataset_json(const DatasetResult& result, const nlohmann::json& header);

// {"index": 3} or {"seed": 45}: the batch's id, with "simulate": the options that show it.
nlohmann::json dataset_batch_json(const DatasetResult& result, int batch);

}  // namespace slimpack
