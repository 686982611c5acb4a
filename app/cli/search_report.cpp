#include "search_report.h"

#include <cstdio>
#include <map>

#include "common/format.h"

namespace slimpack::cli {
namespace {

std::string line(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string table_header() {
  return line("%4s %3s %3s %3s %4s %5s %6s %-10s %-11s %-9s %12s %11s %11s %10s\n", "rank", "p",
              "t", "c", "d", "gpus", "S", "recompute", "schedule", "strategy", "tok/s/GPU",
              "mean iter", "p95 iter", "peak mem");
}

std::string table_row(const std::string& rank, const SearchRow& row) {
  const SearchConfig& c = row.config;
  const std::string slice = c.slice > 0 ? std::to_string(c.slice) : "auto";
  return line("%4s %3d %3d %3d %4d %5d %6s %-10s %-11s %-9s %12s %11s %11s %10s\n", rank.c_str(),
              c.p, c.t, c.c, c.d, c.gpus(), slice.c_str(), recompute_name(c.recompute).c_str(),
              schedule_name(c.schedule), c.strategy.c_str(),
              format_count(row.tokens_per_second_per_gpu).c_str(),
              format_time(row.mean_iteration_time).c_str(),
              format_time(row.p95_iteration_time).c_str(),
              format_bytes(row.peak_memory_bytes).c_str());
}

}  // namespace

std::string search_report(const SearchResult& result, int top) {
  const SearchStats& s = result.stats;
  std::string out = line(
      "%d configurations: %d solved, %d infeasible (%d by the memory check, no solve), %d pruned "
      "by the bounds\n",
      s.evaluated, s.solved, s.infeasible, s.memory_checked, s.pruned);
  if (s.evaluated < s.configs)
    out += line("(this shard: %d of the space's %d configurations)\n", s.evaluated, s.configs);
  std::vector<int> rank_of(result.rows.size(), 0);
  for (std::size_t r = 0; r < result.ranking.size(); ++r)
    rank_of[static_cast<std::size_t>(result.ranking[r])] = static_cast<int>(r) + 1;
  if (!result.ranking.empty()) {
    out += "\nranked by tokens/s per GPU";
    if (top < static_cast<int>(result.ranking.size())) out += line(" (best %d)", top);
    out += ":\n" + table_header();
    for (std::size_t r = 0; r < result.ranking.size() && static_cast<int>(r) < top; ++r)
      out += table_row(std::to_string(r + 1),
                       result.rows[static_cast<std::size_t>(result.ranking[r])]);
  }
  if (!result.front.empty()) {
    out +=
        "\nPareto front (tokens/s per GPU against GPUs and peak memory; * also on the front "
        "against GPUs alone):\n" +
        table_header();
    std::vector<bool> gpus_front(result.rows.size(), false);
    for (int f : result.front_gpus) gpus_front[static_cast<std::size_t>(f)] = true;
    std::vector<int> front = result.front;
    std::stable_sort(front.begin(), front.end(), [&](int a, int b) {
      const SearchRow& x = result.rows[static_cast<std::size_t>(a)];
      const SearchRow& y = result.rows[static_cast<std::size_t>(b)];
      if (x.config.gpus() != y.config.gpus()) return x.config.gpus() < y.config.gpus();
      return x.tokens_per_second_per_gpu > y.tokens_per_second_per_gpu;
    });
    for (int f : front) {
      const auto i = static_cast<std::size_t>(f);
      out += table_row(std::to_string(rank_of[i]) + (gpus_front[i] ? "*" : " "), result.rows[i]);
    }
  }
  // What each GPU count buys: its best configuration.
  std::map<int, int> best;
  for (int r : result.ranking)
    best.try_emplace(result.rows[static_cast<std::size_t>(r)].config.gpus(), r);
  if (best.size() > 1) {
    out += "\nbest per GPU count:\n" + table_header();
    for (const auto& [gpus, r] : best)
      out += table_row(std::to_string(rank_of[static_cast<std::size_t>(r)]),
                       result.rows[static_cast<std::size_t>(r)]);
  }
  // Infeasible configurations, by the limit that binds: what the user would triage by hand.
  std::map<std::string, int> by_limit;
  for (const SearchRow& row : result.rows)
    if (row.status == SearchStatus::Infeasible)
      ++by_limit[row.limit ? limit_name(row.limit->limit) : "not valid"];
  if (!by_limit.empty()) {
    out += "\ninfeasible by limit:";
    for (const auto& [name, n] : by_limit) out += line(" %s %d;", name.c_str(), n);
    out.back() = '\n';
  }
  return out;
}

}  // namespace slimpack::cli
