#include "app/run_layout.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <system_error>

#include "schedule/torch_pp_actions.h"
#include "trace/trace_sniff.h"

namespace slimpack {
namespace {

namespace fs = std::filesystem;

std::string head_of(const std::string& path, std::size_t bytes) {
  std::ifstream in(path, std::ios::binary);
  std::string head(bytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  return head;
}

bool is_csv(const fs::path& p) {
  return p.extension() == ".csv";
}

Expected<std::vector<fs::path>> entries(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) out.push_back(entry.path());
  if (ec) return Error::bad_input(dir.string() + ": cannot list the folder: " + ec.message());
  std::sort(out.begin(), out.end());
  return out;
}

// The trace files of a folder, in name order.
Expected<std::vector<std::string>> traces_in(const fs::path& dir) {
  auto all = entries(dir);
  if (!all) return all.error();
  std::vector<std::string> out;
  std::error_code ec;
  for (const fs::path& p : *all)
    if (fs::is_regular_file(p, ec) && looks_like_trace(p.string())) out.push_back(p.string());
  return out;
}

// torchtitan's iteration folders: in `dir`, its profiling/traces or its profile_traces; the
// highest iteration_<N> of the first place that has any, and how many there were.
struct Iteration {
  fs::path dir;
  long number = -1;
  int count = 0;
};
std::optional<Iteration> torchtitan_iteration(const fs::path& dir) {
  for (const fs::path& place : {dir, dir / "profiling" / "traces", dir / "profile_traces"}) {
    std::error_code ec;
    if (!fs::is_directory(place, ec)) continue;
    Iteration best;
    for (const auto& entry : fs::directory_iterator(place, ec)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_directory() || name.rfind("iteration_", 0) != 0) continue;
      const std::string digits = name.substr(10);
      if (digits.empty() || digits.size() > 9 ||
          !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        continue;
      ++best.count;
      if (const long n = std::stol(digits); n > best.number) {
        best.number = n;
        best.dir = entry.path();
      }
    }
    if (best.count > 0) return best;
  }
  return std::nullopt;
}

bool torch_csv_file(const fs::path& p) {
  const std::string head = head_of(p.string(), 4096);
  return looks_like_torch_pp_csv(head.substr(0, head.find('\n')));
}

}  // namespace

bool folder_has_traces(const std::string& folder) {
  const auto it = torchtitan_iteration(folder);
  auto found = traces_in(it ? it->dir : fs::path(folder));
  return found && !found->empty();
}

bool looks_like_schedule_file(const std::string& path) {
  return head_of(path, 4096).find("\"slimpack-schedule\"") != std::string::npos;
}

bool looks_like_plan_or_schedule_file(const std::string& path) {
  const std::string head = head_of(path, 4096);
  return head.find("\"slimpack-plan\"") != std::string::npos ||
         head.find("\"slimpack-schedule\"") != std::string::npos;
}

Expected<RunLayout> run_layout(const std::vector<std::string>& given) {
  RunLayout out;
  std::map<std::string, std::string> seen;  // canonical path -> as given
  auto add = [&](const std::string& path) -> Status {
    std::error_code ec;
    fs::path canonical = fs::weakly_canonical(path, ec);
    const std::string key = ec ? path : canonical.string();
    const auto [it, fresh] = seen.try_emplace(key, path);
    if (!fresh)
      return Error::bad_input(path + ": given twice" +
                              (it->second == path ? std::string() : " (as " + it->second + ")") +
                              ": one file per rank");
    out.traces.push_back(path);
    return {};
  };
  auto set_table = [&](const std::string& path, bool torch_csv) -> Status {
    if (!out.table_file.empty())
      return Error::bad_input(path + ": a second table of ranks beside " + out.table_file +
                              ": a run has one schedule CSV (or schedule)");
    out.table_file = path;
    out.torch_csv = torch_csv;
    return {};
  };
  for (const std::string& path : given) {
    std::error_code ec;
    if (!fs::is_directory(path, ec)) {
      Status s = is_csv(path) ? set_table(path, true) : add(path);
      if (!s) return s.error();
      continue;
    }
    std::vector<std::string> inside;
    if (const auto it = torchtitan_iteration(path)) {
      auto found = traces_in(it->dir);
      if (!found) return found.error();
      if (found->empty())
        return Error::bad_input(it->dir.string() + ": the iteration folder holds no trace file");
      inside = std::move(*found);
      out.torchtitan = true;
      out.note = "torchtitan layout: " + it->dir.string() + " (the highest of " +
                 std::to_string(it->count) + " iteration folder" + (it->count == 1 ? "" : "s") +
                 ")";
    } else {
      auto found = traces_in(path);
      if (!found) return found.error();
      if (found->empty()) return Error::bad_input(path + ": the folder holds no trace file");
      inside = std::move(*found);
    }
    for (const std::string& p : inside)
      if (Status s = add(p); !s) return s.error();
    auto all = entries(path);
    if (!all) return all.error();
    std::optional<std::string> schedule;
    bool csv = false;
    for (const fs::path& p : *all) {
      if (!fs::is_regular_file(p, ec)) continue;
      if (is_csv(p) && torch_csv_file(p)) {
        if (Status s = set_table(p.string(), true); !s) return s.error();
        csv = true;
      } else if (p.extension() == ".json" && !looks_like_trace(p.string()) && !schedule &&
                 looks_like_schedule_file(p.string())) {
        schedule = p.string();
      }
    }
    if (!csv && schedule)
      if (Status s = set_table(*schedule, false); !s) return s.error();
  }
  if (out.traces.empty()) return Error::bad_input("no trace file given");
  return out;
}

}  // namespace slimpack
