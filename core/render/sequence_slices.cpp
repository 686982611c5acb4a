#include "render/sequence_slices.h"

#include <algorithm>
#include <tuple>
#include <utility>

namespace slimpack {
namespace {

// Where a sequence was cut: every multiple of the slice size, or, without one, every begin and end
// of its segments in any pack of either pass.
class SliceCuts {
 public:
  SliceCuts(const GanttModel& model, SeqIndex seq)
      : size_(model.slice_size()), length_(model.sequence(seq).length) {
    if (size_ > 0) return;
    cuts_ = {0, length_};
    for (const BarRef& ref : model.sequence_bars(seq))
      for (const GanttSegment& s : model.segments(ref))
        if (s.seq == seq) cuts_.insert(cuts_.end(), {s.begin, s.end});
    std::sort(cuts_.begin(), cuts_.end());
    cuts_.erase(std::unique(cuts_.begin(), cuts_.end()), cuts_.end());
  }

  // Slices in [begin, end) (a piece starts and ends on cuts; one that does not still counts every
  // slice it touches).
  int in(Tokens begin, Tokens end) const {
    if (end <= begin) return 0;
    if (size_ > 0) return static_cast<int>((end - 1) / size_ - begin / size_ + 1);
    const auto lo = std::upper_bound(cuts_.begin(), cuts_.end(), begin);
    const auto hi = std::lower_bound(cuts_.begin(), cuts_.end(), end);
    return static_cast<int>(std::max<std::ptrdiff_t>(hi - lo, 0)) + 1;
  }
  int total() const { return in(0, std::max<Tokens>(length_, 1)); }

 private:
  Tokens size_;
  Tokens length_;
  std::vector<Tokens> cuts_;
};

}  // namespace

std::vector<SequencePackRow> sequence_pack_rows(const GanttModel& model, SeqIndex seq) {
  std::vector<SequencePackRow> rows;
  if (seq < 0 || seq >= model.sequence_count()) return rows;
  const SliceCuts cuts(model, seq);
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
      if (s.seq != seq) continue;
      row.slices.emplace_back(s.begin, s.end);
      row.slice_count += cuts.in(s.begin, s.end);
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
  if (seq < 0 || seq >= model.sequence_count()) return 0;
  return SliceCuts(model, seq).total();
}

}  // namespace slimpack
