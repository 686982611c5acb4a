#include "render/sequence_slices.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace slimpack {

std::vector<SequencePackRow> sequence_pack_rows(const GanttModel& model, SeqIndex seq) {
  std::vector<SequencePackRow> rows;
  if (seq < 0 || seq >= model.sequence_count()) return rows;
  for (const BarRef& ref : model.sequence_bars(seq)) {
    const GanttBar& bar = model.bar(ref);
    if (bar.kind != BarKind::Forward && bar.kind != BarKind::Backward) continue;
    SequencePackRow row;
    row.replica = model.lane(ref.lane).replica;
    row.stage = model.lane(ref.lane).stage;
    row.kind = bar.kind;
    row.pack = bar.pack;
    row.chunk = bar.chunk;
    row.start = bar.start;
    row.end = bar.end;
    row.bar = ref;
    for (const GanttSegment& s : model.segments(ref)) {
      row.pack_tokens += s.end - s.begin;
      if (s.seq == seq) row.slices.emplace_back(s.begin, s.end);
    }
    std::sort(row.slices.begin(), row.slices.end());
    rows.push_back(std::move(row));
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const SequencePackRow& a, const SequencePackRow& b) {
                     return std::tuple(a.replica, a.stage, a.kind != BarKind::Forward, a.start) <
                            std::tuple(b.replica, b.stage, b.kind != BarKind::Forward, b.start);
                   });
  return rows;
}

int sequence_slice_count(const GanttModel& model, SeqIndex seq) {
  // Stage 0's first virtual chunk, over every replica (a DP-merged sequence is split over several).
  int n = 0;
  for (const SequencePackRow& r : sequence_pack_rows(model, seq))
    if (r.kind == BarKind::Forward && r.stage == 0 && r.chunk == 0)
      n += static_cast<int>(r.slices.size());
  return n;
}

}  // namespace slimpack
