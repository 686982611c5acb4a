#include "render/trace_timeline.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "render/gantt_lod.h"
#include "trace/trace_memory.h"

namespace slimpack {
namespace {

std::shared_ptr<const ImportedTrace> parse(const std::string& json) {
  auto t = import_chrome_trace_text(json, "test.json");
  EXPECT_TRUE(t) << (t ? "" : t.error().message);
  return std::make_shared<const ImportedTrace>(std::move(*t));
}

// One CPU thread with three nesting levels and one GPU stream, in two processes.
const char* kNested = R"({"traceEvents": [
  {"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "python3"}},
  {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "main"}},
  {"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "GPU 0"}},
  {"ph": "M", "name": "thread_name", "pid": 2, "tid": 7, "args": {"name": "stream 7"}},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 1000},
  {"ph": "X", "cat": "cpu_op", "name": "forward", "pid": 1, "tid": 1, "ts": 110, "dur": 400},
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 120, "dur": 50},
  {"ph": "X", "cat": "cpu_op", "name": "aten::relu", "pid": 1, "tid": 1, "ts": 200, "dur": 30},
  {"ph": "X", "cat": "cpu_op", "name": "backward", "pid": 1, "tid": 1, "ts": 600, "dur": 300},
  {"ph": "X", "cat": "kernel", "name": "gemm_kernel", "pid": 2, "tid": 7, "ts": 130, "dur": 60},
  {"ph": "X", "cat": "kernel", "name": "relu_kernel", "pid": 2, "tid": 7, "ts": 210, "dur": 20}
]})";

TEST(TraceTimeline, GroupsPerProcessAndRowsPerDepth) {
  auto tl = TraceTimeline::build({{parse(kNested), -1, "a.json"}});
  ASSERT_EQ(tl->groups().size(), 2u);
  EXPECT_EQ(tl->groups()[0].label, "python3");
  EXPECT_EQ(tl->groups()[1].label, "GPU 0");
  EXPECT_EQ(tl->event_count(), 7);
  const GanttModel m = tl->gantt();
  // CPU thread: depth 0 (step), 1 (forward, backward), 2 (linear, relu); GPU stream: one row.
  ASSERT_EQ(m.lane_count(), 4);
  EXPECT_EQ(m.lane(0).bars.size(), 1u);
  EXPECT_EQ(m.lane(1).bars.size(), 2u);
  EXPECT_EQ(m.lane(2).bars.size(), 2u);
  EXPECT_EQ(m.lane(3).bars.size(), 2u);
  EXPECT_EQ(m.lane(0).replica, 0);
  EXPECT_EQ(m.lane(3).replica, 1);  // the GPU process is the second group
  EXPECT_EQ(m.replicas(), 2);
  EXPECT_EQ(m.bar_count(), 7u);
  EXPECT_EQ(m.lane(0).label, "▾ python3 / main");
  EXPECT_EQ(m.lane(3).label, "▾ GPU 0 / stream 7");
  EXPECT_EQ(tl->name(tl->locate(m.lane(2).bars[1].pack)), "aten::relu");
  EXPECT_EQ(tl->category(tl->locate(m.lane(3).bars[0].pack)), "kernel");
  EXPECT_EQ(m.trace(), tl.get());
}

TEST(TraceTimeline, TimesAreSecondsAfterTheOrigin) {
  auto tl = TraceTimeline::build({{parse(kNested), -1, "a.json"}});
  EXPECT_DOUBLE_EQ(tl->first_start_us(), 100.0);
  const GanttModel m = tl->gantt();
  // ProfilerStep#1 starts at the origin and lasts 1000 us.
  EXPECT_DOUBLE_EQ(m.lane(0).bars[0].start, 0.0);
  EXPECT_NEAR(m.lane(0).bars[0].end, 1000e-6, 1e-15);
  EXPECT_NEAR(m.time_extent().t1, 1000e-6, 1e-15);
  EXPECT_DOUBLE_EQ(m.time_extent().t0, 0.0);
  // Aligned at "backward" (ts 600): events before it have negative times, the extent shows them.
  auto at = tl->with_origin(*tl->first_start_of("backward"));
  const GanttModel a = at->gantt();
  EXPECT_NEAR(a.lane(0).bars[0].start, -500e-6, 1e-15);
  EXPECT_NEAR(a.time_extent().t0, -500e-6, 1e-15);
  EXPECT_FALSE(tl->first_start_of("no such event"));
}

TEST(TraceTimeline, VisibleRangeAndHitTestOnTraceRows) {
  auto tl = TraceTimeline::build({{parse(kNested), -1, "a.json"}});
  const GanttModel m = tl->gantt();
  // Depth-2 row: linear [20,70) us and relu [100,130) us after the origin.
  auto [first, last] = m.visible(2, 75e-6, 99e-6);
  EXPECT_EQ(first, last);  // the gap between them
  std::tie(first, last) = m.visible(2, 60e-6, 110e-6);
  EXPECT_EQ(first, 0u);
  EXPECT_EQ(last, 2u);
  EXPECT_EQ(m.hit(2, 25e-6), 0);
  EXPECT_EQ(m.hit(2, 120e-6), 1);
  EXPECT_FALSE(m.hit(2, 85e-6));
  EXPECT_EQ(m.hit(2, 72e-6, 5e-6), 0);  // within the tolerance of linear's end
  const TraceEvent* e = tl->event(m, BarRef{2, 1});
  ASSERT_NE(e, nullptr);
  EXPECT_DOUBLE_EQ(e->dur_us, 30.0);
}

TEST(TraceTimeline, LevelOfDetailFoldsNarrowEvents) {
  auto tl = TraceTimeline::build({{parse(kNested), -1, "a.json"}});
  const GanttModel m = tl->gantt();
  // 100 px for the whole millisecond: linear (50 px) and relu (3 px) stay single bars.
  std::vector<DrawItem> items;
  build_lane_draw_list(m, 2, TimeScale({0.0, 1000e-6}, 0.0, 100.0), items);
  ASSERT_EQ(items.size(), 2u);
  // 2 px for the millisecond: everything on the row folds into one run of two events.
  build_lane_draw_list(m, 2, TimeScale({0.0, 1000e-6}, 0.0, 2.0), items);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].count, 2);
}

TEST(TraceTimeline, CollapsedGroupIsOneRowOfTopLevelEvents) {
  auto tl = TraceTimeline::build({{parse(kNested), -1, "a.json"}});
  const GanttModel m = tl->gantt({0});
  ASSERT_EQ(m.lane_count(), 2);
  EXPECT_EQ(m.lane(0).bars.size(), 1u);  // ProfilerStep#1 only
  EXPECT_EQ(m.lane(0).label, "▸ python3 (1 lane)");
  EXPECT_EQ(tl->rows({0})[0].lane, -1);
  EXPECT_EQ(m.lane(1).bars.size(), 2u);
}

TEST(TraceTimeline, OwnExportColoursForwardAndBackwardLikeThePlan) {
  const char* ours = R"([
    {"ph": "X", "name": "F1", "cat": "forward", "pid": 0, "tid": 0, "ts": 0, "dur": 5},
    {"ph": "X", "name": "B1", "cat": "backward", "pid": 0, "tid": 0, "ts": 5, "dur": 9},
    {"ph": "X", "name": "F2", "cat": "forward", "pid": 0, "tid": 0, "ts": 14, "dur": 5}])";
  auto tl = TraceTimeline::build({{parse(ours), -1, "plan.trace.json"}});
  const GanttModel m = tl->gantt();
  ASSERT_EQ(m.lane(0).bars.size(), 3u);
  EXPECT_EQ(m.lane(0).bars[0].chunk, 0);  // GanttPalette::trace[0]: blue
  EXPECT_EQ(m.lane(0).bars[1].chunk, 1);  // trace[1]: orange
  EXPECT_EQ(m.lane(0).bars[2].chunk, 0);
}

TEST(TraceTimeline, TrackListFiltersLanesAndPinsGroups) {
  auto tl = TraceTimeline::build({{parse(kNested), -1, "a.json"}});
  EXPECT_EQ(tl->lane_title(0, 0), "python3 / main");
  TraceRowOptions o;
  o.filter = "STREAM";  // case-insensitive: the GPU stream only
  GanttModel m = tl->snapshot(o);
  ASSERT_EQ(m.lane_count(), 1);
  EXPECT_EQ(m.lane(0).label, "▾ GPU 0 / stream 7");
  EXPECT_EQ(tl->rows_for(o).size(), 1u);
  o.filter = "nothing like it";
  EXPECT_EQ(tl->snapshot(o).lane_count(), 0);
  // Pinned: the GPU group first, then the rest in their order.
  o.filter.clear();
  o.pinned = {1};
  m = tl->snapshot(o);
  ASSERT_EQ(m.lane_count(), 4);
  EXPECT_EQ(m.lane(0).label, "▾ GPU 0 / stream 7");
  EXPECT_EQ(m.lane(1).label, "▾ python3 / main");
  EXPECT_EQ(m.lane(3).bars.size(), 2u);  // the CPU thread's deepest row: linear, relu
  EXPECT_EQ(tl->rows_for(o)[0].group, 1);
  // Pinned and folded.
  o.collapsed = {0};
  EXPECT_EQ(tl->snapshot(o).lane_count(), 2);
}

TEST(TraceTimeline, ALanePinnedOnItsOwnComesFirstWhateverTheFilter) {
  auto tl = TraceTimeline::build({{parse(kNested), -1, "a.json"}});
  ASSERT_EQ(tl->groups().size(), 2u);
  const int stream_lane = tl->groups()[1].lanes.at(0);
  TraceRowOptions o;
  o.pinned_lanes = {{0, stream_lane}, {0, stream_lane}};  // once only
  GanttModel m = tl->snapshot(o);
  // The stream first, marked; its group, now without lanes, is left out; the CPU thread's three
  // rows follow, headed by their group's label.
  ASSERT_EQ(m.lane_count(), 4);
  EXPECT_EQ(m.lane(0).label, "● GPU 0 / stream 7");
  EXPECT_TRUE(tl->rows_for(o)[0].pinned_lane);
  EXPECT_EQ(m.lane(1).label, "▾ python3 / main");
  EXPECT_FALSE(tl->rows_for(o)[1].pinned_lane);
  // A filter that hides the stream does not hide it pinned.
  o.filter = "main";
  EXPECT_EQ(tl->snapshot(o).lane(0).label, "● GPU 0 / stream 7");
  EXPECT_EQ(tl->snapshot(o).lane_count(), 4);
  // Its group folded stays whole below it: the stream's top-level events are in both rows.
  o.filter.clear();
  o.collapsed = {1};
  m = tl->snapshot(o);
  ASSERT_EQ(m.lane_count(), 5);
  EXPECT_EQ(m.lane(0).bars.size(), m.lane(4).bars.size());
  EXPECT_EQ(tl->rows_for(o)[4].lane, -1);
}

TEST(TraceTimeline, RanksOrderSourcesAndNameGroups) {
  const char* one = R"([{"ph": "X", "name": "k", "pid": 5, "tid": 1, "ts": 10, "dur": 5}])";
  const char* two = R"([{"ph": "X", "name": "k", "pid": 5, "tid": 1, "ts": 12, "dur": 5}])";
  auto tl = TraceTimeline::build({{parse(two), 1, "r1.json"}, {parse(one), 0, "r0.json"}});
  ASSERT_EQ(tl->groups().size(), 2u);
  EXPECT_EQ(tl->groups()[0].label, "rank 0 · pid 5");
  EXPECT_EQ(tl->groups()[1].label, "rank 1 · pid 5");
  // One origin for the run: rank 1's event starts 2 us after rank 0's.
  const GanttModel m = tl->gantt();
  EXPECT_DOUBLE_EQ(m.lane(0).bars[0].start, 0.0);
  EXPECT_NEAR(m.lane(1).bars[0].start, 2e-6, 1e-15);
}

TEST(TraceTimeline, FilesClaimingTheSameRankAreToldApartByName) {
  // Two runs' rank-0 files opened together: both groups would read "rank 0 · pid 5".
  const char* one = R"([{"ph": "X", "name": "k", "pid": 5, "tid": 1, "ts": 10, "dur": 5}])";
  auto tl = TraceTimeline::build({{parse(one), 0, "before.json"}, {parse(one), 0, "after.json"}});
  ASSERT_EQ(tl->groups().size(), 2u);
  EXPECT_EQ(tl->groups()[0].label, "rank 0 (before.json) · pid 5");
  EXPECT_EQ(tl->groups()[1].label, "rank 0 (after.json) · pid 5");
}

TEST(TraceTimeline, SearchByNameMarksEveryMatchingBar) {
  auto tl = TraceTimeline::build({{parse(kNested), -1, "a.json"}});
  const GanttModel m = tl->gantt();
  const auto hits = tl->find_name(m, "KERNEL");
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0], (BarRef{3, 0}));
  EXPECT_EQ(hits[1], (BarRef{3, 1}));
  EXPECT_EQ(tl->find_name(m, "aten::").size(), 2u);
  EXPECT_TRUE(tl->find_name(m, "").empty());
  const auto steps = tl->names_with_prefix("ProfilerStep#");
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0], "ProfilerStep#1");
}

TEST(TraceTimeline, SelectionCanBeLimitedToOneCategory) {
  auto tl = TraceTimeline::build({{parse(kNested), -1, "a.json"}});
  const GanttModel m = tl->gantt();
  const auto& names = tl->sources()[0].trace->names;
  auto has_kernel = [&](int, int n) {
    return names[static_cast<std::size_t>(n)].find("_kernel") != std::string::npos ||
           names[static_cast<std::size_t>(n)] == "forward";
  };
  EXPECT_EQ(tl->select(m, has_kernel).size(), 3u);            // two kernels and forward
  EXPECT_EQ(tl->select(m, has_kernel, "kernel").size(), 2u);  // the cpu_op forward is left out
  EXPECT_EQ(tl->select(m, has_kernel, "cpu_op").size(), 1u);
  EXPECT_TRUE(tl->select(m, has_kernel, "no_such_category").empty());
}

TEST(TraceTimeline, ColourDependsOnTheNameOnly) {
  const char* a = R"([{"ph": "X", "name": "nccl:all_reduce", "pid": 1, "tid": 1, "ts": 0, "dur": 5},
                     {"ph": "X", "name": "gemm", "pid": 1, "tid": 1, "ts": 10, "dur": 5}])";
  const char* b = R"([{"ph": "X", "name": "gemm", "pid": 9, "tid": 3, "ts": 0, "dur": 5}])";
  auto ta = TraceTimeline::build({{parse(a), -1, "a"}});
  auto tb = TraceTimeline::build({{parse(b), -1, "b"}});
  EXPECT_EQ(ta->gantt().lane(0).bars[1].chunk, tb->gantt().lane(0).bars[0].chunk);
  EXPECT_EQ(ta->gantt().lane(0).bars[1].kind, BarKind::Trace);
}

TEST(TraceTimeline, EmptyTraceHasNoRows) {
  auto tl = TraceTimeline::build({{parse("[]"), -1, "e.json"}});
  const GanttModel m = tl->gantt();
  EXPECT_EQ(m.lane_count(), 0);
  EXPECT_EQ(m.time_extent().t0, 0.0);
  EXPECT_GT(m.time_extent().t1, 0.0);
}

// The sample Kineto trace's instant events (two "[memory]", one "Iteration Start") and counter
// tracks: "GPU memory" (pid 0, the GPU process) and the memory allocated from the "[memory]"
// events under the CPU process, whose max is trace_memory's peak (what `trace summary` prints).
TEST(TraceTimeline, InstantsAndCounterTracks) {
  auto trace = import_chrome_trace(SLIMPACK_SAMPLES_DIR "/traces/kineto_small.json");
  ASSERT_TRUE(trace) << trace.error().message;
  auto shared = std::make_shared<const ImportedTrace>(std::move(*trace));
  auto tl = TraceTimeline::build({{shared, 0, "kineto_small.json"}});
  EXPECT_EQ(tl->instant_count(), 3);
  const auto found = tl->find_instants("MEMORY");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_TRUE(found[0].instant);
  EXPECT_EQ(tl->name(found[0]), "[memory]");
  EXPECT_DOUBLE_EQ(tl->event(found[1])->start_us, 1105.0);
  EXPECT_NE(tl->args(found[0]).find("\"Total Allocated\":1048576"), std::string::npos);
  EXPECT_EQ(tl->id_of(found[0]), -1);  // no bar

  ASSERT_EQ(tl->counters().size(), 2u);
  // By group: the GPU process (pid 0) sorts first.
  const TraceCounterView& mem = tl->counters()[1];
  EXPECT_TRUE(mem.memory);
  EXPECT_EQ(mem.label, "memory allocated · unknown");
  EXPECT_EQ(tl->groups()[static_cast<std::size_t>(mem.group)].pid, "4242");
  const TraceMemory m = trace_memory(*shared, {});
  ASSERT_EQ(m.devices.size(), 1u);
  EXPECT_DOUBLE_EQ(mem.max, static_cast<double>(*m.devices[0].total.peak_allocated));
  EXPECT_DOUBLE_EQ(mem.max, 1048576.0);
  const TraceCounterView& gpu = tl->counters()[0];
  EXPECT_EQ(gpu.label, "GPU memory · allocated");
  EXPECT_TRUE(gpu.memory);  // Kineto's memory counter is in bytes: written as sizes
  EXPECT_EQ(tl->groups()[static_cast<std::size_t>(gpu.group)].pid, "0");
  EXPECT_DOUBLE_EQ(gpu.max, 2097152.0);
  EXPECT_DOUBLE_EQ(gpu.max_us, 1500.0);
  ASSERT_EQ(gpu.points->size(), 2u);

  // Each unfolded group ends with its tracks; a folded one hides them.
  const auto rows = tl->rows();
  const auto counter_rows =
      std::count_if(rows.begin(), rows.end(), [](const TraceRowInfo& r) { return r.counter >= 0; });
  EXPECT_EQ(counter_rows, 2);
  const GanttModel model = tl->gantt();
  for (std::size_t r = 0; r < rows.size(); ++r)
    if (rows[r].counter >= 0) {
      EXPECT_TRUE(model.lane(static_cast<int>(r)).bars.empty());
      EXPECT_NE(model.lane(static_cast<int>(r))
                    .label.find(tl->counters()[static_cast<std::size_t>(rows[r].counter)].label),
                std::string::npos);
    }
  const auto folded = tl->rows({0, 1});
  EXPECT_EQ(std::count_if(folded.begin(), folded.end(),
                          [](const TraceRowInfo& r) { return r.counter >= 0; }),
            0);
}

// The same counter in two processes: a track each, named by its pid.
TEST(TraceTimeline, CounterOfOneNameInTwoProcesses) {
  auto tl = TraceTimeline::build({{parse(R"({"traceEvents": [
  {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
  {"ph": "X", "name": "b", "pid": 2, "tid": 1, "ts": 0, "dur": 10},
  {"ph": "C", "name": "queue", "pid": 1, "ts": 0, "args": {"depth": 3}},
  {"ph": "C", "name": "queue", "pid": 2, "ts": 5, "args": {"depth": 7}},
  {"ph": "C", "name": "queue", "pid": 2, "ts": 8, "args": {"depth": 1}}
]})"),
                                   -1, "a.json"}});
  ASSERT_EQ(tl->counters().size(), 2u);
  EXPECT_FALSE(tl->counters()[0].memory);  // a depth, not bytes
  EXPECT_EQ(tl->counters()[0].label, "queue · depth (pid 1)");
  EXPECT_EQ(tl->counters()[0].group, 0);
  EXPECT_DOUBLE_EQ(tl->counters()[0].max, 3.0);
  EXPECT_EQ(tl->counters()[1].label, "queue · depth (pid 2)");
  EXPECT_EQ(tl->counters()[1].group, 1);
  EXPECT_DOUBLE_EQ(tl->counters()[1].max, 7.0);
}

// Which "C" counters count bytes: by their words, never a percentage or a rate of memory.
TEST(TraceTimeline, CounterOfBytesIsASize) {
  auto tl = TraceTimeline::build({{parse(R"({"traceEvents": [
  {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
  {"ph": "C", "name": "bytes in flight", "pid": 1, "ts": 0, "args": {"nccl": 4096}},
  {"ph": "C", "name": "GPU memory utilization", "pid": 1, "ts": 0, "args": {"%": 41}},
  {"ph": "C", "name": "memory bandwidth", "pid": 1, "ts": 0, "args": {"GB/s": 900}}
]})"),
                                   -1, "a.json"}});
  ASSERT_EQ(tl->counters().size(), 3u);
  for (const TraceCounterView& c : tl->counters())
    EXPECT_EQ(c.memory, c.label == "bytes in flight · nccl") << c.label;
}

}  // namespace
}  // namespace slimpack
