#pragma once
// Where one sequence's slices went: per stage, the forward packs and the backward packs that hold
// a slice of it, with their times and the token ranges of its slices. Asymmetric packing groups
// the same slices differently in forward and backward; this is what shows it for one sequence
// (the explorer's sequence inspector and the Gantt's highlight label read it).
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
  std::vector<std::pair<Tokens, Tokens>> slices;  // [begin, end) of the sequence's slices in it
  Tokens pack_tokens = 0;                         // all tokens of the pack
  BarRef bar;
};

// Rows by replica, stage, then forward before backward, each pass by start time. Empty for a
// sequence index out of range.
std::vector<SequencePackRow> sequence_pack_rows(const GanttModel& model, SeqIndex seq);

// How many slices the sequence was cut into: its slices in the forward packs of stage 0 (every
// stage holds the same slices), counted once per virtual chunk and over every replica.
int sequence_slice_count(const GanttModel& model, SeqIndex seq);

}  // namespace slimpack
