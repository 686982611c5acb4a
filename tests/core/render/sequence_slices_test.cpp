// A sequence's slices are what the slicer cut, never the pieces packs hold (issue 33: "27 slices"
// was said of a 99-slice sequence whose slices sat in 27 forward pieces).
#include "render/sequence_slices.h"

#include <gtest/gtest.h>

#include "gantt_fixture.h"

namespace slimpack {
namespace {

using testing::make_op;

// One stage, one sequence "long" of `length` tokens; forward and backward packs hold one piece
// each, cut at `forward_cuts` and `backward_cuts` (inner bounds), run back to back.
testing::PlanAndResult one_sequence(Tokens length, Tokens slice_size,
                                    const std::vector<Tokens>& forward_cuts,
                                    const std::vector<Tokens>& backward_cuts) {
  testing::PlanAndResult pr;
  pr.plan.stages = 1;
  pr.plan.slice_size = slice_size;
  pr.plan.sequences = {{"long", length}};
  ReplicaPlan rp;
  auto pieces = [&](const std::vector<Tokens>& cuts, std::vector<Pack>& packs) {
    Tokens begin = 0;
    for (std::size_t i = 0; i <= cuts.size(); ++i) {
      const Tokens end = i < cuts.size() ? cuts[i] : length;
      packs.push_back(Pack{{{0, begin, end}}, 1.0, {}});
      begin = end;
    }
  };
  pieces(forward_cuts, rp.forward);
  pieces(backward_cuts, rp.backward);
  pr.plan.replicas = {rp};
  ReplicaResult rr;
  rr.stages.resize(1);
  double t = 0;
  for (std::size_t k = 0; k < rp.forward.size(); ++k, t += 1)
    rr.stages[0].ops.push_back(make_op(t, t + 1, static_cast<int>(k), 0, OpKind::Forward));
  for (std::size_t k = 0; k < rp.backward.size(); ++k, t += 1)
    rr.stages[0].ops.push_back(make_op(t, t + 1, static_cast<int>(k), 0, OpKind::Backward));
  rr.makespan = t;
  pr.result.replicas = {rr};
  pr.result.makespan = pr.result.iteration_time = t;
  pr.result.time_unit = "units";
  return pr;
}

int slices_of(const std::vector<SequencePackRow>& rows, BarKind kind) {
  int n = 0;
  for (const SequencePackRow& r : rows)
    if (r.kind == kind) n += r.slice_count;
  return n;
}

TEST(SequenceSlices, NinetyNineSlicesInTwentySevenForwardPiecesAreNinetyNineSlices) {
  // S = 10, 990 tokens: 99 slices. Forward: 18 pieces of 4 slices, then 9 of 3 (27 pieces);
  // backward: 33 pieces of 3 slices.
  std::vector<Tokens> forward, backward;
  Tokens at = 0;
  for (int i = 0; i < 27; ++i) {
    at += i < 18 ? 40 : 30;
    if (at < 990) forward.push_back(at);
  }
  for (Tokens b = 30; b < 990; b += 30) backward.push_back(b);
  const auto pr = one_sequence(990, 10, forward, backward);
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  EXPECT_EQ(m.slice_size(), 10);
  EXPECT_EQ(sequence_slice_count(m, 0), 99);
  const auto rows = sequence_pack_rows(m, 0);
  ASSERT_EQ(rows.size(), 27u + 33u);
  EXPECT_EQ(rows.front().slices.size(), 1u);  // one piece ...
  EXPECT_EQ(rows.front().slice_count, 4);     // ... of four slices
  EXPECT_EQ(slices_of(rows, BarKind::Forward), 99);
  EXPECT_EQ(slices_of(rows, BarKind::Backward), 99);
}

TEST(SequenceSlices, ALastShortSliceIsOneSlice) {
  const auto pr = one_sequence(95, 10, {}, {});  // slices of 10 ... and one of 5
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  EXPECT_EQ(sequence_slice_count(m, 0), 10);
}

TEST(SequenceSlices, WithoutASliceSizeTheCutsOfBothPassesMakeTheSlices) {
  // A hand-written plan (S = 0): forward cut at 500, backward at 300, so three slices
  // [0,300) [300,500) [500,990); forward pack F1 holds two of them in one piece.
  const auto pr = one_sequence(990, 0, {500}, {300});
  const GanttModel m = GanttModel::build(pr.plan, pr.result);
  EXPECT_EQ(sequence_slice_count(m, 0), 3);
  const auto rows = sequence_pack_rows(m, 0);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].slice_count, 2);  // F1 [0,500)
  EXPECT_EQ(rows[1].slice_count, 1);  // F2 [500,990)
  EXPECT_EQ(slices_of(rows, BarKind::Backward), 3);
  // A whole sequence in one pack each way is one slice.
  const auto whole = one_sequence(990, 0, {}, {});
  EXPECT_EQ(sequence_slice_count(GanttModel::build(whole.plan, whole.result), 0), 1);
  EXPECT_EQ(sequence_slice_count(m, 7), 0);  // out of range
}

}  // namespace
}  // namespace slimpack
