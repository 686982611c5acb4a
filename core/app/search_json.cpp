#include "app/search_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "app/config_options.h"
#include "common/json_util.h"

namespace slimpack {
namespace {

using Json = nlohmann::json;

Json limit_to_json(const std::optional<InfeasibleDetail>& limit) {
  if (!limit) return nullptr;
  const auto or_null = [](int v) { return v >= 0 ? Json(v) : Json(nullptr); };
  const bool numbers = limit->limit != Limit::Solver;
  return {{"kind", limit_name(limit->limit)},
          {"stage", or_null(limit->stage)},
          {"replica", or_null(limit->replica)},
          {"needed", numbers ? Json(limit->needed) : Json(nullptr)},
          {"cap", numbers ? Json(limit->cap) : Json(nullptr)},
          {"unit", !numbers                          ? Json(nullptr)
                   : limit->limit == Limit::TokenCap ? Json("tokens")
                                                     : Json("bytes")},
          {"sequence", limit->sequence.empty() ? Json(nullptr) : Json(limit->sequence)}};
}

// A number that is null (or absent) when the row has none.
Json figure(bool set, double v) {
  return set ? Json(v) : Json(nullptr);
}

Expected<double> figure_from(const Json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || j.at(key).is_null()) return 0.0;
  if (!j.at(key).is_number()) return Error::bad_input(where + ": \"" + key + "\" must be a number");
  return j.at(key).get<double>();
}

Expected<int> int_from(const Json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j.at(key).is_number_integer())
    return Error::bad_input(where + ": \"" + key + "\" must be an integer");
  return static_cast<int>(j.at(key).get<std::int64_t>());
}

Expected<std::string> text_from(const Json& j, const char* key, const std::string& where) {
  if (!j.contains(key) || !j.at(key).is_string())
    return Error::bad_input(where + ": \"" + key + "\" must be a string");
  return j.at(key).get<std::string>();
}

Expected<std::optional<InfeasibleDetail>> limit_from(const Json& j, const std::string& where) {
  if (!j.contains("limit") || j.at("limit").is_null()) return std::optional<InfeasibleDetail>{};
  const Json& l = j.at("limit");
  auto kind = text_from(l, "kind", where + ": limit");
  if (!kind) return kind.error();
  InfeasibleDetail d;
  bool known = false;
  for (Limit k : {Limit::StageMemory, Limit::TokenCap, Limit::StaticMemory, Limit::Solver})
    if (*kind == limit_name(k)) {
      d.limit = k;
      known = true;
    }
  if (!known) return Error::bad_input(where + ": limit: unknown kind '" + *kind + "'");
  const auto opt_int = [&](const char* key) {
    return l.contains(key) && l.at(key).is_number_integer()
               ? static_cast<int>(l.at(key).get<std::int64_t>())
               : -1;
  };
  d.stage = opt_int("stage");
  d.replica = opt_int("replica");
  auto needed = figure_from(l, "needed", where + ": limit");
  if (!needed) return needed.error();
  auto cap = figure_from(l, "cap", where + ": limit");
  if (!cap) return cap.error();
  d.needed = *needed;
  d.cap = *cap;
  if (l.contains("sequence") && l.at("sequence").is_string())
    d.sequence = l.at("sequence").get<std::string>();
  return std::optional<InfeasibleDetail>{d};
}

Json space_json(const SearchSpace& s) {
  Json recompute = Json::array(), schedules = Json::array();
  for (const auto& r : s.recompute) recompute.push_back(recompute_name(r));
  for (ScheduleKind k : s.schedules) schedules.push_back(schedule_name(k));
  return {{"gpus", s.gpus},
          {"min_gpus", s.min_gpus},
          {"gpus_per_node", s.gpus_per_node},
          {"pp", s.pp},
          {"tp", s.tp},
          {"cp", s.cp},
          {"dp", s.dp.empty() ? Json("auto") : Json(s.dp)},
          {"slices", s.slices},
          {"recompute", recompute},
          {"schedules", schedules},
          {"strategies", s.strategies}};
}

std::string csv_text(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char ch : s) out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

std::string csv_number(bool set, double v) {
  if (!set) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

}  // namespace

Json search_descriptor(const SearchRequest& request, const SearchSpace& resolved) {
  ScenarioSpec scenario;
  scenario.workload = request.workload;
  scenario.config = request.base;
  Json options = Json::object();
  // The workload and configuration a search varies around; the trace options describe no run.
  for (const ConfigOption& o : scenario_options())
    if (o.section != OptionSection::Traces)
      options[std::string(o.key)] = option_text(o, o.get(scenario));
  return {{"options", options},
          {"batches", request.batches},
          {"prune", request.prune},
          {"space", space_json(resolved)}};
}

Json search_row_json(const SearchRow& row) {
  const SearchConfig& c = row.config;
  const bool solved = row.status == SearchStatus::Solved;
  const bool infeasible = row.status == SearchStatus::Infeasible;
  return {{"index", row.index},
          {"key", config_key(c)},
          {"p", c.p},
          {"t", c.t},
          {"c", c.c},
          {"d", c.d},
          {"slice", c.slice},
          {"recompute", recompute_name(c.recompute)},
          {"schedule", schedule_name(c.schedule)},
          {"strategy", c.strategy},
          {"gpus", c.gpus()},
          {"status", search_status_name(row.status)},
          {"feasible", solved       ? Json(true)
                       : infeasible ? Json(false)
                                    : Json(nullptr)},
          {"limit", limit_to_json(row.limit)},
          {"reason", infeasible ? Json(row.reason) : Json(nullptr)},
          {"batch", infeasible ? Json(row.batch) : Json(nullptr)},
          {"memory_check", row.memory_check},
          {"mean_iteration_time", figure(solved, row.mean_iteration_time)},
          {"p95_iteration_time", figure(solved, row.p95_iteration_time)},
          {"tokens_per_second_per_gpu", figure(solved, row.tokens_per_second_per_gpu)},
          {"peak_memory_bytes", figure(solved, row.peak_memory_bytes)},
          {"bound_tokens_per_second_per_gpu",
           figure(row.bound_tokens_per_second_per_gpu > 0.0, row.bound_tokens_per_second_per_gpu)},
          {"bound_peak_memory_bytes",
           figure(row.bound_peak_memory_bytes > 0.0, row.bound_peak_memory_bytes)},
          {"tokens", figure(row.tokens > 0.0, row.tokens)},
          {"batch_bound_times", row.batch_bound_times},
          {"batch_bound_peak_memory_bytes", row.batch_bound_peaks},
          {"batch_iteration_times", row.batch_times},
          {"batch_peak_memory_bytes", row.batch_peaks}};
}

Expected<SearchRow> search_row_from_json(const Json& j, const std::string& where) {
  if (!j.is_object()) return Error::bad_input(where + ": a row must be a JSON object");
  SearchRow row;
  auto index = int_from(j, "index", where);
  if (!index) return index.error();
  row.index = *index;
  SearchConfig& c = row.config;
  for (auto [key, field] : {std::pair{"p", &c.p}, {"t", &c.t}, {"c", &c.c}, {"d", &c.d}}) {
    auto v = int_from(j, key, where);
    if (!v) return v.error();
    *field = *v;
  }
  if (!j.contains("slice") || !j.at("slice").is_number_integer())
    return Error::bad_input(where + ": \"slice\" must be an integer");
  c.slice = j.at("slice").get<Tokens>();
  auto recompute = text_from(j, "recompute", where);
  if (!recompute) return recompute.error();
  auto r = parse_recompute(*recompute);
  if (!r) return r.error().with_context(where + ": recompute");
  c.recompute = *r;
  auto schedule = text_from(j, "schedule", where);
  if (!schedule) return schedule.error();
  if (!parse_schedule(*schedule, c.schedule))
    return Error::bad_input(where + ": unknown schedule '" + *schedule + "'");
  auto strategy = text_from(j, "strategy", where);
  if (!strategy) return strategy.error();
  c.strategy = *strategy;
  auto status = text_from(j, "status", where);
  if (!status) return status.error();
  bool known = false;
  for (SearchStatus s : {SearchStatus::Solved, SearchStatus::Infeasible, SearchStatus::Pruned})
    if (*status == search_status_name(s)) {
      row.status = s;
      known = true;
    }
  if (!known) return Error::bad_input(where + ": unknown status '" + *status + "'");
  auto limit = limit_from(j, where);
  if (!limit) return limit.error();
  row.limit = *limit;
  if (j.contains("reason") && j.at("reason").is_string())
    row.reason = j.at("reason").get<std::string>();
  if (j.contains("batch") && j.at("batch").is_number_integer())
    row.batch = static_cast<int>(j.at("batch").get<std::int64_t>());
  if (j.contains("memory_check") && j.at("memory_check").is_boolean())
    row.memory_check = j.at("memory_check").get<bool>();
  for (auto [key, field] :
       {std::pair{"mean_iteration_time", &row.mean_iteration_time},
        {"p95_iteration_time", &row.p95_iteration_time},
        {"tokens_per_second_per_gpu", &row.tokens_per_second_per_gpu},
        {"peak_memory_bytes", &row.peak_memory_bytes},
        {"bound_tokens_per_second_per_gpu", &row.bound_tokens_per_second_per_gpu},
        {"bound_peak_memory_bytes", &row.bound_peak_memory_bytes},
        {"tokens", &row.tokens}}) {
    auto v = figure_from(j, key, where);
    if (!v) return v.error();
    *field = *v;
  }
  // The per-batch figures of the partial bounds; absent in files of older versions.
  for (auto [key, field] : {std::pair{"batch_bound_times", &row.batch_bound_times},
                            {"batch_bound_peak_memory_bytes", &row.batch_bound_peaks},
                            {"batch_iteration_times", &row.batch_times},
                            {"batch_peak_memory_bytes", &row.batch_peaks}}) {
    if (!j.contains(key)) continue;
    const Json& list = j.at(key);
    if (!list.is_array())
      return Error::bad_input(where + ": \"" + key + "\" must be an array of numbers");
    for (const Json& v : list) {
      if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0.0)
        return Error::bad_input(where + ": \"" + key + "\" must hold numbers >= 0");
      field->push_back(v.get<double>());
    }
  }
  if (row.batch_bound_peaks.size() != row.batch_bound_times.size() ||
      row.batch_peaks.size() != row.batch_times.size() ||
      row.batch_times.size() > row.batch_bound_times.size())
    return Error::bad_input(where + ": the per-batch lists do not match in length");
  return row;
}

Json search_result_json(const SearchResult& result, const Json& descriptor) {
  Json configs = Json::array();
  for (const SearchRow& row : result.rows) configs.push_back(search_row_json(row));
  const SearchStats& s = result.stats;
  return {{"format", "slimpack-search"},
          {"version", 1},
          {"search", descriptor},
          {"configs", configs},
          {"front", result.front},
          {"front_gpus", result.front_gpus},
          {"front_memory", result.front_memory},
          {"ranking", result.ranking},
          {"stats",
           {{"configs", s.configs},
            {"rows", s.evaluated},
            {"solved", s.solved},
            {"infeasible", s.infeasible},
            {"memory_checked", s.memory_checked},
            {"pruned", s.pruned}}}};
}

std::string search_csv(const SearchResult& result) {
  std::vector<bool> on_front(result.rows.size(), false);
  for (int f : result.front) on_front[static_cast<std::size_t>(f)] = true;
  std::string out =
      "index,key,p,t,c,d,gpus,slice,recompute,schedule,strategy,status,on_front,"
      "mean_iteration_time,p95_iteration_time,tokens_per_second_per_gpu,peak_memory_bytes,"
      "limit,limit_stage,limit_needed,limit_cap,reason\n";
  for (std::size_t i = 0; i < result.rows.size(); ++i) {
    const SearchRow& row = result.rows[i];
    const SearchConfig& c = row.config;
    const bool solved = row.status == SearchStatus::Solved;
    std::ostringstream line;
    line << row.index << ',' << config_key(c) << ',' << c.p << ',' << c.t << ',' << c.c << ','
         << c.d << ',' << c.gpus() << ',' << c.slice << ',' << recompute_name(c.recompute) << ','
         << schedule_name(c.schedule) << ',' << c.strategy << ',' << search_status_name(row.status)
         << ',' << (on_front[i] ? 1 : 0) << ',' << csv_number(solved, row.mean_iteration_time)
         << ',' << csv_number(solved, row.p95_iteration_time) << ','
         << csv_number(solved, row.tokens_per_second_per_gpu) << ','
         << csv_number(solved, row.peak_memory_bytes) << ','
         << (row.limit ? limit_name(row.limit->limit) : "") << ','
         << (row.limit && row.limit->stage >= 0 ? std::to_string(row.limit->stage) : "") << ','
         << csv_number(row.limit.has_value(), row.limit ? row.limit->needed : 0.0) << ','
         << csv_number(row.limit.has_value(), row.limit ? row.limit->cap : 0.0) << ','
         << csv_text(row.status == SearchStatus::Infeasible ? row.reason : "") << '\n';
    out += line.str();
  }
  return out;
}

Json shard_header(const Json& descriptor, int shard, int shards, int configs) {
  return {{"format", "slimpack-search-shard"},
          {"version", 1},
          {"search", descriptor},
          {"shard", shard},
          {"shards", shards},
          {"configs", configs}};
}

Expected<ShardFile> read_shard_file(const std::string& path) {
  auto text = json_util::read_file(path);
  if (!text) return text.error();
  ShardFile out;
  std::size_t pos = 0;
  int line_no = 0;
  bool header = false;
  while (pos < text->size()) {
    const std::size_t end = text->find('\n', pos);
    // A line without its newline was being written when the run stopped: resume redoes it.
    if (end == std::string::npos) break;
    const std::string line = text->substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    const std::string where = path + ":" + std::to_string(line_no);
    if (line.empty()) continue;
    auto j = json_util::parse(line);
    if (!j) return j.error().with_context(where);
    if (!header) {
      if (!j->is_object() || !j->contains("format") ||
          j->at("format") != Json("slimpack-search-shard"))
        return Error::bad_input(where +
                                ": not a slimpack search shard file (the first line must "
                                "have \"format\": \"slimpack-search-shard\")");
      if (!j->contains("version") || j->at("version") != Json(1))
        return Error::bad_input(where + ": unsupported shard file version");
      auto shard = int_from(*j, "shard", where);
      if (!shard) return shard.error();
      auto shards = int_from(*j, "shards", where);
      if (!shards) return shards.error();
      auto configs = int_from(*j, "configs", where);
      if (!configs) return configs.error();
      if (!j->contains("search")) return Error::bad_input(where + ": \"search\" is missing");
      out.descriptor = j->at("search");
      out.shard = *shard;
      out.shards = *shards;
      out.configs = *configs;
      header = true;
      continue;
    }
    auto row = search_row_from_json(*j, where);
    if (!row) return row.error();
    out.rows.push_back(std::move(*row));
  }
  if (!header) return Error::bad_input(path + ": empty shard file (no header line)");
  return out;
}

Expected<SearchResult> merge_shards(const std::vector<ShardFile>& files,
                                    const std::vector<std::string>& paths, Json& descriptor) {
  if (files.empty()) return Error::bad_input("merge: give the shard files");
  const ShardFile& first = files.front();
  std::vector<int> seen_shard(static_cast<std::size_t>(std::max(1, first.shards)), -1);
  SearchResult result;
  std::vector<int> owner(static_cast<std::size_t>(std::max(0, first.configs)), -1);
  for (std::size_t f = 0; f < files.size(); ++f) {
    const ShardFile& file = files[f];
    const std::string& path = paths[f];
    if (file.descriptor != first.descriptor || file.shards != first.shards ||
        file.configs != first.configs)
      return Error::bad_input(path + ": from another search than " + paths[0] +
                              " (the options, the space or the shard count differ)");
    if (file.shard < 0 || file.shard >= file.shards)
      return Error::bad_input(path + ": shard " + std::to_string(file.shard) + " of " +
                              std::to_string(file.shards) + " is out of range");
    int& seen = seen_shard[static_cast<std::size_t>(file.shard)];
    if (seen >= 0)
      return Error::bad_input(path + ": shard " + std::to_string(file.shard) +
                              " is given twice (also " + paths[static_cast<std::size_t>(seen)] +
                              ")");
    seen = static_cast<int>(f);
    for (const SearchRow& row : file.rows) {
      if (row.index < 0 || row.index >= file.configs ||
          shard_of(row.index, file.shards) != file.shard)
        return Error::bad_input(path + ": configuration " + std::to_string(row.index) +
                                " does not belong to shard " + std::to_string(file.shard));
      int& o = owner[static_cast<std::size_t>(row.index)];
      if (o >= 0)
        return Error::bad_input(path + ": configuration " + std::to_string(row.index) +
                                " appears twice");
      o = static_cast<int>(f);
      result.rows.push_back(row);
    }
  }
  for (std::size_t s = 0; s < seen_shard.size(); ++s)
    if (seen_shard[s] < 0)
      return Error::bad_input("merge: shard " + std::to_string(s) + " of " +
                              std::to_string(first.shards) + " is missing");
  for (std::size_t f = 0; f < files.size(); ++f) {
    int missing = 0;
    for (std::size_t i = 0; i < owner.size(); ++i)
      if (owner[i] < 0 && shard_of(static_cast<int>(i), first.shards) == files[f].shard) ++missing;
    if (missing > 0)
      return Error::bad_input(paths[f] + ": " + std::to_string(missing) +
                              " configurations of shard " + std::to_string(files[f].shard) +
                              " are not finished (run the shard again to resume it)");
  }
  std::sort(result.rows.begin(), result.rows.end(),
            [](const SearchRow& a, const SearchRow& b) { return a.index < b.index; });
  result.stats.configs = first.configs;
  const bool prune = first.descriptor.contains("prune") && first.descriptor.at("prune").is_boolean()
                         ? first.descriptor.at("prune").get<bool>()
                         : true;
  finish_search(result, prune);
  descriptor = first.descriptor;
  return result;
}

}  // namespace slimpack
