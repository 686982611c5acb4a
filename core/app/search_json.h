#pragma once
// The files of `slimpack search` (docs/search.md): the result JSON, its CSV, and the shard files
// (JSONL: a header line naming the search, then one row per finished configuration) that sharded
// runs append to, resume from and `slimpack search merge` reads.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "app/search.h"

namespace slimpack {

// What identifies a search: the workload, K, every option of the base configuration, the resolved
// space and whether it prunes. Shards and resumed files must carry the same one.
nlohmann::json search_descriptor(const SearchRequest& request, const SearchSpace& resolved);

// One row: {"index", "key", "p", "t", "c", "d", "slice", "recompute", "schedule", "strategy",
// "gpus", "status", "feasible", "limit", "reason", "batch", "memory_check",
// "mean_iteration_time", "p95_iteration_time", "tokens_per_second_per_gpu",
// "peak_memory_bytes", "bound_tokens_per_second_per_gpu", "bound_peak_memory_bytes"}; figures
// are null unless solved.
nlohmann::json search_row_json(const SearchRow& row);
// `where` names the row in errors ("shard.jsonl:12").
Expected<SearchRow> search_row_from_json(const nlohmann::json& j, const std::string& where);

// {"format": "slimpack-search", "version": 1, "search": descriptor, "configs": [...],
//  "front": [...], "front_gpus", "front_memory", "ranking", "stats"}: indices into "configs".
// Nothing in it depends on timing, so a merged search writes the same file as an unsharded one.
nlohmann::json search_result_json(const SearchResult& result, const nlohmann::json& descriptor);
// One line per configuration in canonical order, with "on_front".
std::string search_csv(const SearchResult& result);

struct ShardFile {
  nlohmann::json descriptor;
  int shard = 0;
  int shards = 1;
  int configs = 0;  // in the whole space
  std::vector<SearchRow> rows;
};
// The header line of a shard file.
nlohmann::json shard_header(const nlohmann::json& descriptor, int shard, int shards, int configs);
// Reads a shard file; an unfinished last line (a run killed while writing it) is dropped.
Expected<ShardFile> read_shard_file(const std::string& path);

// The shards of one search, together: every configuration present exactly once, then
// finish_search as the unsharded run does. Errors name the file and what is missing.
Expected<SearchResult> merge_shards(const std::vector<ShardFile>& files,
                                    const std::vector<std::string>& paths,
                                    nlohmann::json& descriptor);

}  // namespace slimpack
