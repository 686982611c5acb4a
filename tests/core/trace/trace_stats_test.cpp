// Self times, children, flow links and per-name statistics of a small hand-made trace
// (core/trace/trace_stats.h), every figure worked out by hand.
#include "trace/trace_stats.h"

#include <gtest/gtest.h>

#include "hand_trace.h"

namespace slimpack {
namespace {

// CPU thread (pid 1 / tid 1), times in µs:
//   step [0, 100)
//     fwd [10, 40)
//       mm [15, 25)
//         cudaLaunchKernel [16, 18)  -> gemm on stream 7 [20, 25) (ac2g flow)
//       mm [30, 35)
//     bwd [50, 90)
//       mm [60, 80)
HandTrace hand() {
  HandTrace t;
  t.x("user_annotation", "step", "1", "1", 0, 100);
  t.x("cpu_op", "fwd", "1", "1", 10, 30);
  t.x("cpu_op", "mm", "1", "1", 15, 10);
  t.op("kernel", "gemm", 7, 20, 5, 16, 2);
  t.x("cpu_op", "mm", "1", "1", 30, 5);
  t.x("cpu_op", "bwd", "1", "1", 50, 40);
  t.x("cpu_op", "mm", "1", "1", 60, 20);
  return t;
}

int lane_of(const ImportedTrace& t, const std::string& pid, const std::string& tid) {
  for (std::size_t l = 0; l < t.lanes.size(); ++l)
    if (t.lanes[l].pid == pid && t.lanes[l].tid == tid) return static_cast<int>(l);
  return -1;
}

int index_of(const TraceLane& lane, const ImportedTrace& t, const std::string& name, double ts) {
  for (std::size_t i = 0; i < lane.events.size(); ++i)
    if (t.names[static_cast<std::size_t>(lane.events[i].name)] == name &&
        lane.events[i].start_us == ts)
      return static_cast<int>(i);
  return -1;
}

const TraceNameStat* row(const std::vector<TraceNameStat>& rows, const std::string& name) {
  for (const auto& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

TEST(TraceStats, SelfTimeIsDurationLessDirectChildren) {
  const ImportedTrace t = import(hand());
  const int cpu = lane_of(t, "1", "1");
  ASSERT_GE(cpu, 0);
  const TraceLane& lane = t.lanes[static_cast<std::size_t>(cpu)];
  const std::vector<double> self = lane_self_times(lane);
  ASSERT_EQ(self.size(), 7u);
  EXPECT_DOUBLE_EQ(self[static_cast<std::size_t>(index_of(lane, t, "step", 0))], 30.0);
  EXPECT_DOUBLE_EQ(self[static_cast<std::size_t>(index_of(lane, t, "fwd", 10))], 15.0);
  EXPECT_DOUBLE_EQ(self[static_cast<std::size_t>(index_of(lane, t, "mm", 15))], 8.0);
  EXPECT_DOUBLE_EQ(self[static_cast<std::size_t>(index_of(lane, t, "bwd", 50))], 20.0);
  EXPECT_DOUBLE_EQ(self[static_cast<std::size_t>(index_of(lane, t, "mm", 60))], 20.0);
  for (int i = 0; i < 7; ++i) EXPECT_DOUBLE_EQ(event_self_us(lane, i), self[i]) << i;
}

TEST(TraceStats, ChildrenAreTheDirectOnesInStartOrder) {
  const ImportedTrace t = import(hand());
  const TraceLane& lane = t.lanes[static_cast<std::size_t>(lane_of(t, "1", "1"))];
  const auto step = event_children(lane, index_of(lane, t, "step", 0));
  ASSERT_EQ(step.size(), 2u);
  EXPECT_EQ(step[0], index_of(lane, t, "fwd", 10));
  EXPECT_EQ(step[1], index_of(lane, t, "bwd", 50));
  const auto fwd = event_children(lane, index_of(lane, t, "fwd", 10));
  ASSERT_EQ(fwd.size(), 2u);
  EXPECT_EQ(fwd[0], index_of(lane, t, "mm", 15));
  EXPECT_EQ(fwd[1], index_of(lane, t, "mm", 30));
  EXPECT_TRUE(event_children(lane, index_of(lane, t, "mm", 30)).empty());
  EXPECT_TRUE(event_children(lane, 99).empty());
}

TEST(TraceStats, EventAtIsTheDeepestHolder) {
  const ImportedTrace t = import(hand());
  const TraceLane& lane = t.lanes[static_cast<std::size_t>(lane_of(t, "1", "1"))];
  EXPECT_EQ(event_at(lane, 17), index_of(lane, t, "cudaLaunchKernel", 16));
  EXPECT_EQ(event_at(lane, 45), index_of(lane, t, "step", 0));
  EXPECT_EQ(event_at(lane, 70), index_of(lane, t, "mm", 60));
  EXPECT_EQ(event_at(lane, 150), -1);
}

TEST(TraceStats, FlowLinksJoinLaunchAndKernelBothWays) {
  const ImportedTrace t = import(hand());
  const int cpu = lane_of(t, "1", "1");
  const int gpu = lane_of(t, "0", "7");
  ASSERT_GE(gpu, 0);
  const TraceLane& cl = t.lanes[static_cast<std::size_t>(cpu)];
  const TraceLane& gl = t.lanes[static_cast<std::size_t>(gpu)];
  const int launch = index_of(cl, t, "cudaLaunchKernel", 16);
  const int kernel = index_of(gl, t, "gemm", 20);
  const auto out = flow_links(t, cpu, launch);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].lane, gpu);
  EXPECT_EQ(out[0].index, kernel);
  EXPECT_EQ(out[0].category, "ac2g");
  EXPECT_TRUE(out[0].outgoing);
  EXPECT_DOUBLE_EQ(out[0].from_us, 16.0);  // the launch's flow start
  EXPECT_DOUBLE_EQ(out[0].to_us, 20.0);    // the kernel's start
  const auto back = flow_links(t, gpu, kernel);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].lane, cpu);
  EXPECT_EQ(back[0].index, launch);
  EXPECT_FALSE(back[0].outgoing);
  // The op holding the launch reaches the kernel too; one without a launch reaches nothing.
  EXPECT_EQ(flow_links(t, cpu, index_of(cl, t, "mm", 15)).size(), 1u);
  EXPECT_TRUE(flow_links(t, cpu, index_of(cl, t, "mm", 60)).empty());
}

TEST(TraceStats, NameStatsOverTheWholeTrace) {
  const ImportedTrace t = import(hand());
  const auto rows = name_stats({&t});
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 6u);
  EXPECT_EQ(rows->front().name, "step");  // longest total first
  const TraceNameStat* mm = row(*rows, "mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->count, 3);
  EXPECT_DOUBLE_EQ(mm->total_us, 35.0);
  EXPECT_DOUBLE_EQ(mm->self_us, 33.0);
  EXPECT_DOUBLE_EQ(mm->max_us, 20.0);
  EXPECT_NEAR(mm->mean_us(), 35.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(row(*rows, "step")->self_us, 30.0);
  EXPECT_DOUBLE_EQ(row(*rows, "gemm")->total_us, 5.0);
  // The same trace twice (two ranks): one row per name, counts doubled.
  const auto two = name_stats({&t, &t});
  ASSERT_TRUE(two.ok());
  EXPECT_EQ(row(*two, "mm")->count, 6);
  EXPECT_DOUBLE_EQ(row(*two, "mm")->self_us, 66.0);
}

TEST(TraceStats, NameStatsOfATimeRangeAndLanes) {
  const ImportedTrace t = import(hand());
  TraceStatsScope scope;
  scope.t0_us = 45.0;
  scope.t1_us = 100.0;
  const auto rows = name_stats({&t}, scope);
  ASSERT_TRUE(rows.ok());
  ASSERT_EQ(rows->size(), 3u);  // step, bwd, mm [60, 80): fwd ended at 40, gemm at 25
  EXPECT_EQ(row(*rows, "mm")->count, 1);
  EXPECT_DOUBLE_EQ(row(*rows, "mm")->total_us, 20.0);
  EXPECT_DOUBLE_EQ(row(*rows, "bwd")->self_us, 20.0);
  EXPECT_EQ(row(*rows, "fwd"), nullptr);
  // Only the GPU lane.
  const int gpu = lane_of(t, "0", "7");
  TraceStatsScope gpu_only;
  gpu_only.lanes = [gpu](int, int lane) { return lane == gpu; };
  const auto g = name_stats({&t}, gpu_only);
  ASSERT_TRUE(g.ok());
  ASSERT_EQ(g->size(), 1u);
  EXPECT_EQ(g->front().name, "gemm");
  // Cancelled: no rows.
  CancelToken cancel;
  cancel.cancel();
  EXPECT_FALSE(name_stats({&t}, {}, cancel).ok());
}

}  // namespace
}  // namespace slimpack
