// Memory over time (trace/trace_memory.h) from the "[memory]" and counter events the import keeps
// (trace/trace_memory_events.h), over a small hand-written trace whose figures are worked out by
// hand below.
#include <gtest/gtest.h>

#include <string>

#include "hand_trace.h"
#include "trace/trace_gpu.h"
#include "trace/trace_import.h"
#include "trace/trace_memory.h"
#include "trace/trace_summary.h"

namespace slimpack {
namespace {

// A "[memory]" event as PyTorch's profiler writes it; reserved < 0: no "Total Reserved".
std::string mem(double ts, int type, int id, long long bytes, const std::string& allocated,
                long long reserved = -1) {
  std::string args = "{\"Device Type\": " + std::to_string(type) +
                     ", \"Device Id\": " + std::to_string(id) +
                     ", \"Addr\": 1234, \"Bytes\": " + std::to_string(bytes) +
                     ", \"Total Allocated\": " + allocated;
  if (reserved >= 0) args += ", \"Total Reserved\": " + std::to_string(reserved);
  return "{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
         "\"pid\": 1, \"tid\": 1, \"ts\": " +
         num(ts) + ", \"args\": " + args + "}}";
}

std::string counter(double ts, const std::string& args) {
  return "{\"ph\": \"C\", \"name\": \"GPU memory\", \"pid\": 0, \"ts\": " + num(ts) +
         ", \"args\": " + args + "}";
}

// Two steps, #1 [0, 100) and #2 [100, 200), one kernel (the GPU summary needs one).
//
// cuda:0 (Device Type 1, Id 0), allocated / reserved after each event:
//   t=-10  1000 / 2000000   (before the steps)
//   t=10   5000 / 2000000
//   t=50   8000 / 4000000
//   t=60   "Total Allocated": "lots"    -> skipped (bad input), not a sample
//   t=90   4000 / 4000000
//   t=100  3000 / 4000000   (on step 2's start: in step 2)
//   t=150  3500 / 4000000   (args before "ph" and "name" in the file)
//   t=250     0 / 2000000   (after the steps)
//   total:  7 events, end 0, peak 8000 at 50, reserved peak 4000000 at 50 (first reach)
//   step 1: t=10,50,90 -> 3 events; start 1000 (t=-10), end 4000; peak 8000 at 50;
//           reserved: 2000000 carried in at 0, then 4000000 at 50
//   step 2: t=100,150 -> 2 events; start 4000 (t=90), end 3500; peak: the 4000 carried in at
//           100 beats 3000 and 3500; reserved 4000000 carried in at 100
// cpu (Device Type 0, Id -1), no Total Reserved; written after the cuda events, one out of order:
//   t=20 64, t=130 0, t=120 128  -> in time: 20: 64, 120: 128, 130: 0
//   total:  3 events, end 0, peak 128 at 120, no reserved peak
//   step 1: 1 event; no start; end 64; peak 64 at 20
//   step 2: 2 events; start 64; end 0; peak 128 at 120
// counter "GPU memory": allocated 10 at 0, 30 at 150, 20 at 120 (file order); reserved 5 at 0
//   and "x" (not a number: not a value)
//   allocated: count 3, min 10, max 30, last 30 (at 150, the latest time); reserved: 1, 5, 5, 5
HandTrace two_steps() {
  HandTrace t;
  t.step(1, 0.0, 100.0);
  t.step(2, 100.0, 100.0);
  t.op("kernel", "k1", 7, 10.0, 30.0, 5.0, 2.0);
  t.events.push_back(mem(-10, 1, 0, 1000, "1000", 2000000));
  t.events.push_back(mem(10, 1, 0, 4000, "5000", 2000000));
  t.events.push_back(mem(50, 1, 0, 3000, "8000", 4000000));
  t.events.push_back(mem(60, 1, 0, 16, "\"lots\"", 4000000));
  t.events.push_back(mem(90, 1, 0, -4000, "4000", 4000000));
  t.events.push_back(mem(100, 1, 0, -1000, "3000", 4000000));
  t.events.push_back(
      "{\"args\": {\"Device Type\": 1, \"Device Id\": 0, \"Bytes\": 500, \"Total Allocated\": "
      "3500, \"Total Reserved\": 4000000}, \"ph\": \"i\", \"ts\": 150, \"pid\": 1, \"tid\": 1, "
      "\"name\": \"[memory]\"}");
  t.events.push_back(mem(250, 1, 0, -3500, "0", 2000000));
  t.events.push_back(mem(20, 0, -1, 64, "64"));
  t.events.push_back(mem(130, 0, -1, -128, "0"));
  t.events.push_back(mem(120, 0, -1, 64, "128"));
  t.events.push_back(counter(0, "{\"allocated\": 10, \"reserved\": 5}"));
  t.events.push_back(counter(150, "{\"allocated\": 30}"));
  t.events.push_back(counter(120, "{\"allocated\": 20, \"reserved\": \"x\"}"));
  return t;
}

void expect_window(const MemoryWindow& w, std::int64_t events, std::optional<std::int64_t> start,
                   std::optional<std::int64_t> end, std::int64_t peak, double peak_us) {
  EXPECT_EQ(w.events, events);
  EXPECT_EQ(w.allocated_start, start);
  EXPECT_EQ(w.allocated_end, end);
  EXPECT_EQ(w.peak_allocated, peak);
  EXPECT_DOUBLE_EQ(w.peak_allocated_us, peak_us);
}

TEST(TraceMemory, PeaksPerDeviceAndStep) {
  const ImportedTrace trace = import(two_steps());
  ASSERT_EQ(trace.memory_devices, (std::vector<std::string>{"cpu", "cuda:0"}));
  const TraceMemory m = trace_memory(trace, profiler_steps(trace));
  EXPECT_EQ(m.events, 10);
  EXPECT_EQ(m.skipped, 1);
  EXPECT_EQ(m.dropped, 0);
  EXPECT_TRUE(m.any());
  ASSERT_EQ(m.devices.size(), 2u);

  const DeviceMemory& cpu = m.devices[0];
  EXPECT_EQ(cpu.device, "cpu");
  expect_window(cpu.total, 3, std::nullopt, 0, 128, 120.0);
  EXPECT_FALSE(cpu.total.peak_reserved);
  ASSERT_EQ(cpu.steps.size(), 2u);
  expect_window(cpu.steps[0], 1, std::nullopt, 64, 64, 20.0);
  expect_window(cpu.steps[1], 2, 64, 0, 128, 120.0);

  const DeviceMemory& gpu = m.devices[1];
  EXPECT_EQ(gpu.device, "cuda:0");
  expect_window(gpu.total, 7, std::nullopt, 0, 8000, 50.0);
  EXPECT_EQ(gpu.total.peak_reserved, 4000000);
  EXPECT_DOUBLE_EQ(gpu.total.peak_reserved_us, 50.0);
  ASSERT_EQ(gpu.steps.size(), 2u);
  expect_window(gpu.steps[0], 3, 1000, 4000, 8000, 50.0);
  EXPECT_EQ(gpu.steps[0].peak_reserved, 4000000);
  EXPECT_DOUBLE_EQ(gpu.steps[0].peak_reserved_us, 50.0);
  expect_window(gpu.steps[1], 2, 4000, 3500, 4000, 100.0);
  EXPECT_EQ(gpu.steps[1].peak_reserved, 4000000);
  EXPECT_DOUBLE_EQ(gpu.steps[1].peak_reserved_us, 100.0);
}

TEST(TraceMemory, Counters) {
  const ImportedTrace trace = import(two_steps());
  const TraceMemory m = trace_memory(trace, {});
  ASSERT_EQ(m.counters.size(), 2u);
  const TraceCounterSeries& a = m.counters[0];
  EXPECT_EQ(a.name, "GPU memory");
  EXPECT_EQ(a.series, "allocated");
  EXPECT_EQ(a.count, 3);
  EXPECT_DOUBLE_EQ(a.min, 10.0);
  EXPECT_DOUBLE_EQ(a.max, 30.0);
  EXPECT_DOUBLE_EQ(a.last, 30.0);
  EXPECT_DOUBLE_EQ(a.last_us, 150.0);
  const TraceCounterSeries& r = m.counters[1];
  EXPECT_EQ(r.series, "reserved");
  EXPECT_EQ(r.count, 1);
  EXPECT_DOUBLE_EQ(r.last, 5.0);
}

// The summary reports the same figures over its own step windows.
TEST(TraceMemory, InTheSummary) {
  const ImportedTrace trace = import(two_steps(), "hand.json", {.keep_args = false});
  auto s = summarize_trace(trace);
  ASSERT_TRUE(s.ok());
  ASSERT_EQ(s->steps.size(), 2u);
  ASSERT_EQ(s->memory.devices.size(), 2u);
  ASSERT_EQ(s->memory.devices[1].steps.size(), 2u);
  EXPECT_EQ(s->memory.devices[1].steps[0].peak_allocated, 8000);
  EXPECT_EQ(s->memory.skipped, 1);
  EXPECT_EQ(s->memory.counters.size(), 2u);
}

TEST(TraceMemory, NoneWithoutEventsKept) {
  const ImportedTrace trace = import(two_steps(), "hand.json", {.keep_events = false});
  EXPECT_TRUE(trace.memory.empty());
  EXPECT_TRUE(trace.counters.empty());
  EXPECT_EQ(trace.by_phase.at("i"), 11);
  EXPECT_FALSE(trace_memory(trace, {}).any());
}

// Past the budget (two samples of 32 bytes) later events are counted, not kept.
TEST(TraceMemory, Budget) {
  const ImportedTrace trace = import(two_steps(), "hand.json", {.memory_budget_bytes = 64});
  EXPECT_EQ(trace.memory.size(), 2u);
  EXPECT_EQ(trace.memory_dropped, 8);
  EXPECT_EQ(trace.memory_skipped, 1);
}

// Devices without a type, other types and CUDA devices order by type then id.
TEST(TraceMemory, DeviceNames) {
  HandTrace t;
  t.events.push_back(mem(1, 1, 1, 8, "8"));
  t.events.push_back(mem(2, 1, 0, 8, "8"));
  t.events.push_back(mem(3, 13, 2, 8, "8"));
  t.events.push_back(
      "{\"ph\": \"i\", \"name\": \"[memory]\", \"ts\": 4, \"args\": {\"Total Allocated\": 8.0}}");
  t.events.push_back("{\"ph\": \"i\", \"name\": \"[memory]\", \"ts\": 5, \"args\": 7}");
  t.events.push_back("{\"ph\": \"i\", \"name\": \"[memory]\", \"args\": {\"Total Allocated\": 1}}");
  t.events.push_back("{\"ph\": \"i\", \"name\": \"other\", \"ts\": 6, \"args\": {}}");
  const ImportedTrace trace = import(t);
  EXPECT_EQ(trace.memory_devices,
            (std::vector<std::string>{"cuda:0", "cuda:1", "type 13:2", "unknown"}));
  EXPECT_EQ(trace.memory.size(), 4u);
  EXPECT_EQ(trace.memory_skipped, 2);  // args not an object; no ts
}

// Instant events stay on their lane, in time order, as events of zero duration with their args
// (the trace view draws and searches them); a kept import reads the same memory figures from the
// kept args text as it did from the args walked.
TEST(TraceMemory, InstantsKeptOnTheirLane) {
  const ImportedTrace trace = import(two_steps());
  const TraceLane* lane = nullptr;
  for (const TraceLane& l : trace.lanes)
    if (l.pid == "1" && l.tid == "1") lane = &l;
  ASSERT_NE(lane, nullptr);
  // Eleven "[memory]" events, the one whose Total Allocated is no number too (it has a time).
  ASSERT_EQ(lane->instants.size(), 11u);
  EXPECT_DOUBLE_EQ(lane->instants.front().start_us, -10.0);
  EXPECT_DOUBLE_EQ(lane->instants.back().start_us, 250.0);
  EXPECT_DOUBLE_EQ(lane->instants[3].start_us, 50.0);
  EXPECT_DOUBLE_EQ(lane->instants[3].dur_us, 0.0);
  EXPECT_EQ(trace.names[static_cast<std::size_t>(lane->instants[3].name)], "[memory]");
  ASSERT_GE(lane->instants[3].args, 0);
  EXPECT_NE(
      trace.args[static_cast<std::size_t>(lane->instants[3].args)].find("\"Total Allocated\":8000"),
      std::string::npos);
  EXPECT_EQ(trace.memory.size(), 10u);  // the samples as before: 11 events, one skipped
  const ImportedTrace no_args = import(two_steps(), "hand.json", {.keep_args = false});
  for (const TraceLane& l : no_args.lanes)
    for (const TraceEvent& e : l.instants) EXPECT_EQ(e.args, -1);
  EXPECT_EQ(no_args.memory.size(), 10u);
}

// The points of each counter series per process, in time order (the file has them out of it).
TEST(TraceMemory, CounterTracks) {
  const ImportedTrace trace = import(two_steps());
  ASSERT_EQ(trace.counter_tracks.size(), 2u);
  const TraceCounterTrack& a = trace.counter_tracks[0];
  EXPECT_EQ(a.pid, "0");
  EXPECT_EQ(a.name, "GPU memory");
  EXPECT_EQ(a.series, "allocated");
  ASSERT_EQ(a.points.size(), 3u);
  EXPECT_DOUBLE_EQ(a.points[0].ts_us, 0.0);
  EXPECT_DOUBLE_EQ(a.points[1].ts_us, 120.0);
  EXPECT_DOUBLE_EQ(a.points[1].value, 20.0);
  EXPECT_DOUBLE_EQ(a.points[2].value, 30.0);
  EXPECT_EQ(trace.counter_tracks[1].series, "reserved");
  EXPECT_EQ(trace.counter_tracks[1].points.size(), 1u);
  // The budget the samples spent leaves no room for points: counted, not kept.
  const ImportedTrace small = import(two_steps(), "hand.json", {.memory_budget_bytes = 64});
  EXPECT_TRUE(small.counter_tracks.empty());
  EXPECT_EQ(small.counter_points_dropped, 4);
  EXPECT_EQ(small.counters.size(), 2u);  // the reductions still count every event
  const ImportedTrace info = import(two_steps(), "hand.json", {.keep_events = false});
  EXPECT_TRUE(info.counter_tracks.empty());
  for (const TraceLane& l : info.lanes) EXPECT_TRUE(l.instants.empty());
}

}  // namespace
}  // namespace slimpack
