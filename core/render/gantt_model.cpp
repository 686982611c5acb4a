#include "render/gantt_model.h"

#include <algorithm>

namespace slimpack {
namespace {

std::optional<BarKind> bar_kind(OpKind k) {
  switch (k) {
    case OpKind::Forward:
      return BarKind::Forward;
    case OpKind::Backward:
      return BarKind::Backward;
    case OpKind::DpSync:
      return BarKind::DpSync;
    case OpKind::Optimizer:
      return BarKind::Optimizer;
    case OpKind::P2P:
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

const GanttModel::PackTable* GanttModel::pack_table(int replica, BarKind kind) const {
  if (kind != BarKind::Forward && kind != BarKind::Backward) return nullptr;
  const std::size_t i = static_cast<std::size_t>(replica) * 2 + (kind == BarKind::Forward ? 0 : 1);
  return i < packs_.size() ? &packs_[i] : nullptr;
}

GanttModel GanttModel::build(const Plan& plan, const SimResult& result) {
  GanttModel m;
  m.replicas_ = static_cast<int>(result.replicas.size());
  m.stages_ = plan.stages;
  for (const auto& r : result.replicas)
    m.stages_ = std::max(m.stages_, static_cast<int>(r.stages.size()));
  m.sequences_ = plan.sequences;
  m.time_unit_ = result.time_unit;
  m.strategy_ = plan.strategy;
  m.schedule_ = plan.schedule;
  m.slice_size_ = plan.slice_size;

  // Pack side tables: one CSR per (replica, pass).
  m.packs_.resize(static_cast<std::size_t>(m.replicas_) * 2);
  for (int r = 0; r < m.replicas_; ++r) {
    if (r >= plan.dp()) {
      m.packs_[r * 2].offsets = {0};
      m.packs_[r * 2 + 1].offsets = {0};
      continue;
    }
    const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(r)];
    int pass = 0;
    for (const auto* list : {&rp.forward, &rp.backward}) {
      auto& offsets = m.packs_[static_cast<std::size_t>(r * 2 + pass++)].offsets;
      offsets.reserve(list->size() + 1);
      offsets.push_back(static_cast<std::int32_t>(m.segs_.size()));
      for (const Pack& p : *list) {
        for (const Segment& s : p.segments) m.segs_.push_back({s.seq, s.begin, s.end});
        offsets.push_back(static_cast<std::int32_t>(m.segs_.size()));
      }
    }
  }

  // Lanes: compute ops only, sorted by start, with the running end maximum and forward counts.
  double end_max = std::max(result.iteration_time, result.makespan);
  m.lanes_.resize(static_cast<std::size_t>(m.replicas_) * static_cast<std::size_t>(m.stages_));
  for (int r = 0; r < m.replicas_; ++r) {
    const auto& rr = result.replicas[static_cast<std::size_t>(r)];
    for (int s = 0; s < m.stages_; ++s) {
      GanttLane& lane = m.lanes_[static_cast<std::size_t>(m.lane_index(r, s))];
      lane.replica = r;
      lane.stage = s;
      if (s >= static_cast<int>(rr.stages.size())) continue;
      const StageResult& sr = rr.stages[static_cast<std::size_t>(s)];
      lane.bars.reserve(sr.ops.size());
      for (const TimedOp& op : sr.ops) {
        const auto kind = bar_kind(op.kind);
        if (!kind) continue;
        lane.bars.push_back({op.start, op.end, op.pack, *kind, op.chunk});
        m.has_sync_ = m.has_sync_ || !lane.bars.back().is_compute();
      }
      lane.memory = sr.memory;
      lane.peak_memory = sr.peak_memory_bytes;
      lane.bubble_ratio = sr.bubble_ratio;
      for (const auto& p : lane.memory) lane.peak_memory = std::max(lane.peak_memory, p.bytes);
      m.peak_memory_ = std::max(m.peak_memory_, lane.peak_memory);
    }
  }
  m.index_lanes(end_max);

  // Sequence index (CSR): count, then fill, both in lane/bar order so each list is sorted.
  const auto nseq = m.sequences_.size();
  std::vector<std::int32_t> counts(nseq + 1, 0);
  auto for_each_seq = [&m](int lane_i, std::int32_t bar_i, auto&& fn) {
    const BarRef ref{lane_i, bar_i};
    const auto segs = m.segments(ref);
    for (std::size_t k = 0; k < segs.size(); ++k) {
      bool seen = false;  // a sequence with two segments in one pack is listed once
      for (std::size_t j = 0; j < k && !seen; ++j) seen = segs[j].seq == segs[k].seq;
      if (!seen) fn(segs[k].seq, ref);
    }
  };
  for (int li = 0; li < m.lane_count(); ++li)
    for (std::int32_t b = 0; b < static_cast<std::int32_t>(m.lanes_[li].bars.size()); ++b)
      for_each_seq(li, b, [&](SeqIndex s, BarRef) {
        if (s >= 0 && static_cast<std::size_t>(s) < nseq) ++counts[static_cast<std::size_t>(s) + 1];
      });
  for (std::size_t i = 0; i < nseq; ++i) counts[i + 1] += counts[i];
  m.seq_offsets_ = counts;
  m.seq_bars_.resize(static_cast<std::size_t>(counts[nseq]));
  std::vector<std::int32_t> cursor(counts.begin(), counts.end() - 1);
  for (int li = 0; li < m.lane_count(); ++li)
    for (std::int32_t b = 0; b < static_cast<std::int32_t>(m.lanes_[li].bars.size()); ++b)
      for_each_seq(li, b, [&](SeqIndex s, BarRef ref) {
        if (s >= 0 && static_cast<std::size_t>(s) < nseq)
          m.seq_bars_[static_cast<std::size_t>(cursor[static_cast<std::size_t>(s)]++)] = ref;
      });

  m.metrics_ = result;
  m.metrics_.replicas.clear();
  return m;
}

void GanttModel::index_lanes(double end_max) {
  bar_count_ = 0;
  for (GanttLane& lane : lanes_) {
    std::stable_sort(lane.bars.begin(), lane.bars.end(),
                     [](const GanttBar& a, const GanttBar& b) { return a.start < b.start; });
    lane.max_end.resize(lane.bars.size());
    lane.fwd_prefix.resize(lane.bars.size() + 1);
    lane.fwd_prefix[0] = 0;
    const bool plan_lane = lane.bars.empty() || lane.bars.front().kind != BarKind::Trace;
    lane.fwd_time_prefix.assign(plan_lane ? lane.bars.size() + 1 : 0, 0.0);
    lane.bwd_time_prefix.assign(plan_lane ? lane.bars.size() + 1 : 0, 0.0);
    lane.step_bars.clear();
    double running = -1e300;
    for (std::size_t i = 0; i < lane.bars.size(); ++i) {
      const GanttBar& bar = lane.bars[i];
      running = std::max(running, bar.end);
      lane.max_end[i] = running;
      lane.fwd_prefix[i + 1] = lane.fwd_prefix[i] + (bar.kind == BarKind::Forward ? 1 : 0);
      if (!plan_lane) continue;
      if (!bar.is_compute()) lane.step_bars.push_back(static_cast<std::int32_t>(i));
      lane.fwd_time_prefix[i + 1] =
          lane.fwd_time_prefix[i] + (bar.kind == BarKind::Forward ? bar.duration() : 0.0);
      lane.bwd_time_prefix[i + 1] =
          lane.bwd_time_prefix[i] + (bar.kind == BarKind::Backward ? bar.duration() : 0.0);
    }
    if (!lane.bars.empty()) end_max = std::max(end_max, running);
    bar_count_ += lane.bars.size();
  }
  extent_end_ = end_max > extent_start_ ? end_max : extent_start_ + 1.0;
}

GanttModel GanttModel::from_trace_rows(std::vector<GanttLane> lanes, int groups,
                                       std::shared_ptr<const TraceTimeline> trace) {
  GanttModel m;
  m.lanes_ = std::move(lanes);
  m.replicas_ = std::max(1, groups);
  m.stages_ = 0;
  m.trace_ = std::move(trace);
  m.metrics_.makespan = 0.0;
  double first = 0.0;
  for (const GanttLane& l : m.lanes_)
    for (const GanttBar& b : l.bars) first = std::min(first, b.start);
  m.extent_start_ = first;
  m.index_lanes(0.0);
  m.seq_offsets_ = {0};
  return m;
}

std::pair<std::size_t, std::size_t> GanttModel::visible(int lane_i, double t0, double t1) const {
  const GanttLane& l = lane(lane_i);
  const auto first = static_cast<std::size_t>(
      std::lower_bound(l.max_end.begin(), l.max_end.end(), t0) - l.max_end.begin());
  const auto last = static_cast<std::size_t>(
      std::upper_bound(l.bars.begin(), l.bars.end(), t1,
                       [](double t, const GanttBar& b) { return t < b.start; }) -
      l.bars.begin());
  return {first, std::max(first, last)};
}

std::optional<std::int32_t> GanttModel::hit(int lane_i, double t, double tolerance) const {
  if (lane_i < 0 || lane_i >= lane_count()) return std::nullopt;
  const auto& bars = lane(lane_i).bars;
  // The last bar starting at or before t.
  const auto after = std::upper_bound(bars.begin(), bars.end(), t,
                                      [](double v, const GanttBar& b) { return v < b.start; });
  const auto next = static_cast<std::int32_t>(after - bars.begin());
  const std::int32_t prev = next - 1;
  if (prev >= 0 && bars[prev].end >= t) return prev;
  std::optional<std::int32_t> found;
  double best = tolerance;
  if (prev >= 0 && t - bars[prev].end <= best) {
    best = t - bars[prev].end;
    found = prev;
  }
  if (next < static_cast<std::int32_t>(bars.size())) {
    const double d = bars[next].start - t;
    if (d < best || (!found && d <= best)) found = next;
  }
  return found;
}

double GanttModel::memory_at(int lane_i, double t) const {
  const auto& mem = lane(lane_i).memory;
  const auto it = std::upper_bound(mem.begin(), mem.end(), t,
                                   [](double v, const MemoryPoint& p) { return v < p.time; });
  return it == mem.begin() ? 0.0 : std::prev(it)->bytes;
}

std::span<const GanttSegment> GanttModel::segments(BarRef ref) const {
  const GanttBar& b = bar(ref);
  const PackTable* table = pack_table(lane(ref.lane).replica, b.kind);
  if (!table || b.pack < 0 || static_cast<std::size_t>(b.pack) + 1 >= table->offsets.size())
    return {};
  const auto begin = static_cast<std::size_t>(table->offsets[static_cast<std::size_t>(b.pack)]);
  const auto end = static_cast<std::size_t>(table->offsets[static_cast<std::size_t>(b.pack) + 1]);
  return std::span<const GanttSegment>(segs_.data() + begin, end - begin);
}

Tokens GanttModel::tokens(BarRef ref) const {
  Tokens t = 0;
  for (const auto& s : segments(ref)) t += s.end - s.begin;
  return t;
}

std::vector<SeqIndex> GanttModel::pack_sequences(BarRef ref) const {
  std::vector<SeqIndex> out;
  for (const auto& s : segments(ref))
    if (std::find(out.begin(), out.end(), s.seq) == out.end()) out.push_back(s.seq);
  const auto length = [this](SeqIndex s) {
    return s >= 0 && s < sequence_count() ? sequence(s).length : Tokens{0};
  };
  std::stable_sort(out.begin(), out.end(), [&](SeqIndex a, SeqIndex b) {
    return length(a) != length(b) ? length(a) > length(b) : a < b;
  });
  return out;
}

std::span<const BarRef> GanttModel::sequence_bars(SeqIndex seq) const {
  if (seq < 0 || static_cast<std::size_t>(seq) + 1 >= seq_offsets_.size()) return {};
  const auto b = static_cast<std::size_t>(seq_offsets_[static_cast<std::size_t>(seq)]);
  const auto e = static_cast<std::size_t>(seq_offsets_[static_cast<std::size_t>(seq) + 1]);
  return std::span<const BarRef>(seq_bars_.data() + b, e - b);
}

}  // namespace slimpack
