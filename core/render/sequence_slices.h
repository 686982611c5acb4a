#pragma once
// Where one sequence's slices went: per stage, the forward packs and the backward packs that hold
// a slice of it, with their times and the token ranges of its slices. Asymmetric packing groups
// the same slices differently in forward and backward; this is what shows it for one sequence
// (the explorer's sequence inspector and the Gantt's highlight label read it).
//
// A slice is what the slicer cut: with the plan's slice size S, ceil(length / S) of them (design.md
// section 2). A pack merges a sequence's consecutive slices into one segment (a piece), so a pack
// of one piece [0:3072) holds three slices of S = 1024: pieces are never counted as slices. A plan
// that names no slice size (S = 0, e.g. written by hand) was cut where its segments begin and end,
// in either pass: its slices are the pieces between those cuts (a schedule's atoms).
#include <utility>
#include <vector>

#include "render/gantt_model.h"

namespace slimpack {

struct SequencePackRow {
  int replica = 0;
  int stage = 0;
  BarKind kind = BarKind::Forward;  // Forward or Backward
  int pack = 0;                     // index among the replica's forward or backward packs
  int chunk = 0;                    // virtual chunk (interleaved)
  double start = 0.0;
  double end = 0.0;
  // [begin, end) of the sequence's pieces in it (consecutive slices in one pack are one piece)
  std::vector<std::pair<Tokens, Tokens>> slices;
  int slice_count = 0;     // slices of the sequence in the pack (its pieces hold one or more each)
  Tokens pack_tokens = 0;  // all tokens of the pack
  BarRef bar;
};

// Rows by replica, stage, then forward before backward, each pass by start time. Empty for a
// sequence index out of range.
std::vector<SequencePackRow> sequence_pack_rows(const GanttModel& model, SeqIndex seq);

// How many slices the sequence was cut into (the slicer's count, see above; 0 out of range).
int sequence_slice_count(const GanttModel& model, SeqIndex seq);

}  // namespace slimpack
