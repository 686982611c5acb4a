#pragma once
// The timeline model of the Gantt (STYLE points 7-8): built once from a plan and its simulation,
// then immutable. Per lane (replica, stage) it keeps compact bars sorted by start with a running
// maximum of their ends, so visible-range queries and hit tests are binary searches, a prefix
// count of forward bars and the list of step bars (sync, optimizer) so that a folded run's F/B mix
// is a lookup. Pack contents (segments) live in a side table, and a per-sequence index lists every
// bar that holds a slice of that sequence so the view can highlight it everywhere.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "plan/plan.h"
#include "render/time_scale.h"
#include "sim/sim_result.h"

namespace slimpack {

// Trace: an event of an imported profiler trace (render/trace_timeline.h), not an op of a plan.
enum class BarKind : std::uint8_t { Forward, Backward, DpSync, Optimizer, Trace };

// One op on one lane. 24 bytes: the Gantt holds millions.
struct GanttBar {
  double start = 0.0;
  double end = 0.0;
  // Index into the replica's forward or backward packs, -1 for sync/optimizer; for a Trace bar the
  // event's id in its TraceTimeline (TraceTimeline::event()).
  std::int32_t pack = -1;
  BarKind kind = BarKind::Forward;
  std::int8_t chunk = 0;  // virtual chunk (interleaved); for a Trace bar its colour (name hash)
  double duration() const { return end - start; }
  bool is_compute() const { return kind == BarKind::Forward || kind == BarKind::Backward; }
};

struct GanttLane {
  int replica = 0;
  int stage = 0;
  std::vector<GanttBar> bars;   // sorted by start
  std::vector<double> max_end;  // max_end[i] = max(bars[0..i].end): monotone, for binary search
  std::vector<std::int32_t> fwd_prefix;  // fwd_prefix[i] = forward bars among bars[0..i)
  // Plan lanes: the indices, ascending, of the bars that are no pack (DP sync, optimizer step), a
  // handful per lane, so a folded run counts its backward packs without them (gantt_lod.h).
  std::vector<std::int32_t> step_bars;
  // Plan lanes: forward / backward busy seconds among bars[0..i), for the density of folded runs
  // (gantt_lod.h). Empty for trace rows, whose millions of events would pay 16 bytes each.
  std::vector<double> fwd_time_prefix;
  std::vector<double> bwd_time_prefix;
  std::vector<MemoryPoint> memory;  // step series, sorted by time (empty when not modelled)
  double peak_memory = 0.0;
  double bubble_ratio = 0.0;
  std::string label;  // trace rows: the row's name (plan lanes leave it empty: "Stage s")
};

// A reference to one bar: lane index and bar index within the lane.
struct BarRef {
  std::int32_t lane = -1;
  std::int32_t bar = -1;
  bool operator==(const BarRef&) const = default;
  bool valid() const { return lane >= 0 && bar >= 0; }
};

// A segment as the Gantt shows it (the pack contents of one bar).
struct GanttSegment {
  SeqIndex seq = 0;
  Tokens begin = 0;
  Tokens end = 0;
};

class TraceTimeline;

class GanttModel {
 public:
  GanttModel() = default;
  // Lanes are ordered replica-major: lane = replica * stages + stage. Compute ops (F, B, DP sync,
  // optimizer) become bars; P2P sends are not drawn. Bars whose pack index is out of range for the
  // plan keep their timing but carry no segments.
  static GanttModel build(const Plan& plan, const SimResult& result);
  // A timeline of an imported trace (render/trace_timeline.h builds the rows): `lanes` are rows
  // whose `replica` is their group (groups are drawn with a gap between them), bars of kind Trace.
  // Bars are sorted here; the extent is [min(0, first start), last end].
  static GanttModel from_trace_rows(std::vector<GanttLane> lanes, int groups,
                                    std::shared_ptr<const TraceTimeline> trace);

  int stages() const { return stages_; }
  int replicas() const { return replicas_; }
  int lane_count() const { return static_cast<int>(lanes_.size()); }
  int lane_index(int replica, int stage) const { return replica * stages_ + stage; }
  const GanttLane& lane(int index) const { return lanes_[static_cast<std::size_t>(index)]; }
  const std::vector<GanttLane>& lanes() const { return lanes_; }
  std::size_t bar_count() const { return bar_count_; }

  // [0, end of the last bar] (at least the iteration time), the range fit-to-window shows.
  TimeRange time_extent() const { return {extent_start_, extent_end_}; }
  const std::string& time_unit() const { return time_unit_; }  // "s" or "units"
  double peak_memory() const { return peak_memory_; }
  bool has_memory() const { return peak_memory_ > 0.0; }
  bool has_sync() const { return has_sync_; }  // any DP sync or optimizer bar

  // Index range [first, last) of the bars of `lane` that intersect [t0, t1]. O(log n).
  std::pair<std::size_t, std::size_t> visible(int lane, double t0, double t1) const;

  // The bar of `lane` that contains time t; if none, the bar nearest to t within `tolerance`
  // (so that bars drawn 1 px wide stay clickable). O(log n).
  std::optional<std::int32_t> hit(int lane, double t, double tolerance = 0.0) const;

  // Memory on `lane` at time t (the step series value), 0 before the first point.
  double memory_at(int lane, double t) const;

  // Pack contents of a bar (empty for sync/optimizer bars).
  std::span<const GanttSegment> segments(BarRef ref) const;
  Tokens tokens(BarRef ref) const;
  const GanttBar& bar(BarRef ref) const { return lane(ref.lane).bars[ref.bar]; }

  // Sequences of a bar's pack, longest sequence first (ties: lower index first). The first one is
  // what hovering highlights; the view cycles through the rest on request.
  std::vector<SeqIndex> pack_sequences(BarRef ref) const;

  // Every bar, on every lane, in forward and backward, holding a slice of `seq`, in lane order.
  std::span<const BarRef> sequence_bars(SeqIndex seq) const;

  int sequence_count() const { return static_cast<int>(sequences_.size()); }
  const Sequence& sequence(SeqIndex s) const { return sequences_[static_cast<std::size_t>(s)]; }

  // Plan/result summary for titles and the key-metrics box.
  const std::string& strategy() const { return strategy_; }
  // The slice size S the plan was cut with (Plan::slice_size; 0 = none), so a sequence's slices
  // are what the slicer cut (sequence_slices.h), not the pieces packs hold.
  Tokens slice_size() const { return slice_size_; }
  ScheduleKind schedule() const { return schedule_; }
  const SimResult& metrics() const { return metrics_; }  // metrics only: replicas[] is emptied

  // The trace a trace timeline shows (names, categories, args of its bars); null for a plan.
  const TraceTimeline* trace() const { return trace_.get(); }

 private:
  // Side table of pack contents per (replica, pass): CSR offsets into segs_.
  struct PackTable {
    std::vector<std::int32_t> offsets;  // size packs + 1
  };
  const PackTable* pack_table(int replica, BarKind kind) const;
  // Sorts each lane's bars and fills max_end, fwd_prefix, bar_count_ and the extent's end.
  void index_lanes(double end_max);

  int stages_ = 0;
  int replicas_ = 0;
  std::vector<GanttLane> lanes_;
  std::size_t bar_count_ = 0;
  double extent_start_ = 0.0;
  double extent_end_ = 1.0;
  double peak_memory_ = 0.0;
  bool has_sync_ = false;
  std::string time_unit_ = "s";
  std::string strategy_;
  ScheduleKind schedule_ = ScheduleKind::OneFOneB;
  Tokens slice_size_ = 0;
  SimResult metrics_;
  std::vector<Sequence> sequences_;
  std::vector<PackTable> packs_;  // [replica * 2 + pass]
  std::vector<GanttSegment> segs_;
  std::vector<std::int32_t>
      seq_offsets_;  // CSR: bars of sequence s are seq_bars_[off[s], off[s+1])
  std::vector<BarRef> seq_bars_;
  std::shared_ptr<const TraceTimeline> trace_;
};

}  // namespace slimpack
