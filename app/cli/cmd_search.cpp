// slimpack search: which configuration trains fastest on this dataset within a GPU budget
// (docs/search.md); slimpack search merge: the shards of one search, together.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "app/config_options.h"
#include "app/search.h"
#include "app/search_json.h"
#include "app/search_space_text.h"
#include "args.h"
#include "commands.h"
#include "common/json_util.h"
#include "output.h"
#include "search_report.h"
#include "setup.h"
#include "stderr_progress.h"
#include "thread_pool.h"

namespace slimpack::cli {
namespace {

std::vector<OptionSpec> search_specs() {
  std::vector<OptionSpec> specs = workload_options();
  for (auto& s : config_options()) specs.push_back(s);
  // The searched options take lists; their help says what the space tries by default.
  const std::pair<const char*, const char*> kListHelp[] = {
      {"pp", "pipeline stages p to try"},
      {"tp", "tensor-parallel degrees t"},
      {"cp", "context-parallel degrees c"},
      {"dp", "data-parallel degrees d"},
      {"slice", "slice sizes S for slicing strategies"},
      {"recompute", "recompute modes"},
      {"schedule", "schedules (interleaved only for unsliced strategies)"},
      {"strategy", "strategies"}};
  for (auto& s : specs)
    for (const auto& [name, help] : kListHelp)
      if (s.name == name) {
        s.value = "LIST";
        s.help = std::string(help) + " (default: " + space_list_default(name) + ")";
      }
  specs.push_back({"gpus", "N", "the GPU budget: p * t * c * d <= N (required)"});
  specs.push_back({"min-gpus", "N", "only configurations with at least N GPUs (default 1)"});
  specs.push_back(
      {"gpus-per-node", "N", "GPUs of a node; t stays within one (default: the GPU preset's)"});
  specs.push_back({"batches", "K", "evaluate every configuration on K seeded batches (default 8)"});
  specs.push_back({"threads", "N", "worker threads (default: one per core)"});
  specs.push_back({"no-prune", "", "solve every configuration (no memory check, no bounds)"});
  specs.push_back({"shard", "K/N",
                   "take shard K of N: a hash of its index deals every configuration to one "
                   "shard (default from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT when set)"});
  specs.push_back({"shard-dir", "DIR",
                   "append each finished configuration to DIR/shard-K-of-N.jsonl and resume "
                   "from it (needed with --shard)"});
  specs.push_back({"count", "", "print the number of configurations in the space and exit"});
  specs.push_back({"json", "FILE", "write the result as JSON ('-' = stdout)"});
  specs.push_back({"csv", "FILE", "write one line per configuration as CSV ('-' = stdout)"});
  specs.push_back({"top", "N", "ranked rows to print (default 10)"});
  specs.push_back({"quiet", "", "no progress on stderr"});
  specs.push_back({"help", "", "show this help"});
  return specs;
}

Expected<SearchSpace> space_from(const Args& args) {
  SearchSpace s;
  auto gpus = args.get_int("gpus", 0);
  if (!gpus) return gpus.error();
  if (!args.has("gpus")) return Error::bad_input("--gpus: give the GPU budget, e.g. --gpus 64");
  s.gpus = static_cast<int>(*gpus);
  auto min_gpus = args.get_int("min-gpus", 1);
  if (!min_gpus) return min_gpus.error();
  s.min_gpus = static_cast<int>(*min_gpus);
  auto per_node = args.get_int("gpus-per-node", 0);
  if (!per_node) return per_node.error();
  if (args.has("gpus-per-node") && *per_node < 1)
    return Error::bad_input("--gpus-per-node: must be at least 1");
  s.gpus_per_node = static_cast<int>(*per_node);
  for (std::string_view key : kSearchListOptions) {
    const std::string flag(key);
    if (!args.has(flag)) continue;
    if (Status st = set_space_list(s, key, *args.get(flag), cli_name(*find_option(key))); !st)
      return st.error();
  }
  return s;
}

// "--shard K/N", else the Slurm array task, else 0/1.
Status read_shard(const Args& args, int& shard, int& shards) {
  shard = 0;
  shards = 1;
  std::string text;
  if (auto v = args.get("shard")) {
    text = *v;
  } else if (const char* id = std::getenv("SLURM_ARRAY_TASK_ID")) {
    const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
    const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
    if (count == nullptr) return {};
    auto k = parse_int(id, "SLURM_ARRAY_TASK_ID");
    if (!k) return k.error();
    auto n = parse_int(count, "SLURM_ARRAY_TASK_COUNT");
    if (!n) return n.error();
    auto lo = parse_int(min != nullptr ? min : "0", "SLURM_ARRAY_TASK_MIN");
    if (!lo) return lo.error();
    text = std::to_string(*k - *lo) + "/" + std::to_string(*n);
  } else {
    return {};
  }
  const auto slash = text.find('/');
  if (slash == std::string::npos)
    return Error::bad_input("--shard: expected K/N (e.g. 3/8), got '" + text + "'");
  auto k = parse_int(text.substr(0, slash), "--shard");
  if (!k) return k.error();
  auto n = parse_int(text.substr(slash + 1), "--shard");
  if (!n) return n.error();
  if (*n < 1 || *k < 0 || *k >= *n)
    return Error::bad_input("--shard: K/N needs 0 <= K < N, got '" + text + "'");
  shard = static_cast<int>(*k);
  shards = static_cast<int>(*n);
  return {};
}

// Appends rows to a shard file, one JSON line each, flushed so a killed run keeps what it did.
class ShardWriter {
 public:
  explicit ShardWriter(const std::string& path) : out_(path, std::ios::app) {}
  bool ok() const { return out_.good(); }
  void write(const SearchRow& row) {
    std::lock_guard lock(mutex_);
    out_ << search_row_json(row).dump() << '\n';
    out_.flush();
  }

 private:
  std::mutex mutex_;
  std::ofstream out_;
};

Status write_outputs(const Args& args, const SearchResult& result, const nlohmann::json& desc) {
  if (auto dest = args.get("json"))
    if (Status s = write_json_output(*dest, search_result_json(result, desc)); !s) return s;
  if (auto dest = args.get("csv"))
    if (Status s = write_text_output(*dest, search_csv(result)); !s) return s;
  return {};
}

// Errors about the search's own settings name their option; the rest as the option table names
// them.
Error search_option_error(const Error& e) {
  return name_search_error(e, cli_name, [](std::string_view field) {
    std::string flag = "--" + std::string(field);
    std::replace(flag.begin(), flag.end(), ' ', '-');
    return flag;
  });
}

bool text_to_stdout(const Args& args) {
  return args.get_or("json", "") != "-" && args.get_or("csv", "") != "-";
}

int cmd_search_merge(int argc, char** argv) {
  std::vector<OptionSpec> specs = {
      {"json", "FILE", "write the merged result as JSON ('-' = stdout)"},
      {"csv", "FILE", "write one line per configuration as CSV ('-' = stdout)"},
      {"top", "N", "ranked rows to print (default 10)"},
      {"help", "", "show this help"}};
  auto args = Args::parse(argc, argv, 3, specs);
  if (!args) return report_error("search merge", args.error());
  if (args->has("help")) {
    std::fputs(format_help("slimpack search merge SHARD.jsonl... [options]",
                           "Merges the shard files of one search (slimpack search --shard K/N "
                           "--shard-dir DIR) into the table and front an unsharded run gives.",
                           specs)
                   .c_str(),
               stdout);
    return 0;
  }
  std::vector<ShardFile> files;
  for (const auto& path : args->positional()) {
    auto f = read_shard_file(path);
    if (!f) return report_error("search merge", f.error());
    files.push_back(std::move(*f));
  }
  nlohmann::json descriptor;
  auto merged = merge_shards(files, args->positional(), descriptor);
  if (!merged) return report_error("search merge", merged.error());
  auto top = args->get_int("top", 10);
  if (!top) return report_error("search merge", top.error());
  if (Status s = write_outputs(*args, *merged, descriptor); !s)
    return report_error("search merge", s.error());
  if (text_to_stdout(*args))
    std::fputs(("merged " + std::to_string(files.size()) + " shard files\n" +
                search_report(*merged, static_cast<int>(*top)))
                   .c_str(),
               stdout);
  return kExitOk;
}

}  // namespace

int cmd_search(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[2]) == "merge") return cmd_search_merge(argc, argv);
  const std::vector<OptionSpec> specs = search_specs();
  auto args = Args::parse(argc, argv, 2, specs);
  if (!args) return report_error("search", args.error());
  if (args->has("help")) {
    std::fputs(
        format_help(
            "slimpack search --gpus N [options]\n       slimpack search merge SHARD.jsonl...",
            "Searches p x t x c x d within N GPUs, slice size, recompute, schedule and "
            "strategy on K seeded batches of the workload; prints the configurations "
            "ranked by tokens/s per GPU and the Pareto front against GPUs and peak memory "
            "(docs/search.md).",
            specs)
            .c_str(),
        stdout);
    return 0;
  }
  if (!args->positional().empty())
    return report_error("search",
                        Error::bad_input("unexpected argument '" + args->positional()[0] + "'"));
  SearchRequest request;
  auto space = space_from(*args);
  if (!space) return report_error("search", search_option_error(space.error()));
  request.space = *space;
  Args base_args = *args;
  for (std::string_view name : kSearchListOptions) base_args = base_args.without(std::string(name));
  auto workload = workload_spec(*args);
  if (!workload) return report_error("search", workload.error());
  request.workload = *workload;
  auto base = config_spec(base_args);
  if (!base) return report_error("search", base.error());
  request.base = *base;
  auto batches = args->get_int("batches", 8);
  if (!batches) return report_error("search", batches.error());
  // A whole length file is one batch unless a batch size is given.
  const bool whole_file = !request.workload.file.empty() && request.workload.batch_tokens == 0 &&
                          request.workload.batch_count == 0;
  request.batches = static_cast<int>(args->has("batches") || !whole_file ? *batches : 1);
  request.prune = !args->has("no-prune");
  if (Status s = read_shard(*args, request.shard, request.shards); !s)
    return report_error("search", s.error());

  auto resolved = resolve_space(request.space, request.base);
  if (!resolved) return report_error("search", search_option_error(resolved.error()));
  // The searched p, t, c, d and recompute replace a --costs file's: said once, with the lists.
  {
    Args shown = *args;
    for (std::string_view name : kSearchListOptions)
      if (std::string list = space_list_text(*resolved, name); !list.empty())
        shown = shown.with(std::string(name), list);
    std::vector<std::string> varied;
    for (const char* flag : kSearchedOptions) varied.emplace_back(flag);
    if (Status s = report_cost_file_overrides(request.base, shown, varied); !s)
      return report_error("search", s.error());
  }
  auto configs = enumerate_space(*resolved, request.base);
  if (!configs) return report_error("search", search_option_error(configs.error()));
  if (args->has("count")) {
    std::printf("%zu\n", configs->size());
    return kExitOk;
  }
  const nlohmann::json descriptor = search_descriptor(request, *resolved);

  std::unique_ptr<ShardWriter> writer;
  if (request.shards > 1 && !args->has("shard-dir"))
    return report_error("search", Error::bad_input("--shard needs --shard-dir DIR for its file"));
  if (auto dir = args->get("shard-dir")) {
    std::error_code ec;
    std::filesystem::create_directories(*dir, ec);
    const std::string path = *dir + "/shard-" + std::to_string(request.shard) + "-of-" +
                             std::to_string(request.shards) + ".jsonl";
    const nlohmann::json header =
        shard_header(descriptor, request.shard, request.shards, static_cast<int>(configs->size()));
    std::string text = header.dump() + "\n";
    if (std::filesystem::exists(path)) {
      auto old = read_shard_file(path);
      if (!old) return report_error("search", old.error());
      if (old->descriptor != descriptor || old->shard != request.shard ||
          old->shards != request.shards)
        return report_error("search", Error::bad_input(path + ": from another search (other "
                                                              "options, space or shards); delete "
                                                              "it or use another --shard-dir"));
      request.done = old->rows;
      for (const SearchRow& row : old->rows) text += search_row_json(row).dump() + "\n";
    }
    // Rewritten whole first: drops a line a killed run left unfinished.
    if (Status s = json_util::write_file_atomic(path, text); !s)
      return report_error("search", s.error());
    writer = std::make_unique<ShardWriter>(path);
    if (!writer->ok())
      return report_error("search", Error::bad_input(path + ": cannot append to the file"));
    request.on_row = [w = writer.get()](const SearchRow& row) { w->write(row); };
  }

  auto threads = args->get_int("threads", 0);
  if (!threads) return report_error("search", threads.error());
  if (*threads < 0) return report_error("search", Error::bad_input("--threads: must be >= 0"));
  ThreadPool pool(static_cast<int>(*threads));
  auto top = args->get_int("top", 10);
  if (!top) return report_error("search", top.error());
  StderrProgress progress(args->has("quiet"));
  auto result = run_search(request, pool, CancelToken::none(), progress);
  if (!result) return report_error("search", search_option_error(result.error()));
  if (Status s = write_outputs(*args, *result, descriptor); !s)
    return report_error("search", s.error());
  if (text_to_stdout(*args)) {
    const SearchStats& st = result->stats;
    const int ran = st.evaluated - st.resumed;
    std::printf(
        "search: %d batch%s, %d thread%s; %d configurations in %s: %.1f "
        "configurations/s, %lld solves\n",
        request.batches, request.batches == 1 ? "" : "es", pool.workers(),
        pool.workers() == 1 ? "" : "s", ran, format_time(st.seconds).c_str(),
        st.seconds > 0 ? ran / st.seconds : 0.0, st.solves);
    if (st.resumed > 0)
      std::printf("(%d configurations resumed from the shard file)\n", st.resumed);
    std::fputs(search_report(*result, static_cast<int>(*top)).c_str(), stdout);
  }
  return kExitOk;
}

}  // namespace slimpack::cli
