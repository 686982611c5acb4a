#include "render/gantt_title.h"

#include "common/format.h"

namespace slimpack {
namespace {

// 8192 -> "8,192": a slice size is read as an exact token count.
std::string grouped(long long v) {
  std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

// "/home/me/data/lengths.csv, seed 3" -> "lengths.csv, seed 3": a slide names the file, and a
// home directory's path is neither readable at that size nor the reader's business.
std::string without_directories(const std::string& text) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const std::size_t slash = word.find_last_of('/');
    out += slash != std::string::npos && slash + 1 < word.size() ? word.substr(slash + 1) : word;
    if (end < text.size()) out += ' ';
    start = end + 1;
  }
  return out;
}

}  // namespace

GanttTitleFacts gantt_title_facts(const Plan& plan, const SimResult& result,
                                  const std::string& workload, int tp) {
  GanttTitleFacts f;
  f.workload = workload;
  f.strategy = plan.strategy;
  f.pp = plan.stages;
  f.tp = tp;
  f.dp = plan.dp();
  f.slice_size = plan.slice_size;
  f.iteration_time = result.iteration_time;
  f.time_unit = result.time_unit;
  return f;
}

std::string gantt_title(const GanttTitleFacts& f) {
  std::string shape = "p=" + std::to_string(f.pp);
  if (f.tp > 0) shape += " t=" + std::to_string(f.tp);
  shape += " d=" + std::to_string(f.dp);
  std::string text = without_directories(f.workload);
  if (!f.strategy.empty()) text += (text.empty() ? "" : " \u2014 ") + f.strategy;
  text += (text.empty() ? "" : " \u00b7 ") + shape;
  text +=
      " \u00b7 " + (f.slice_size > 0 ? "S=" + grouped(f.slice_size) : std::string("no slicing"));
  if (f.iteration_time > 0)
    text += " \u00b7 iteration " + format_time(f.iteration_time, f.time_unit);
  return text;
}

}  // namespace slimpack
