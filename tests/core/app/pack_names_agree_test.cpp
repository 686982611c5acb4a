// One numbering in every export (issue 33: the Chrome-trace export numbered packs from 0 and the
// ops CSV from 1). The `pack` field is the 0-based index in both, the name people see is
// pack_name() in both, and the Gantt's bars are the same packs.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <sstream>
#include <string>
#include <tuple>

#include "app/input_file.h"
#include "app/ops_csv.h"
#include "app/pipeline.h"
#include "plan/pack_name.h"
#include "render/gantt_model.h"
#include "trace/chrome_trace.h"

namespace slimpack {
namespace {

using Key = std::tuple<std::string, int, std::string>;  // pass, pack index, name

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

Pass pass_of(const std::string& kind) {
  return kind == "forward" ? Pass::Forward : Pass::Backward;
}

TEST(PackNamesAgree, TraceExportOpsCsvAndGanttNameEveryPackAlike) {
  const std::string path = "samples/plans/asymmetric-example.json";
  auto plan = load_plan_file(std::string(SLIMPACK_SOURCE_DIR) + "/" + path);
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  PipelineRequest req;
  req.plan = std::make_shared<const Plan>(*plan);
  req.plan_file = path;
  auto snap = run_pipeline(req, CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(snap.ok()) << snap.error().message;

  std::map<Key, int> from_trace, from_csv, from_gantt;
  const auto trace = nlohmann::json::parse(chrome_trace_json(*snap->plan, snap->sim));
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    const std::string cat = e["cat"].get<std::string>();
    if (cat != "forward" && cat != "backward") continue;
    const int pack = e["args"]["pack"].get<int>();
    const std::string name = e["name"].get<std::string>();
    EXPECT_EQ(name, pack_name(pass_of(cat), pack));
    ++from_trace[{cat, pack, name}];
  }

  std::stringstream csv(ops_csv(*snap->plan, snap->sim));
  std::string line;
  std::getline(csv, line);
  const auto header = split(line);
  ASSERT_GE(header.size(), 5u);
  EXPECT_EQ(header[3], "pack");
  EXPECT_EQ(header[4], "name");
  while (std::getline(csv, line)) {
    const auto row = split(line);
    ASSERT_GE(row.size(), 5u) << line;
    if (row[2] != "forward" && row[2] != "backward") {
      EXPECT_TRUE(row[3].empty() && row[4].empty()) << line;  // sync, optimizer: no pack
      continue;
    }
    const int pack = std::stoi(row[3]);
    EXPECT_EQ(row[4], pack_name(pass_of(row[2]), pack)) << line;
    ++from_csv[{row[2], pack, row[4]}];
  }

  const GanttModel gantt = GanttModel::build(*snap->plan, snap->sim);
  for (const GanttLane& lane : gantt.lanes())
    for (const GanttBar& bar : lane.bars) {
      if (!bar.is_compute()) continue;
      const Pass pass = bar.kind == BarKind::Forward ? Pass::Forward : Pass::Backward;
      ++from_gantt[{pass == Pass::Forward ? "forward" : "backward", bar.pack,
                    pack_name(pass, bar.pack)}];
    }

  ASSERT_FALSE(from_trace.empty());
  EXPECT_EQ(from_trace, from_csv);
  EXPECT_EQ(from_trace, from_gantt);
  // The first forward pack is index 0 and F1 in every one of them.
  EXPECT_TRUE(from_csv.count({"forward", 0, "F1"}));
}

}  // namespace
}  // namespace slimpack
